import { api, json } from '../lib/http/edge';
import { getImport } from '../lib/transfer/import/imports';

/** GET /api/imports/{id}: the import and its report, to its importer only (404 for anyone else). */
export const handler = api().handler(async (event) =>
  json(200, await getImport(event.caller, event.pathParameters?.id ?? '')),
);
