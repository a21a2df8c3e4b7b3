import { listGrants } from '../lib/access/grants';
import { api, json } from '../lib/http/edge';

/** GET /api/grants: the grants inside the caller's admin scopes, filtered, in pages. */
export const handler = api().handler(async (event) => json(200, await listGrants(event, event.rawQueryString ?? '')));
