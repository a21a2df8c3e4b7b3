import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken, type LocalUser } from '../../infra/local/issuer';
import { type LocalStack, stackFile, startLocalStack } from '../../infra/local/stack';
import { sweepDueDates } from '../../lib/due-dates/sweep';
import { sendDigests } from '../../lib/notifications/digest-run';
import { notifyPeople } from '../../lib/notifications/notifier';
import { recordFeedback } from '../../lib/notifications/people-preferences';
import { eventFromEventBridge } from '../../lib/webhooks/eventbridge';
import { actionBody, call, expectProblem, uniqueProducer } from '../support/client';

/**
 * People are told (contract section 16), end to end on a stack of its own with ACCESS=scoped:
 * changes through the API, events from the table's stream, the notifier, and the local SES v2
 * stand-in, whose `<mail>/store` lists what was sent. Each rule: who is told, who is not, nobody
 * about their own change, preferences, never an address typed into an assignee, one email per
 * event under redelivery, the one-click unsubscribe, bounces, reminders and the daily digest.
 */

let stack: LocalStack;
let dataDir: string;
let mailUrl: string;
const saved = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-notify-'));
  Object.assign(process.env, { ACCESS: 'scoped', LOG_LEVEL: process.env.NOTIFY_LOG ?? 'silent' });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
  mailUrl = JSON.parse(readFileSync(stackFile(dataDir), 'utf8')).mail;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.env = saved;
});

interface Sent {
  messageId: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  headers?: Array<{ name: string; value: string }>;
}

let people = 0;
/** A person with a verified email, remembered by the service once they have called it. */
async function person(name: string, groups: string[] = []) {
  const sub = `u-${name.toLowerCase()}-${++people}-${Date.now()}`;
  const user: LocalUser = { sub, name, email: `${sub}@example.com`, groups };
  const token = issueToken(stack.issuer, user);
  const reply = await call('GET', '/api/me/notifications', { token, baseUrl: stack.url });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { id: sub, name, email: user.email as string, token, user };
}
type Person = Awaited<ReturnType<typeof person>>;

const api = (who: Person, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(method, path, { token: who.token, body, headers, baseUrl: stack.url });

async function mail(): Promise<Sent[]> {
  const reply = await fetch(`${mailUrl}/store`);
  return ((await reply.json()) as { emails: Sent[] }).emails;
}
const to = (emails: Sent[], who: { email: string }) => emails.filter((e) => e.destination.to.includes(who.email));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `count` emails pass `filter`; then a moment more, so one too many would show. */
async function waitForMail(filter: (e: Sent) => boolean, count: number, timeoutMs = 20_000): Promise<Sent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mail()).filter(filter);
    if (found.length >= count) {
      await sleep(1500);
      return (await mail()).filter(filter);
    }
    if (Date.now() > deadline) throw new Error(`only ${found.length} of ${count} emails within ${timeoutMs} ms`);
    await sleep(100);
  }
}
const about = (id: string) => (e: Sent) => (e.body.text ?? '').includes(`/actions/${id}`);

async function newAction(owner: Person, overrides: Record<string, unknown> = {}) {
  const reply = await api(owner, 'POST', '/api/actions', actionBody(uniqueProducer('notify'), overrides));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}
