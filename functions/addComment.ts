import { addComment } from '../lib/actions/comment-text';
import { seeAction } from '../lib/actions/comments';
import { once, requestOf } from '../lib/actions/idempotency';
import { api, json } from '../lib/http/edge';

/** POST /api/actions/{id}/comments: any signed-in caller; 201 with the comment; with an `Idempotency-Key`, at most once. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const id = event.pathParameters?.id ?? '';
  const reply = await once(
    requestOf(event),
    (comment: { id: string }) => ({
      status: 201,
      body: comment,
      location: `/api/actions/${encodeURIComponent(id)}/comments/${comment.id}`,
    }),
    (remember) => addComment(event, id, event.body, remember),
    () => seeAction(event.viewer, id),
  );
  return json(reply.status, reply.body, reply.location ? { location: reply.location } : {});
});
