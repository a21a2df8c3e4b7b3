import { api, json } from '../lib/http/edge';
import { exportOf } from '../lib/transfer/exports';

/** GET /api/exports/{id}: the caller's export, with a fresh link to its file when done; 404 for anyone else. */
export const handler = api().handler(async (event) =>
  json(200, await exportOf(event.caller, event.pathParameters?.id ?? '')),
);