async function patch(who: Person, id: string, body: Record<string, unknown>) {
  const reply = await api(who, 'PATCH', `/api/actions/${id}`, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}
const assignee = (who: Person) => ({ id: who.id, name: who.name });

describe('preferences', () => {
  it('start at the defaults and take a merge patch', async () => {
    const ann = await person('Ann');
    const got = await api(ann, 'GET', '/api/me/notifications');
    expect(got.body).toEqual({
      email: 'immediately',
      events: { assigned: true, dueSoon: true, overdue: true, escalated: true, comments: true, status: true },
      timeZone: 'UTC',
      digestHour: 7,
    });
    const patched = await api(
      ann,
      'PATCH',
      '/api/me/notifications',
      { events: { comments: false }, timeZone: 'Australia/Perth' },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      email: 'immediately',
      timeZone: 'Australia/Perth',
      events: { comments: false },
    });
    expect((await api(ann, 'GET', '/api/me/notifications')).body).toEqual(patched.body);
  });

  it('refuse what is wrong with a 400 naming each field', async () => {
    const ann = await person('Ann');
    for (const [body, field] of [
      [{ email: 'weekly' }, 'email'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ digestHour: 24 }, 'digestHour'],
      [{ events: { mentions: true } }, 'events.mentions'],
      [{ events: { comments: 'no' } }, 'events.comments'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      expectProblem(await api(ann, 'PATCH', '/api/me/notifications', body), 400, { field });
    }
    expectProblem(await api(ann, 'PATCH', '/api/me/notifications', [1]), 400, { field: 'body' });
    expect((await call('GET', '/api/me/notifications', { baseUrl: stack.url })).status).toBe(401);
  });
});

describe('who is told', () => {
  it('tells the new assignee, once, with the title, who did it, a link and one-click unsubscribe; never the one who assigned', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const id = await newAction(ann, { title: 'Replace worn conveyor belt' });
    await patch(ann, id, { assignee: assignee(bob) });
    const [email] = await waitForMail(about(id), 1);
    expect(email?.destination.to).toEqual([bob.email]);
    expect(email?.subject).toBe('Assigned to you: Replace worn conveyor belt');
    expect(email?.body.text).toContain('Ann assigned "Replace worn conveyor belt" to you.');
    expect(email?.body.text).toContain(`${stack.url}/actions/${id}`);
    // Nothing more of the action than its title: not its description, nor where it is.
    expect(email?.body.text).not.toContain('fraying');
    expect(email?.body.text).not.toContain('North Pit');
    const headers = Object.fromEntries((email?.headers ?? []).map((h) => [h.name, h.value]));
    expect(headers['List-Unsubscribe']).toMatch(
      new RegExp(`^<${stack.url}/api/notifications/unsubscribe\\?person=.+&token=.+>$`),
    );
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(to(await mail(), ann)).toEqual([]);
  });

  it('tells the owner and the assignee when someone else comments or changes the status, never the one who did', async () => {
    const [ann, bob, cat] = [await person('Ann'), await person('Bob'), await person('Cat', ['action-admins'])];
    const id = await newAction(ann, { assignee: assignee(bob) });
    await waitForMail((e) => about(id)(e) && e.destination.to.includes(bob.email), 1);
    expect((await api(cat, 'POST', `/api/actions/${id}/comments`, { text: 'Part is on order' })).status).toBe(201);
    const commented = await waitForMail((e) => about(id)(e) && e.subject.startsWith('New comment'), 2);
    expect(commented.flatMap((e) => e.destination.to).sort()).toEqual([ann.email, bob.email].sort());
    expect(commented[0]?.body.text).toContain('Cat commented on');
    expect(commented[0]?.body.text).not.toContain('Part is on order');
    // Bob changes the status: Ann hears of it, Bob does not.
    await patch(bob, id, { status: '2' });
    const status = await waitForMail((e) => about(id)(e) && e.subject.startsWith('Status changed'), 1);
    expect(status.map((e) => e.destination.to[0])).toEqual([ann.email]);
    expect(status[0]?.body.text).toContain('Bob changed the status of');
    expect(status[0]?.body.text).toContain('from 1 to 2');
    expect(to(await mail(), cat)).toEqual([]);
  });

  it('never emails an address typed into an assignee, only the verified one of the person’s own token', async () => {
    const ann = await person('Ann');
    const typed = `typed-${Date.now()}@example.com`;
    const id = await newAction(ann);
    // Nobody with this id ever signed in: the service knows no proved address for them.
    await patch(ann, id, { assignee: { id: `u-never-${Date.now()}`, name: 'Never Seen', email: typed } });
    const signedIn = await person('Dee');
    // Dee has signed in; the address typed for her is not hers, and is not used.
    await patch(ann, id, { assignee: { id: signedIn.id, name: 'Dee', email: typed } });
    const [email] = await waitForMail((e) => about(id)(e), 1);
    expect(email?.destination.to).toEqual([signedIn.email]);
    expect((await mail()).filter((e) => e.destination.to.includes(typed))).toEqual([]);
  });

  it('follows preferences: an event switched off, email off', async () => {
    const [ann, bob, cat] = [await person('Ann'), await person('Bob'), await person('Cat', ['action-admins'])];
    expect((await api(bob, 'PATCH', '/api/me/notifications', { events: { comments: false } })).status).toBe(200);
    expect((await api(ann, 'PATCH', '/api/me/notifications', { email: 'off' })).status).toBe(200);
    const id = await newAction(ann, { assignee: assignee(bob) });
    await waitForMail(about(id), 1);
    expect((await api(cat, 'POST', `/api/actions/${id}/comments`, { text: 'Seen it' })).status).toBe(201);
    await patch(ann, id, { status: '2' });
    // Bob hears of the status, not the comment; Ann of neither.
    const told = await waitForMail((e) => about(id)(e) && e.subject.startsWith('Status changed'), 1);
    expect(told.map((e) => e.destination.to[0])).toEqual([bob.email]);
    expect((await mail()).filter((e) => about(id)(e) && e.subject.startsWith('New comment'))).toEqual([]);
    expect(to(await mail(), ann)).toEqual([]);
  });

  it('tells nobody who is no longer on an action they cannot otherwise see (scoped)', async () => {
    const [ann, bob, carl, cat] = [
      await person('Ann'),
      await person('Bob'),
      await person('Carl'),
      await person('Cat', ['action-admins']),
    ];
    const id = await newAction(ann, { assignee: assignee(bob) });
    await waitForMail((e) => about(id)(e) && e.destination.to.includes(bob.email), 1);
    await patch(ann, id, { assignee: assignee(carl) });
    await waitForMail((e) => about(id)(e) && e.destination.to.includes(carl.email), 1);
    // Bob no longer sees it (no grant, not his own): no email.
    expect((await api(cat, 'POST', `/api/actions/${id}/comments`, { text: 'Moving on' })).status).toBe(201);
    const told = await waitForMail((e) => about(id)(e) && e.subject.startsWith('New comment'), 2);
    expect(told.flatMap((e) => e.destination.to).sort()).toEqual([ann.email, carl.email].sort());
    expect(to(await mail(), bob).filter((e) => e.subject.startsWith('New comment'))).toEqual([]);
  });
});

