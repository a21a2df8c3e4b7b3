import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyPeople } from '../../lib/notifications/notifier';
import { eventFromEventBridge } from '../../lib/webhooks/eventbridge';
import {
  actionBody,
  call,
  dataDir,
  expectProblem,
  publishedEvents,
  type TestUser,
  tokenFor,
  uniqueProducer,
  useOwnStack,
  waitForEvents,
} from '../support/client';
import { addFile, attach, download, postForm, startUpload } from '../support/evidence';
import { type Receiver, startReceiver } from '../support/receiver';

/**
 * Issue 54, what a hostile pass found in events, notifications, evidence and the local storage,
 * on a scoped stack of its own (mail stand-in, storage front, events file), one test a finding:
 * each event is judged as it was at its change (the title an email names, the comment text a
 * feed entry shows), the bus carries the public event alone, storage refuses a form that names
 * its key twice and sends nosniff, the attach call checks the file's signature, download names
 * carry no path, closed actions keep their required evidence, and a keyed comment replay on an
 * action the caller no longer sees is that action's 404.
 */

useOwnStack({ ACCESS: 'scoped', ACCESS_CACHE_SECONDS: '1', EVIDENCE_REQUIRED_STATUSES: '3', LOG_LEVEL: 'silent' });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const stackInfo = () => JSON.parse(readFileSync(join(dataDir(), 'stack.json'), 'utf8')) as { s3: string; mail: string };
const s3Code = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A person with a verified email, known to the service (they have called it). */
async function person(name: string, groups: string[] = []): Promise<TestUser> {
  const sub = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  const user = { sub, name, email: `${sub}@example.com`, groups };
  const who = { ...user, id: sub, token: tokenFor(user) };
  expect((await call('GET', '/api/me/notifications', { token: who.token })).status).toBe(200);
  return who;
}

