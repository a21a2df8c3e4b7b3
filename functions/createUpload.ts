import { createUpload } from '../lib/evidence/uploads';
import { api, json } from '../lib/http/edge';

/** POST /api/actions/{id}/uploads: whoever may comment; 201 with a presigned POST for one file. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const upload = await createUpload(event.viewer, event.caller, event.pathParameters?.id ?? '', event.body);
  return json(201, upload);
});
