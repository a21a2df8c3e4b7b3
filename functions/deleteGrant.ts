import { revokeGrant } from '../lib/access/grants';
import { api, json } from '../lib/http/edge';

/** DELETE /api/grants/{id}: an admin of a scope containing the grant's; 204. */
export const handler = api().handler(async (event) => {
  await revokeGrant(event, event.pathParameters?.id ?? '');
  return json(204);
});
