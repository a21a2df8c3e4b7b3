import { createAction } from '../lib/actions/action-service';
import { once, requestOf } from '../lib/actions/idempotency';
import { api, json } from '../lib/http/edge';

/** POST /api/actions: 201 with the new action's id; with an `Idempotency-Key`, at most once. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const reply = await once(
    requestOf(event),
    (action: { id: string }) => ({ status: 201, body: { id: action.id }, location: `/api/actions/${action.id}` }),
    (remember) => createAction(event.caller, event.body, remember),
  );
  return json(reply.status, reply.body, reply.location ? { location: reply.location } : {});
});
