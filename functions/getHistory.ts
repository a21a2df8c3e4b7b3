import { listHistory } from '../lib/actions/comments';
import { api, json } from '../lib/http/edge';

/** GET /api/actions/{id}/history: every change, oldest first, in pages; also after a delete. */
export const handler = api().handler(async (event) =>
  json(200, await listHistory(event.viewer, event.pathParameters?.id ?? '', event.rawQueryString ?? '')),
);
