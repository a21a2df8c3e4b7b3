import { endorse } from '../lib/actions/comments';
import { api, json } from '../lib/http/edge';
import { etagOf, toView } from '../lib/model/view';

/** PUT /api/actions/{id}/endorsements/me: the caller endorses; again changes nothing. 200 with the action. */
export const handler = api().handler(async (event) => {
  const action = await endorse(event, event.pathParameters?.id ?? '');
  return json(200, toView(action), { etag: etagOf(action) });
});
