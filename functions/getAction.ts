import { getAction } from '../lib/actions/by-id';
import { api, json } from '../lib/http/edge';
import { etagOf, toView } from '../lib/model/view';

/** GET /api/actions/{id}: the action with its ETag. */
export const handler = api().handler(async (event) => {
  const action = await getAction(event.viewer, event.pathParameters?.id ?? '');
  return json(200, toView(action), { etag: etagOf(action) });
});