describe('never twice, never lost', () => {
  it('sends one email per person per event when the event is delivered again', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const id = await newAction(ann);
    await patch(ann, id, { assignee: assignee(bob) });
    await waitForMail(about(id), 1);
    const line = readFileSync(stack.eventsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.detail.id === id && e['detail-type'] === 'ActionUpdated');
    const event = eventFromEventBridge(JSON.stringify(line));
    expect(event?.detail.version).toBe(2);
    // The same event twice more, as a redelivering queue would hand it over.
    await notifyPeople([event!]);
    await notifyPeople([event!, event!]);
    expect((await waitForMail(about(id), 1)).length).toBe(1);
  });

  it('stops email to an address SES reported bouncing until its person signs in again', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    await sleep(1100);
    expect(
      await recordFeedback({
        eventType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bouncedRecipients: [{ emailAddress: bob.email }],
          timestamp: new Date().toISOString(),
        },
      }),
    ).toEqual([bob.email]);
    const first = await newAction(ann, { assignee: assignee(bob) });
    await sleep(3000);
    expect((await mail()).filter(about(first))).toEqual([]);
    // A new sign-in (a token issued after the bounce), and email flows again.
    await sleep(1100);
    const again = { ...bob, token: issueToken(stack.issuer, bob.user) };
    expect((await api(again, 'GET', '/api/me/notifications')).status).toBe(200);
    const second = await newAction(ann, { assignee: assignee(bob) });
    expect((await waitForMail(about(second), 1)).map((e) => e.destination.to[0])).toEqual([bob.email]);
  });

  it('unsubscribes in one click from the link of an email (RFC 8058), and a wrong link is a 404', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const id = await newAction(ann, { assignee: assignee(bob) });
    const [email] = await waitForMail(about(id), 1);
    const link = (email?.headers ?? []).find((h) => h.name === 'List-Unsubscribe')?.value.slice(1, -1) as string;
    const forged = await fetch(link.replace(/token=[^&]+/, 'token=forged'), {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
    });
    expect(forged.status).toBe(404);
    const missing = await fetch(`${stack.url}/api/notifications/unsubscribe`, { method: 'POST' });
    expect(missing.status).toBe(400);
    const reply = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(reply.status).toBe(204);
    expect((await api(bob, 'GET', '/api/me/notifications')).body.email).toBe('off');
    const later = await newAction(ann, { assignee: assignee(bob) });
    await sleep(3000);
    expect((await mail()).filter(about(later))).toEqual([]);
  });
});

