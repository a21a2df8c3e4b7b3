import { updateAction } from '../lib/actions/action-service';
import { api, json } from '../lib/http/edge';
import { etagOf, toView } from '../lib/model/view';

/** PATCH /api/actions/{id}: JSON merge patch, by the owner or the assignee (or anyone, if allowed). */
export const handler = api({ body: 'merge-patch' }).handler(async (event) => {
  const action = await updateAction(event, event.pathParameters?.id ?? '', event.body, event.headers['if-match']);
  return json(200, toView(action), { etag: etagOf(action) });
});
