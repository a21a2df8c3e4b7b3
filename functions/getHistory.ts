import { listHistory } from '../lib/comments';
import { api, json } from '../lib/http';

/** GET /api/actions/{id}/history: every change, oldest first, in pages; also after a delete. */
export const handler = api().handler(async (event) =>
  json(200, await listHistory(event.pathParameters?.id ?? '', event.rawQueryString ?? '')),
);
