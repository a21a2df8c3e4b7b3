import { editComment } from '../lib/actions/comment-text';
import { api, json } from '../lib/http/edge';

/** PATCH /api/actions/{id}/comments/{commentId}: its author only. */
export const handler = api({ body: 'merge-patch' }).handler(async (event) => {
  const { id = '', commentId = '' } = event.pathParameters ?? {};
  return json(200, await editComment(event, id, commentId, event.body));
});
