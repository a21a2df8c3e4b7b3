import { deleteAction } from '../lib/actions/by-id';
import { api, json } from '../lib/http/edge';

/** DELETE /api/actions/{id}: the owner only; 204. */
export const handler = api().handler(async (event) => {
  await deleteAction(event, event.pathParameters?.id ?? '', event.headers['if-match']);
  return json(204);
});
