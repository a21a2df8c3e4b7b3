import { addComment } from '../lib/comments';
import { api, json } from '../lib/http';

/** POST /api/actions/{id}/comments: any signed-in caller; 201 with the comment. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const id = event.pathParameters?.id ?? '';
  const comment = await addComment(event.caller, id, event.body);
  return json(201, comment, { location: `/api/actions/${encodeURIComponent(id)}/comments/${comment.id}` });
});
