import { api, json } from '../lib/http/edge';
import { exportsOf } from '../lib/transfer/exports';

/** GET /api/exports: the caller's own exports, newest first. */
export const handler = api().handler(async (event) => json(200, await exportsOf(event.caller)));
