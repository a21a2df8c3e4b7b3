import { listActions } from '../lib/actions/action-service';
import { api, json } from '../lib/http/edge';

/** GET /api/actions: filtered, sorted, paged, with the exact totalCount. */
export const handler = api({ reads: true }).handler(async (event) =>
  json(200, await listActions(event.rawQueryString ?? '', event.caller, event.viewer)),
);
