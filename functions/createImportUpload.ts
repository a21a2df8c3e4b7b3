import { api, json } from '../lib/http/edge';
import { createImportUpload } from '../lib/transfer/import/start';

/** POST /api/imports/uploads: 201 with a presigned POST for one CSV or XLSX file of at most 50 MB. */
export const handler = api({ body: 'json' }).handler(async (event) =>
  json(201, await createImportUpload(event.caller, event.body)),
);
