import { api, json } from '../lib/http/edge';
import { startImport } from '../lib/transfer/import/start';

/** POST /api/imports: 202 with the queued import (a dry run or a real one) and its Location. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const started = await startImport(event.caller, event.body);
  return json(202, started, { location: `/api/imports/${started.id}` });
});
