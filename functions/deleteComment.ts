import { deleteComment } from '../lib/actions/comments';
import { api, json } from '../lib/http/edge';

/** DELETE /api/actions/{id}/comments/{commentId}: its author or the action's owner; 204. */
export const handler = api().handler(async (event) => {
  const { id = '', commentId = '' } = event.pathParameters ?? {};
  await deleteComment(event, id, commentId);
  return json(204);
});
