import { downloadUrl } from '../lib/evidence/evidence';
import { api, json } from '../lib/http/edge';

/** GET /api/actions/{id}/attachments/{attachmentId}: 302 to a presigned GET valid 5 minutes. */
export const handler = api().handler(async (event) => {
  const { id = '', attachmentId = '' } = event.pathParameters ?? {};
  return json(302, undefined, { location: await downloadUrl(event.viewer, id, attachmentId) });
});
