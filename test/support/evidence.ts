import { expect } from 'vitest';
import { apiUrl, call, type Reply, type TestUser } from './client';

/** Evidence (contract section 15) as a client uses it: start an upload, POST the form to storage, attach, download. */

export interface Upload {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

export const startUpload = (
  user: TestUser,
  id: string,
  file: { name: string; contentType: string; size: number },
  baseUrl?: string,
) => call<Upload>('POST', `/api/actions/${id}/uploads`, { token: user.token, body: file, baseUrl });

/** The first bytes of a file of each type the service checks (its signature, section 15). */
const SIGNATURES: Record<string, Uint8Array> = {
  'image/png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]),
  'image/webp': new TextEncoder().encode('RIFF\0\0\0\0WEBP'),
  'image/heic': new TextEncoder().encode('\0\0\0\x18ftypheic'),
  'application/pdf': new TextEncoder().encode('%PDF-1.7'),
};

/** Writes the signature of `contentType` over the first bytes of `bytes` (in place), so random bytes pass for a file of it. */
export function stamp(bytes: Uint8Array, contentType: string): Uint8Array {
  const signature = SIGNATURES[contentType];
  if (signature) bytes.set(signature.subarray(0, Math.min(signature.length, bytes.length)));
  return bytes;
}

/**
 * POSTs the form as a browser would: every field, then the file last. The bytes get the
 * signature of the form's type first (in place: `stamp`), unless `asIs`.
 */
export async function postForm(
  upload: Pick<Upload, 'url' | 'fields'>,
  bytes: Uint8Array,
  change: { fields?: Record<string, string>; fileType?: string; asIs?: boolean } = {},
) {
  if (!change.asIs) stamp(bytes, upload.fields['Content-Type'] ?? '');
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...upload.fields, ...change.fields })) form.append(name, value);
  form.append('file', new Blob([bytes], { type: change.fileType ?? upload.fields['Content-Type'] }), 'photo');
  const response = await fetch(upload.url, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

export const attach = (user: TestUser, id: string, uploadId: string, baseUrl?: string) =>
  call('POST', `/api/actions/${id}/attachments`, { token: user.token, body: { uploadId }, baseUrl });

/** The download route, its redirect not followed (a browser would follow it). */
export async function download(user: TestUser, id: string, attachmentId: string, baseUrl?: string): Promise<Reply> {
  const response = await fetch(`${baseUrl ?? apiUrl()}/api/actions/${id}/attachments/${attachmentId}`, {
    headers: { authorization: `Bearer ${user.token}` },
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Upload and attach in one go; returns the attachment. */
export async function addFile(
  user: TestUser,
  id: string,
  bytes: Uint8Array,
  contentType = 'image/jpeg',
  baseUrl?: string,
) {
  const started = await startUpload(user, id, { name: 'guard.jpg', contentType, size: bytes.length }, baseUrl);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const posted = await postForm(started.body, bytes);
  expect(posted.status, posted.text).toBe(204);
  const attached = await attach(user, id, started.body.uploadId, baseUrl);
  expect(attached.status, JSON.stringify(attached.body)).toBe(201);
  return attached.body;
}
