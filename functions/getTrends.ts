import { api, json } from '../lib/http/edge';
import { trendsFor } from '../lib/trends/trends';

/**
 * GET /api/actions/trends: created, closed, reopened, closed on time and mean days to close per
 * day, week or month, with open and overdue at each bucket's end (contract section 17).
 */
export const handler = api({ reads: true }).handler(async (event) =>
  json(200, await trendsFor(event.rawQueryString ?? '', event.caller, event.viewer, event.usage)),
);
