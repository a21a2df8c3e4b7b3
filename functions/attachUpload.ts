import { attachUpload } from '../lib/evidence/uploads';
import { api, json } from '../lib/http/edge';

/** POST /api/actions/{id}/attachments: 201 with the attachment (200 when that upload was already attached). */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const id = event.pathParameters?.id ?? '';
  const { attachment, created } = await attachUpload(event.viewer, event.caller, id, event.body);
  return json(created ? 201 : 200, attachment, {
    location: `/api/actions/${encodeURIComponent(id)}/attachments/${attachment.id}`,
  });
});
