import { deleteAction } from '../lib/action-service';
import { api, json } from '../lib/http';

/** DELETE /api/actions/{id}: the owner only; 204. */
export const handler = api().handler(async (event) => {
  await deleteAction(event.caller, event.pathParameters?.id ?? '', event.headers['if-match']);
  return json(204);
});
