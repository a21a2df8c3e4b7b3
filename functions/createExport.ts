import { api, json } from '../lib/http/edge';
import { requestExport } from '../lib/transfer/exports';

/** POST /api/exports: 202 with the export, queued, and its Location. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const created = await requestExport(event.caller, event.groups, event.body);
  return json(202, created, { location: `/api/exports/${created.id}` });
});
