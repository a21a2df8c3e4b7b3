import { listActions } from '../lib/actions/list';
import { api, json } from '../lib/http/edge';

/**
 * GET /api/actions: filtered, sorted, paged, with totalCount: exact (`totalCountRelation: "eq"`),
 * or a lower bound (`"gte"`) when the list's read allowance ran out before the count was done.
 */
export const handler = api({ reads: true }).handler(async (event) =>
  json(200, await listActions(event.rawQueryString ?? '', event.caller, event.viewer, event.usage)),
);
