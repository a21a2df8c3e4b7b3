import { listComments } from '../lib/actions/comments';
import { api, json } from '../lib/http/edge';

/** GET /api/actions/{id}/comments: the whole thread in pages, oldest first. */
export const handler = api().handler(async (event) =>
  json(200, await listComments(event.viewer, event.pathParameters?.id ?? '', event.rawQueryString ?? '')),
);