const api = (who: TestUser, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(method, path, { token: who.token, body, headers });

async function newAction(owner: TestUser, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await api(owner, 'POST', '/api/actions', actionBody(uniqueProducer('hostile'), overrides));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

async function patch(who: TestUser, id: string, body: object) {
  const reply = await api(who, 'PATCH', `/api/actions/${id}`, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const assignee = (who: TestUser) => ({ id: who.id, name: who.name });
const SOUTH = { businessUnit: 'Iron Ore', site: 'South Pit' };

describe('events and notifications judged as of the event', () => {
  it('an email names the title as it was at the event, not a later one its reader never saw (Medium)', async () => {
    const [ann, bob, carl] = [await person('Ann'), await person('Bob'), await person('Carl')];
    // Bob takes no email for now: the assignment's first delivery tells nobody, as a queue that
    // holds it back would; it comes again (at least once) after the action moved on.
    expect((await api(bob, 'PATCH', '/api/me/notifications', { email: 'off' })).status).toBe(200);
    const id = await newAction(ann, { title: 'Fix the north guard' });
    await patch(ann, id, { assignee: assignee(bob) }); // v2: Bob's
    // At once renamed and moved out of Bob's sight (another assignee, another site).
    await patch(ann, id, { title: 'Quiet settlement with contractor', assignee: assignee(carl), location: SOUTH });
    const [line] = await waitForEvents((e) => e.detail.id === id && e.detail.version === 3, 1, 20_000);
    expect(line).toBeDefined();
    expect((await api(bob, 'PATCH', '/api/me/notifications', { email: 'immediately' })).status).toBe(200);
    const assigned = publishedEvents().find((e) => e.detail.id === id && e.detail.version === 2);
    const event = eventFromEventBridge(JSON.stringify(assigned));
    expect(event).toBeDefined();
    expect((await notifyPeople([event!])).failed).toEqual([]);

    const emails = ((await (await fetch(`${stackInfo().mail}/store`)).json()) as { emails: any[] }).emails;
    const bobs = emails.filter((e) => e.destination.to.includes(bob.email) && (e.body.text ?? '').includes(id));
    expect(bobs.map((e) => e.subject)).toEqual(['Assigned to you: Fix the north guard']);
    expect(JSON.stringify(bobs)).not.toContain('Quiet settlement');
  });

  it('the feed shows a comment’s text only to a reader who could see the action when it was written (Medium)', async () => {
    const admin = await person('Ada', ['action-admins']);
    const [ann, vic] = [await person('Ann'), await person('Vic')];
    const granted = await api(admin, 'POST', '/api/grants', {
      principal: { type: 'person', id: vic.id },
      role: 'viewer',
      scope: { businessUnit: 'Iron Ore', site: 'North Pit' },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const since = new Date(Date.now() - 1000).toISOString();
    const id = await newAction(ann); // v1, North Pit: Vic sees it
    const first = await api(ann, 'POST', `/api/actions/${id}/comments`, { text: 'Guard is cracked' }); // v2
    expect(first.status).toBe(201);
    expect((await api(ann, 'POST', `/api/actions/${id}/comments`, { text: 'Parts ordered' })).status).toBe(201); // v3
    await patch(ann, id, { location: SOUTH }); // v4: out of Vic's sight; Vic sees the move
    const edited = await api(ann, 'PATCH', `/api/actions/${id}/comments/${first.body.id}`, {
      text: 'Settled with the contractor for cash',
    }); // v5, unseen by Vic
    expect(edited.status).toBe(200);

    await sleep(11_500); // the feed's settle window
    const page = await api(vic, 'GET', `/api/changes?limit=1000&since=${encodeURIComponent(since)}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const mine = (page.body.entries as any[]).filter((e) => e.actionId === id);
    expect(mine.map((e) => e.version)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(mine)).not.toContain('Settled with the contractor');
    // The text written while Vic could see the action still shows; the later edit's does not.
    expect(mine[2].comment.text).toBe('Parts ordered');
    expect(mine[1].comment).toEqual({ id: first.body.id, author: expect.objectContaining({ id: ann.id }) });
    // Ann, who sees the action now, reads the current text on the same entry.
    const hers = await api(ann, 'GET', `/api/changes?limit=1000&since=${encodeURIComponent(since)}`);
    const entry = (hers.body.entries as any[]).find((e) => e.actionId === id && e.version === 2);
    expect(entry.comment.text).toBe('Settled with the contractor for cash');
  });

  it('the bus detail is exactly the webhook body’s data: no internal sight on the bus (contract drift)', async () => {
    const sam = await person('Sam');
    const hook = await api(sam, 'POST', '/api/webhooks', { url: receiver.url });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const id = await newAction(sam);
    await patch(sam, id, { title: 'Guard refitted' });
    const delivered = await receiver.waitFor((r) => r.json?.data?.id === id, 2, 30_000);
    const onBus = publishedEvents().filter((e) => e.detail.id === id);
    expect(onBus.length).toBe(2);
    for (const received of delivered) {
      const event = onBus.find((e) => e.detail.version === received.json.data.version);
      expect(received.json.data).toEqual(event.detail);
      expect(event.detail).not.toHaveProperty('sight');
    }
  });
});

describe('the local storage front', () => {
  it('refuses a form naming its key twice, in any case, as S3 does, and stores nothing (Medium)', async () => {
    const [owner, victim] = [await person('Olive'), await person('Vera')];
    const mine = await newAction(owner);
    const theirs = await newAction(victim);
    const bytes = randomBytes(64);
    bytes.set([0xff, 0xd8, 0xff]);
    const started = await startUpload(owner, mine, { name: 'x.jpg', contentType: 'image/jpeg', size: 64 });
    expect(started.status).toBe(201);
    const target = `attachments/${theirs}/${randomUUID()}`;
    for (const name of ['key', 'Key', 'KEY']) {
      const form = new FormData();
      form.append(name, target);
      for (const [field, value] of Object.entries(started.body.fields)) form.append(field, value);
      form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo');
      const response = await fetch(started.body.url, { method: 'POST', body: form });
      const text = await response.text();
      expect([response.status, s3Code(text)], text).toEqual([400, 'InvalidArgument']);
    }
    // Nothing reached storage under either key: the upload cannot be attached.
    expectProblem(await attach(owner, mine, started.body.uploadId), 400, { field: 'uploadId' });
  });

  it('sends nosniff on a download (Low)', async () => {
    const owner = await person('Nora');
    const id = await newAction(owner);
    const file = await addFile(owner, id, randomBytes(100), 'image/png');
    const location = (await download(owner, id, file.id)).headers.get('location') as string;
    const response = await fetch(location);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('stored bytes are what they claim', () => {
  it('an attach of bytes that are not the declared type is a 409 naming contentType (Low)', async () => {
    const owner = await person('Hal');
    const id = await newAction(owner);
    const attempts: Array<[string, Uint8Array]> = [
      ['image/png', new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>')],
      ['application/pdf', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['image/jpeg', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
    ];
    for (const [contentType, bytes] of attempts) {
      const started = await startUpload(owner, id, { name: 'f', contentType, size: bytes.length });
      expect(started.status).toBe(201);
      const form = new FormData();
      for (const [field, value] of Object.entries(started.body.fields)) form.append(field, value);
      form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType }), 'f');
      expect((await fetch(started.body.url, { method: 'POST', body: form })).status).toBe(204);
      expectProblem(await attach(owner, id, started.body.uploadId), 409, { field: 'contentType' });
    }
    expect((await api(owner, 'GET', `/api/actions/${id}`)).body.attachments).toEqual([]);
  });

  it('a download’s file name carries no path (Low)', async () => {
    const owner = await person('Pia');
    const id = await newAction(owner);
    const started = await startUpload(owner, id, { name: '../../.bashrc.png', contentType: 'image/png', size: 40 });
    expect(started.status).toBe(201);
    expect((await postForm(started.body, randomBytes(40))).status).toBe(204);
    const attached = await attach(owner, id, started.body.uploadId);
    expect(attached.status).toBe(201);
    const location = new URL((await download(owner, id, attached.body.id)).headers.get('location') as string);
    const disposition = location.searchParams.get('response-content-disposition') ?? '';
    expect(disposition).toContain('filename="_.._.bashrc.png"');
    expect(disposition).not.toMatch(/\.\.\/|%2F|\//i);
  });
});

describe('the lows', () => {
  it('a closed action that needs evidence keeps its last uploaded file: removing it is a 409 naming attachments', async () => {
    const owner = await person('Cleo');
    const id = await newAction(owner);
    const first = await addFile(owner, id, randomBytes(30), 'image/png');
    const second = await addFile(owner, id, randomBytes(30), 'image/jpeg');
    await patch(owner, id, { status: '3' });
    const remove = (attachmentId: string) => api(owner, 'DELETE', `/api/actions/${id}/attachments/${attachmentId}`);
    expect((await remove(first.id)).status).toBe(204);
    expectProblem(await remove(second.id), 409, { field: 'attachments' });
    // Reopened, it may go.
    await patch(owner, id, { status: '2' });
    expect((await remove(second.id)).status).toBe(204);
  });

  it('a keyed comment replayed on an action the caller no longer sees is the 404 of an unseen action', async () => {
    const [ann, bob, carl] = [await person('Ann'), await person('Bob'), await person('Carl')];
    const id = await newAction(ann, { assignee: assignee(bob) });
    const comment = () =>
      api(bob, 'POST', `/api/actions/${id}/comments`, { text: 'On it' }, { 'idempotency-key': `k-${id}` });
    expect((await comment()).status).toBe(201);
    expect((await comment()).status).toBe(201); // a replay while Bob sees it: the first answer again
    await patch(ann, id, { assignee: assignee(carl) }); // out of Bob's sight
    const replay = await comment();
    expectProblem(replay, 404);
    expect(replay.body.detail).toBe(`No action has the id '${id}'.`);
  });
});
