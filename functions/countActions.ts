import { countActions } from '../lib/actions/counts';
import { api, json } from '../lib/http/edge';

/**
 * GET /api/actions/counts: the matching actions grouped by one or two fields, each group's count
 * exactly the list's `totalCount` with that group's value added as a filter.
 */
export const handler = api({ reads: true }).handler(async (event) =>
  json(200, await countActions(event.rawQueryString ?? '', event.caller, event.viewer, event.usage)),
);
