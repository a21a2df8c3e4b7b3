import { removeAttachment } from '../lib/evidence/evidence';
import { api, json } from '../lib/http/edge';

/** DELETE /api/actions/{id}/attachments/{attachmentId}: the uploader, the owner or a manager; 204. */
export const handler = api().handler(async (event) => {
  const { id = '', attachmentId = '' } = event.pathParameters ?? {};
  await removeAttachment(event.viewer, event.caller, id, attachmentId);
  return json(204);
});
