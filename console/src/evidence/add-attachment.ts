import { api } from '../api';
import { messagesOf, problemOf } from '../problem';
import { postToStorage } from './post-to-storage';
import type { Prepared } from './shrink-photo';

/**
 * One file becomes evidence (contract section 15): ask the API for a presigned POST, send the
 * bytes to storage, then attach the upload. Each step's refusal comes back as words; nothing is
 * retried here (the person presses Try again, which asks for a fresh upload).
 */
export async function addAttachment(
  actionId: string,
  file: Prepared,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const path = { id: actionId };
  const upload = await api.POST('/api/actions/{id}/uploads', {
    params: { path },
    body: { name: file.name, contentType: file.contentType, size: file.body.size },
  });
  if (!upload.data) throw new Error(messagesOf(problemOf(upload.error, upload.response)).join(' '));
  await postToStorage(upload.data, file.body, onProgress);
  const attached = await api.POST('/api/actions/{id}/attachments', {
    params: { path },
    body: { uploadId: upload.data.uploadId },
  });
  if (attached.error) throw new Error(messagesOf(problemOf(attached.error, attached.response)).join(' '));
}
