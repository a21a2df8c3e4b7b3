import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CopyObjectCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { LOCAL_BUCKET } from '../../infra/local/storage';
import { LOCAL_STORAGE_CREDENTIALS } from '../../lib/evidence/storage';
import {
  actionBody,
  call,
  create,
  dataDir,
  expectProblem,
  getOne,
  newUser,
  type Reply,
  startOwnStack,
  uniqueProducer,
  waitForEvents,
} from '../support/client';
import { addFile, attach, download, postForm, startUpload } from '../support/evidence';

/**
 * Issue 38, contract section 15: evidence uploaded straight to the local storage (s3rver behind
 * the front that checks what S3 checks), attached, read back, refused by storage when it is not
 * what the policy pins, and removed; through real HTTP to the stack and to the storage.
 */

const stackInfo = (dir: string) => JSON.parse(readFileSync(join(dir, 'stack.json'), 'utf8')) as { s3: string };

const s3Code = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('evidence', () => {
  const owner = newUser('Olive Owner');
  const other = newUser('Otto Other');
  let id: string;
  let s3: string;

  beforeAll(async () => {
    id = await create(owner.token, actionBody(uniqueProducer('evidence')));
    s3 = stackInfo(dataDir()).s3;
  });

  it('uploads, attaches and reads back the same bytes; the action and its history show it', async () => {
    const bytes = randomBytes(70_000);
    const before = await getOne(owner.token, id);
    const started = await startUpload(owner, id, {
      name: 'Broken guard – north.jpg',
      contentType: 'image/jpeg',
      size: bytes.length,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.url.startsWith(s3)).toBe(true);
    const expires = Date.parse(started.body.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(14 * 60_000);
    expect(expires).toBeLessThanOrEqual(15 * 60_000);
    expect((await postForm(started.body, bytes)).status).toBe(204);

    const attached = await attach(owner, id, started.body.uploadId);
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    expect(attached.body).toEqual({
      id: started.body.uploadId,
      name: 'Broken guard – north.jpg',
      contentType: 'image/jpeg',
      size: bytes.length,
      uploadedBy: { id: owner.id, name: owner.name, email: owner.email },
      uploadedAt: expect.any(String),
      scan: 'not-scanned',
    });
    expect(attached.headers.get('location')).toBe(`/api/actions/${id}/attachments/${started.body.uploadId}`);
    // Again: the same attachment, nothing added.
    const again = await attach(owner, id, started.body.uploadId);
    expect(again.status).toBe(200);

    const after = await getOne(owner.token, id);
    expect(after.body.version).toBe(before.body.version + 1);
    expect(after.body.attachments).toContainEqual(attached.body);
    const history = await call('GET', `/api/actions/${id}/history?limit=100`, { token: owner.token });
    expect(history.body.entries.at(-1)).toMatchObject({
      type: 'attachment-added',
      attachment: {
        id: attached.body.id,
        name: 'Broken guard – north.jpg',
        contentType: 'image/jpeg',
        size: bytes.length,
      },
    });
    await waitForEvents((e) => e['detail-type'] === 'ActionAttachmentAdded' && e.detail.id === id, 1);

    const read = await download(other, id, attached.body.id);
    expect(read.status).toBe(302);
    const location = new URL(read.headers.get('location') as string);
    expect(location.origin).toBe(s3);
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('content-disposition')).toMatch(
      /^inline; filename=".*"; filename\*=UTF-8''Broken%20guard%20%E2%80%93%20north\.jpg$/,
    );
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('a PDF is served as an attachment (saved, not shown)', async () => {
    const attached = await addFile(owner, id, randomBytes(1000), 'application/pdf');
    const read = await download(owner, id, attached.id);
    const file = await fetch(read.headers.get('location') as string);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('storage itself refuses a wrong size, a wrong type, another key and an unsigned read', async () => {
    const bytes = randomBytes(2048);
    const started = await startUpload(owner, id, { name: 'p.png', contentType: 'image/png', size: bytes.length });
    expect(started.status).toBe(201);
    const larger = await postForm(started.body, randomBytes(2049));
    expect([larger.status, s3Code(larger.text)]).toEqual([400, 'EntityTooLarge']);
    const smaller = await postForm(started.body, randomBytes(2047));
    expect([smaller.status, s3Code(smaller.text)]).toEqual([400, 'EntityTooSmall']);
    const type = await postForm(started.body, bytes, { fields: { 'Content-Type': 'text/html' } });
    expect([type.status, s3Code(type.text)]).toEqual([403, 'AccessDenied']);
    expect(type.text).toMatch(/content-type/i);
    const key = await postForm(started.body, bytes, {
      fields: { key: String(started.body.fields.key).replace(/[^/]+$/, randomUUID()) },
    });
    expect([key.status, s3Code(key.text)]).toEqual([403, 'AccessDenied']);
    const extra = await postForm(started.body, bytes, { fields: { 'x-amz-meta-size': '1' } });
    expect(extra.status).toBe(403);
    const forged = await postForm(started.body, bytes, { fields: { 'X-Amz-Signature': '0'.repeat(64) } });
    expect([forged.status, s3Code(forged.text)]).toEqual([403, 'SignatureDoesNotMatch']);
    // None of those stored anything: the upload cannot be attached.
    expectProblem(await attach(owner, id, started.body.uploadId), 400, { field: 'uploadId' });

    // The right file still goes in; an unsigned read of it is refused, a tampered URL too.
    expect((await postForm(started.body, bytes)).status).toBe(204);
    const attached = await attach(owner, id, started.body.uploadId);
    expect(attached.status).toBe(201);
    const signed = new URL((await download(owner, id, attached.body.id)).headers.get('location') as string);
    const unsigned = await fetch(`${signed.origin}${signed.pathname}`);
    expect([unsigned.status, s3Code(await unsigned.text())]).toEqual([403, 'AccessDenied']);
    const tampered = new URL(signed);
    tampered.searchParams.set('response-content-type', 'text/html');
    const refused = await fetch(tampered);
    expect([refused.status, s3Code(await refused.text())]).toEqual([403, 'SignatureDoesNotMatch']);
  });

  it('storage refuses an expired policy and an expired URL', async () => {
    const { LOCAL_STORAGE_CREDENTIALS } = await import('../../lib/evidence/storage');
    const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
    const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3,
      forcePathStyle: true,
      credentials: LOCAL_STORAGE_CREDENTIALS,
    });
    const bytes = randomBytes(100);
    const key = `uploads/${id}/${randomUUID()}`;
    const post = await createPresignedPost(client, {
      Bucket: 'evidence',
      Key: key,
      Fields: { 'Content-Type': 'image/png' },
      Conditions: [['content-length-range', 100, 100]],
      Expires: 1,
    });
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'evidence', Key: key }), { expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    const late = await postForm(post, bytes);
    expect([late.status, s3Code(late.text)]).toEqual([403, 'AccessDenied']);
    expect(late.text).toContain('Policy expired');
    const expired = await fetch(url);
    expect([expired.status, s3Code(await expired.text())]).toEqual([403, 'AccessDenied']);
    client.destroy();
  });

  it('a type or size outside the settings, a bad name or a bad uploadId is a 400 naming it', async () => {
    const up = (body: Record<string, unknown>) =>
      call('POST', `/api/actions/${id}/uploads`, { token: owner.token, body });
    expectProblem(await up({ name: 'a.exe', contentType: 'application/x-msdownload', size: 10 }), 400, {
      field: 'contentType',
    });
    expectProblem(await up({ name: 'a.jpg', contentType: 'image/jpeg', size: 25 * 1024 * 1024 + 1 }), 400, {
      field: 'size',
    });
    expectProblem(await up({ name: 'a.jpg', contentType: 'image/jpeg', size: 0 }), 400, { field: 'size' });
    expectProblem(await up({ name: 'a\nb.jpg', contentType: 'image/jpeg', size: 10 }), 400, { field: 'name' });
    expectProblem(await up({ name: 'x'.repeat(201), contentType: 'image/jpeg', size: 10 }), 400, { field: 'name' });
    expectProblem(await attach(owner, id, 'not-an-id'), 400, { field: 'uploadId' });
    expectProblem(await attach(owner, id, randomUUID()), 400, { field: 'uploadId' });
    expectProblem(await startUpload(owner, randomUUID(), { name: 'a.jpg', contentType: 'image/jpeg', size: 10 }), 404);
  });

  it('an attach cut off after moving the file (a crash before its record) is finished by the same call again', async () => {
    const bytes = randomBytes(5000);
    const started = await startUpload(owner, id, { name: 'cut.jpg', contentType: 'image/jpeg', size: bytes.length });
    expect((await postForm(started.body, bytes)).status).toBe(204);
    // What the attach does before its transaction, done here as the service would, and then the
    // process "dies": the file sits under attachments/ with no record of it, and no upload left.
    const storage = new S3Client({
      endpoint: s3,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: LOCAL_STORAGE_CREDENTIALS,
    });
    const key = started.body.fields.key as string;
    const moved = key.replace(/^uploads\//, 'attachments/');
    await storage.send(
      new CopyObjectCommand({
        Bucket: LOCAL_BUCKET,
        Key: moved,
        CopySource: `${LOCAL_BUCKET}/${key}`,
        MetadataDirective: 'COPY',
      }),
    );
    await storage.send(new DeleteObjectCommand({ Bucket: LOCAL_BUCKET, Key: key }));
    storage.destroy();
    // The other person's retry with the same id is still refused: the file is the uploader's.
    expectProblem(await attach(other, id, started.body.uploadId), 400, { field: 'uploadId' });
    const retried = await attach(owner, id, started.body.uploadId);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const url = (await download(owner, id, retried.body.id)).headers.get('location') as string;
    expect(sha256(new Uint8Array(await (await fetch(url)).arrayBuffer()))).toBe(sha256(bytes));
  });

  it("another person's upload cannot be attached by someone else", async () => {
    const bytes = randomBytes(64);
    const started = await startUpload(owner, id, { name: 'o.jpg', contentType: 'image/jpeg', size: 64 });
    expect((await postForm(started.body, bytes)).status).toBe(204);
    expectProblem(await attach(other, id, started.body.uploadId), 400, { field: 'uploadId' });
  });

  it('removal: the uploader or the owner; 204, the history entry, and the object is gone', async () => {
    const theirs = await addFile(other, id, randomBytes(300));
    const mine = await addFile(owner, id, randomBytes(300));
    const url = (await download(owner, id, theirs.id)).headers.get('location') as string;
    expectProblem(await call('DELETE', `/api/actions/${id}/attachments/${mine.id}`, { token: other.token }), 403);
    // The uploader removes their own; the owner removes anyone's.
    expect((await call('DELETE', `/api/actions/${id}/attachments/${theirs.id}`, { token: other.token })).status).toBe(
      204,
    );
    expect((await call('DELETE', `/api/actions/${id}/attachments/${mine.id}`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await fetch(url)).status).toBe(404);
    expectProblem(await download(owner, id, theirs.id), 404);
    expectProblem(await call('DELETE', `/api/actions/${id}/attachments/${mine.id}`, { token: owner.token }), 404);
    const history = await call('GET', `/api/actions/${id}/history?limit=100`, { token: owner.token });
    expect(history.body.entries.at(-1)).toMatchObject({ type: 'attachment-removed', attachment: { id: mine.id } });
    const { attachments } = (await getOne(owner.token, id)).body;
    expect(attachments.map((a: { id?: string }) => a.id)).not.toContain(mine.id);
  });

  it('link attachments keep working beside uploaded files; a PATCH replaces only the links', async () => {
    const linkAction = await create(
      owner.token,
      actionBody(uniqueProducer('evidence-links'), {
        attachments: [{ url: 'https://files.example.com/a.pdf', name: 'a.pdf' }],
      }),
    );
    const file = await addFile(owner, linkAction, randomBytes(10));
    const current = await getOne(owner.token, linkAction);
    expect(current.body.attachments).toEqual([{ url: 'https://files.example.com/a.pdf', name: 'a.pdf' }, file]);
    const patched = await call('PATCH', `/api/actions/${linkAction}`, {
      token: owner.token,
      body: { attachments: [{ url: 'https://files.example.com/b.pdf' }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.attachments).toEqual([file, { url: 'https://files.example.com/b.pdf' }]);
    // A PATCH cannot forge an uploaded file.
    expectProblem(
      await call('PATCH', `/api/actions/${linkAction}`, { token: owner.token, body: { attachments: [{ ...file }] } }),
      400,
    );
  });

  it('at most 50 attachments an action: the 51st is a 409', async () => {
    const links = Array.from({ length: 50 }, (_, i) => ({ url: `https://files.example.com/${i}` }));
    const full = await create(owner.token, actionBody(uniqueProducer('evidence-full'), { attachments: links }));
    expectProblem(await startUpload(owner, full, { name: 'a.jpg', contentType: 'image/jpeg', size: 5 }), 409);
  });

  it('measures a 5 MB upload end to end (start, POST to storage, attach)', async () => {
    const bytes = randomBytes(5 * 1024 * 1024);
    const started = Date.now();
    await addFile(owner, id, bytes);
    const ms = Date.now() - started;
    console.log(`evidence: a 5 MB upload end to end took ${ms} ms`);
    expect(ms).toBeLessThan(30_000);
  });
});

describe('evidence on a scoped stack that requires it to close', () => {
  let stack: LocalStack | undefined;
  const owner = newUser('Sam Scoped');
  const stranger = newUser('Nina Nosy');
  const base = () => (stack as LocalStack).url;
  let id: string;

  // A stack of its own in this file's process: its settings are read once, here, before any use.
  beforeAll(async () => {
    stack = await startOwnStack({ ACCESS: 'scoped', EVIDENCE_REQUIRED_STATUSES: '3', LOG_LEVEL: 'silent' });
  }, 400_000);
  afterAll(async () => {
    await stack?.close();
    if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it('closing without an uploaded file is a 409 naming attachments; with one it closes', async () => {
    id = await create(owner.token, actionBody(uniqueProducer('evidence-scoped')), base());
    const close = () =>
      call('PATCH', `/api/actions/${id}`, { token: owner.token, body: { status: '3' }, baseUrl: base() });
    expectProblem(await close(), 409, { field: 'attachments' });
    await addFile(owner, id, randomBytes(20), 'image/png', base());
    const closed = await close();
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  });

  it('a person who cannot see the action gets 404 for its files, as for an id that never existed', async () => {
    const file = await addFile(owner, id, randomBytes(20), 'image/png', base());
    expect((await download(owner, id, file.id, base())).status).toBe(302);
    const theirs: Reply[] = [
      await download(stranger, id, file.id, base()),
      await call('DELETE', `/api/actions/${id}/attachments/${file.id}`, { token: stranger.token, baseUrl: base() }),
      await startUpload(stranger, id, { name: 'x.png', contentType: 'image/png', size: 3 }, base()),
      await attach(stranger, id, file.id, base()),
    ];
    for (const reply of theirs) {
      expectProblem(reply, 404);
      expect(reply.body.detail).toBe(`No action has the id '${id}'.`);
    }
  });
});
