import { me } from '../lib/access/grants';
import { api, json } from '../lib/http/edge';

/** GET /api/me: the caller, their groups and their effective grants. */
export const handler = api().handler(async (event) => json(200, await me(event)));