describe('reminders and the digest', () => {
  it('tells the assignee (or the owner when unassigned) of due soon and overdue, and both of escalated', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const dueAt = new Date(Date.now() + 3600_000).toISOString();
    const assigned = await newAction(ann, { dueAt, assignee: assignee(bob), title: `Assigned ${Date.now()}` });
    const alone = await newAction(ann, { dueAt, title: `Alone ${Date.now()}` });
    await waitForMail(about(assigned), 1);
    const due = Date.parse(dueAt);
    for (const clock of [due - 600_000, due + 60_000, due + 8 * 86_400_000]) await sweepDueDates({ now: () => clock });
    const a = await waitForMail((e) => about(assigned)(e) && !e.subject.startsWith('Assigned'), 4);
    expect(
      a.map((e) => `${e.subject.split(':')[0]} ${e.destination.to[0] === bob.email ? 'bob' : 'ann'}`).sort(),
    ).toEqual(['Due soon bob', 'Escalated ann', 'Escalated bob', 'Overdue bob']);
    const b = await waitForMail(about(alone), 3);
    expect(b.every((e) => e.destination.to[0] === ann.email)).toBe(true);
    expect(a.find((e) => e.subject.startsWith('Overdue'))?.body.text).toMatch(/it was due .* UTC\./);
  });

  it('keeps what happens for a daily digest at the person’s hour in their zone, sent once for a fixed clock', async () => {
    const [ann, dee, cat] = [await person('Ann'), await person('Dee'), await person('Cat', ['action-admins'])];
    const set = await api(dee, 'PATCH', '/api/me/notifications', {
      email: 'daily',
      timeZone: 'Australia/Perth',
      digestHour: 7,
    });
    expect(set.status).toBe(200);
    const id = await newAction(ann, { assignee: assignee(dee), title: 'Inspect the crane' });
    expect((await api(cat, 'POST', `/api/actions/${id}/comments`, { text: 'Booked' })).status).toBe(201);
    await sleep(3000);
    expect(to(await mail(), dee)).toEqual([]);
    // 06:59 in Perth: not yet. 07:30: the digest, once.
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const at = (hhmm: string) => Date.parse(`${today}T${hhmm}:00+08:00`);
    await sendDigests({ now: at('06:59') });
    expect(to(await mail(), dee)).toEqual([]);
    await sendDigests({ now: at('07:30') });
    await sendDigests({ now: at('07:45') });
    const digests = to(await mail(), dee);
    expect(digests.length).toBe(1);
    expect(digests[0]?.subject).toMatch(/^Your summary for \w{3} \d{1,2} \w{3} \d{4}: 2 updates$/);
    expect(digests[0]?.body.text).toContain('Ann assigned "Inspect the crane" to you.');
    expect(digests[0]?.body.text).toContain('Cat commented on "Inspect the crane".');
    expect(digests[0]?.body.text).toMatch(/AWST: Ann assigned/);
    expect((digests[0]?.headers ?? []).map((h) => h.name)).toContain('List-Unsubscribe');
  });
});

describe('throughput', () => {
  it('measures the emails a second the notifier sends locally', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    const ids = await Promise.all(Array.from({ length: 10 }, () => newAction(ann)));
    await Promise.all(ids.map((id) => waitForMail(about(id), 0, 1)));
    const started = Date.now();
    await Promise.all(ids.map((id) => patch(ann, id, { assignee: assignee(bob) })));
    const cat = await person('Cat', ['action-admins']);
    await Promise.all(ids.map((id) => api(cat, 'POST', `/api/actions/${id}/comments`, { text: 'x' })));
    // 10 assignments to Bob, 10 comments to Ann and Bob each: 30 emails.
    const sent = await waitForMail((e) => ids.some((id) => about(id)(e)), 30, 60_000);
    const seconds = (Date.now() - started - 1500) / 1000;
    console.log(
      `notifier: ${sent.length} emails in ${seconds.toFixed(2)} s, ${(sent.length / seconds).toFixed(1)} emails/s (API writes and stream included)`,
    );
    expect(sent.length).toBe(30);
  }, 90_000);
});
