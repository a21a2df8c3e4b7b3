import { createGrant } from '../lib/access/grant-create';
import { api, json } from '../lib/http/edge';

/** POST /api/grants: an admin of a scope containing the grant's; 201 with it (200 when the same grant existed). */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const { grant, created } = await createGrant(event, event.body);
  return json(created ? 201 : 200, grant, { location: `/api/grants/${grant.id}` });
});
