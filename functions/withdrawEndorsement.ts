import { withdrawEndorsement } from '../lib/actions/comments';
import { api, json } from '../lib/http/edge';

/** DELETE /api/actions/{id}/endorsements/me: withdraws the caller's endorsement, if any; 204. */
export const handler = api().handler(async (event) => {
  await withdrawEndorsement(event, event.pathParameters?.id ?? '');
  return json(204);
});
