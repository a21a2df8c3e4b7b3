import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { getDocumentClient, tableName } from '../../lib/store/client';
import { shardOfSubscription } from '../../lib/store/shards';
import { webhookKeys } from '../../lib/store/table';
import { markerKey, putDue } from '../../lib/store/webhooks/due-queue';
import {
  actionBody,
  call,
  create,
  expectProblem,
  newUser,
  type TestUser,
  uniqueProducer,
  useOwnStack,
} from '../support/client';
import { type Behaviour, firstAttemptAnswers, type Received, type Receiver, startReceiver } from '../support/receiver';

/**
 * Contract section 9 through real HTTP: subscriptions on the shared local stack, deliveries to
 * real receivers on 127.0.0.1 (the local stack allows private addresses), every signature
 * checked by the `standardwebhooks` package's own `Webhook.verify`. The stack retries a failed
 * delivery after 1 second instead of 5 (WEBHOOK_RETRY_SECONDS in test/support/global-setup.ts).
 *
 * A subscription hears every event of its stack, so this file runs on a stack of its own (the
 * other files' events would fan out to its hanging and failing receivers, and their load would
 * blur the timing test); each assertion still looks only at the actions its own test created.
 */

useOwnStack();

const receivers: Receiver[] = [];
/** Every subscription made here, deleted at the end: each one hears every event of the stack. */
const made: Array<{ user: TestUser; id: string }> = [];
afterAll(async () => {
  for (const { user, id } of made) await call('DELETE', `/api/webhooks/${id}`, { token: user.token });
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(...answers: Behaviour[]): Promise<Receiver> {
  const started = await startReceiver(answers.length > 0 ? answers : [200]);
  receivers.push(started);
  return started;
}

async function subscribe(user: TestUser, body: Record<string, unknown>) {
  const reply = await call('POST', '/api/webhooks', { token: user.token, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  made.push({ user, id: reply.body.id });
  return reply.body as { id: string; secret: string; url: string; events: string[] };
}

/** Asserts the request verifies with `secret`, the way a receiver using the package would check it. */
function verified(request: Received, secret: string) {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new Webhook(secret).verify(request.body, headers) as { type: string; timestamp: string; data: any };
}

const deliveries = async (user: TestUser, id: string, query = '') => {
  const reply = await call('GET', `/api/webhooks/${id}/deliveries${query}`, { token: user.token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as { deliveries: any[]; nextCursor?: string };
};

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhook deliveries', () => {
  it('delivers a subscribed event signed per Standard Webhooks, within 5 seconds, and no unsubscribed type', async () => {
    const user = newUser('Hook Owner');
    const hook = await receiver();
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated', 'ActionDeleted'] });
    expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const started = Date.now();
    const id = await create(user.token, actionBody(uniqueProducer('hooks')));
    const [request] = await hook.waitFor((r) => r.json?.data?.id === id);
    expect(request!.at - started).toBeLessThan(5_000);
    const payload = verified(request!, subscription.secret);
    expect(payload.type).toBe('ActionCreated');
    expect(payload.data).toMatchObject({ id, version: 1, actor: { id: user.id } });
    expect(payload.timestamp).toBe(payload.data.time);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/action-tracking/);
    expect(request!.headers['webhook-id']).toBe(payload.data.eventId);
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);

    // An edit (ActionUpdated) is not subscribed; the delete after it is, and arrives.
    expect((await call('PATCH', `/api/actions/${id}`, { token: user.token, body: { title: 'Edited' } })).status).toBe(
      200,
    );
    expect((await call('DELETE', `/api/actions/${id}`, { token: user.token })).status).toBe(204);
    await hook.waitFor((r) => r.json?.data?.id === id && r.json?.type === 'ActionDeleted');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hook.about({ id }).map((r) => r.json.type)).toEqual(['ActionCreated', 'ActionDeleted']);

    const log = await deliveries(user, subscription.id);
    const mine = log.deliveries.filter((d) => d.eventId === request!.headers['webhook-id']);
    expect(mine).toEqual([
      {
        id: expect.any(String),
        eventId: payload.data.eventId,
        type: 'ActionCreated',
        status: 'succeeded',
        attempts: [{ at: expect.any(String), durationMs: expect.any(Number), responseStatus: 200 }],
      },
    ]);
    // Newest first.
    const deleted = hook.about({ id, type: 'ActionDeleted' })[0]!.headers['webhook-id'];
    const order = log.deliveries.map((d) => d.eventId);
    expect(order.indexOf(deleted)).toBeLessThan(order.indexOf(payload.data.eventId));
  });

  it('retries a 500 with the same webhook-id, and a redelivery carries it again', async () => {
    const user = newUser();
    const hook = await receiver(firstAttemptAnswers(500));
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated'] });
    const id = await create(user.token, actionBody(uniqueProducer('retry')));
    const [first, second] = await hook.waitFor((r) => r.json?.data?.id === id, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    verified(first!, subscription.secret);
    verified(second!, subscription.secret);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);

    const eventId = first!.headers['webhook-id'];
    const mine = (l: { deliveries: any[] }) => l.deliveries.find((d) => d.eventId === eventId);
    const log = await until(
      () => deliveries(user, subscription.id),
      (l) => mine(l)?.status === 'succeeded',
    );
    const delivery = mine(log);
    expect(delivery.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 200]);
    expect(delivery.nextAttemptAt).toBeUndefined();

    const redelivered = await call('POST', `/api/webhooks/${subscription.id}/deliveries/${delivery.id}/redeliver`, {
      token: user.token,
    });
    expect(redelivered.status).toBe(202);
    const all = await hook.waitFor((r) => r.json?.data?.id === id, 3);
    expect(all[2]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    verified(all[2]!, subscription.secret);
    await until(
      () => deliveries(user, subscription.id),
      (l) => mine(l)?.attempts.length === 3,
    );
  });

  it('pings one endpoint alone', async () => {
    const user = newUser();
    const pinged = await receiver();
    const other = await receiver();
    const subscription = await subscribe(user, { url: pinged.url });
    await subscribe(user, { url: other.url });
    const reply = await call('POST', `/api/webhooks/${subscription.id}/ping`, { token: user.token });
    expect(reply.status).toBe(202);
    const [request] = await pinged.waitFor((r) => r.json?.type === 'WebhookPing');
    expect(verified(request!, subscription.secret).data).toMatchObject({ webhookId: subscription.id });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(other.about({ type: 'WebhookPing' })).toEqual([]);
    expect(pinged.about({ type: 'WebhookPing' })).toHaveLength(1);
  });

  it('runs an attempt whose marker an earlier hash put in another ready partition, and settles that marker where it sits', async () => {
    const user = newUser();
    const hook = await receiver();
    const subscription = await subscribe(user, { url: hook.url });
    const reply = await call('POST', `/api/webhooks/${subscription.id}/ping`, { token: user.token });
    expect(reply.status).toBe(202);
    const [pinged] = await hook.waitFor((r) => r.json?.type === 'WebhookPing');
    // An attempt queued as an earlier version left it: in its queue, its marker in a partition
    // other than the one this version's hash chooses.
    const old = (shardOfSubscription(subscription.id) + 1) % webhookKeys.readyShards;
    const dueAt = new Date().toISOString();
    const due = { ownerId: user.id, subscriptionId: subscription.id, deliveryId: reply.body.deliveryId, dueAt };
    await putDue({ ...due, manual: true }, Math.floor(Date.now() / 1000) + 3600, { listed: false });
    await getDocumentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...markerKey(subscription.id, old), ownerId: user.id, nextDue: dueAt, writes: 1 },
      }),
    );
    const [, again] = await hook.waitFor((r) => r.json?.type === 'WebhookPing', 2);
    expect(again!.headers['webhook-id']).toBe(pinged!.headers['webhook-id']);
    // The sweep settled the marker where it sits: moved to the next attempt left (the lease) or
    // removed. Settled in the partition this hash chooses instead, it would stay due forever.
    const marker = async () =>
      (await getDocumentClient().send(new GetCommand({ TableName: tableName(), Key: markerKey(subscription.id, old) })))
        .Item;
    await until(marker, (m) => m === undefined || m.nextDue > dueAt);
  });

  it('after a rotation signs with both secrets for a day', async () => {
    const user = newUser();
    const hook = await receiver();
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated'] });
    const rotated = await call('POST', `/api/webhooks/${subscription.id}/secret`, { token: user.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(subscription.secret);

    const id = await create(user.token, actionBody(uniqueProducer('rotate')));
    const [request] = await hook.waitFor((r) => r.json?.data?.id === id);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(request!, rotated.body.secret).data.id).toBe(id);
    expect(verified(request!, subscription.secret).data.id).toBe(id);
    expect(() => verified(request!, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();
  });

  it('disables a subscription whose endpoint answers 410 Gone, and sends it nothing more', async () => {
    const user = newUser();
    const hook = await receiver(410);
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated'] });
    const id = await create(user.token, actionBody(uniqueProducer('gone')));
    const [request] = await hook.waitFor((r) => r.json?.data?.id === id);
    const after = await until(
      () => call('GET', `/api/webhooks/${subscription.id}`, { token: user.token }),
      (r) => r.body.enabled === false,
    );
    expect(after.body.disabledReason).toMatch(/410/);
    const log = await deliveries(user, subscription.id);
    expect(log.deliveries.find((d) => d.eventId === request!.headers['webhook-id'])).toMatchObject({
      status: 'failed',
      attempts: [{ responseStatus: 410 }],
    });

    const later = await create(user.token, actionBody(uniqueProducer('gone')));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(hook.about({ id: later })).toEqual([]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const user = newUser();
    const hook = await receiver(firstAttemptAnswers(302));
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated'] });
    const id = await create(user.token, actionBody(uniqueProducer('redirect')));
    const [request] = await hook.waitFor((r) => r.json?.data?.id === id, 2);
    const mine = (l: { deliveries: any[] }) => l.deliveries.find((d) => d.eventId === request!.headers['webhook-id']);
    const log = await until(
      () => deliveries(user, subscription.id),
      (l) => mine(l)?.status === 'succeeded',
    );
    expect(mine(log).attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([302, 200]);
  });

  // A timing comparison on a machine that runs other test files at the same time: each attempt
  // measures afresh (new user, new receivers), and one attempt of three must hold the 20%.
  it('a hanging receiver does not slow creates (p50 within 20%)', { timeout: 120_000, retry: 2 }, async () => {
    const user = newUser();
    const hanging = await receiver('hang');
    const subscriptions = await Promise.all([1, 2, 3].map(() => subscribe(user, { url: hanging.url })));
    const setEnabled = (enabled: boolean) =>
      Promise.all(
        subscriptions.map((s) => call('PATCH', `/api/webhooks/${s.id}`, { token: user.token, body: { enabled } })),
      );
    const timeCreates = async (count: number) => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await create(user.token, actionBody(uniqueProducer('hang')));
        times.push(performance.now() - started);
      }
      return times;
    };
    const quiet: number[] = [];
    const loud: number[] = [];
    // Interleaved rounds, so a machine that gets busier mid-test weighs on both sides alike.
    for (let round = 0; round < 3; round++) {
      await setEnabled(false);
      quiet.push(...(await timeCreates(15)));
      await setEnabled(true);
      loud.push(...(await timeCreates(15)));
    }
    await setEnabled(false);
    const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    console.log(
      `create p50: ${p50(quiet).toFixed(1)} ms without, ${p50(loud).toFixed(1)} ms with 3 hanging subscriptions (${hanging.received.length} requests hanging)`,
    );
    expect(hanging.received.length).toBeGreaterThan(0);
    expect(p50(loud)).toBeLessThan(p50(quiet) * 1.2 + 2);
  });
});

describe('webhook subscriptions', () => {
  it('creates, lists, reads, patches and deletes; secrets only on create', async () => {
    const user = newUser();
    const created = await call('POST', '/api/webhooks', {
      token: user.token,
      body: { url: 'https://hooks.example.com/a', description: 'planner' },
    });
    expect(created.status).toBe(201);
    made.push({ user, id: created.body.id });
    expect(created.headers.get('location')).toBe(`/api/webhooks/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/a',
      events: ['*'],
      description: 'planner',
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
      createdAt: expect.any(String),
      owner: { id: user.id, name: user.name, email: user.email },
    });
    const { secret, ...view } = created.body;
    expect((await call('GET', '/api/webhooks', { token: user.token })).body).toEqual({ webhooks: [view] });
    expect((await call('GET', `/api/webhooks/${view.id}`, { token: user.token })).body).toEqual(view);
    const patched = await call('PATCH', `/api/webhooks/${view.id}`, {
      token: user.token,
      body: { events: ['ActionCommented', 'ActionOverdue'], description: null, enabled: false },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      events: ['ActionCommented', 'ActionOverdue'],
      description: '',
      enabled: false,
    });
    expect(JSON.stringify(patched.body)).not.toContain(secret);
    expect((await call('DELETE', `/api/webhooks/${view.id}`, { token: user.token })).status).toBe(204);
    expect((await call('GET', `/api/webhooks/${view.id}`, { token: user.token })).status).toBe(404);
    expect((await call('DELETE', `/api/webhooks/${view.id}`, { token: user.token })).status).toBe(404);
  });

  it('is private to its owner: 404 to anyone else on every route', async () => {
    const owner = newUser();
    const other = newUser();
    const { id } = await subscribe(owner, { url: 'https://hooks.example.com/private' });
    const token = other.token;
    for (const [method, path, body] of [
      ['GET', `/api/webhooks/${id}`],
      ['PATCH', `/api/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${id}`],
      ['POST', `/api/webhooks/${id}/secret`],
      ['POST', `/api/webhooks/${id}/ping`],
      ['GET', `/api/webhooks/${id}/deliveries`],
      ['POST', `/api/webhooks/${id}/deliveries/00000000-0000-7000-8000-000000000000/redeliver`],
    ] as const) {
      expectProblem(await call(method, path, { token, body }), 404);
    }
    expect((await call('GET', '/api/webhooks', { token })).body).toEqual({ webhooks: [] });
    expect((await call('GET', `/api/webhooks/${id}`, { token: owner.token })).body.enabled).toBe(true);
  });

  it('allows at most 25 subscriptions per caller (409 past that)', async () => {
    const user = newUser();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push((await subscribe(user, { url: `https://hooks.example.com/${i}`, events: ['ActionEscalated'] })).id);
    const refused = await call('POST', '/api/webhooks', {
      token: user.token,
      body: { url: 'https://hooks.example.com/x' },
    });
    expectProblem(refused, 409);
    // Another caller is not affected, and a delete makes room again.
    await subscribe(newUser(), { url: 'https://hooks.example.com/other' });
    expect((await call('DELETE', `/api/webhooks/${ids[0]}`, { token: user.token })).status).toBe(204);
    await subscribe(user, { url: 'https://hooks.example.com/again' });
    expect((await call('GET', '/api/webhooks', { token: user.token })).body.webhooks).toHaveLength(25);
  }, 120_000);

  it('refuses what the contract refuses (400 naming the field)', async () => {
    const user = newUser();
    const refuse = async (body: unknown, field: string) =>
      expectProblem(await call('POST', '/api/webhooks', { token: user.token, body }), 400, { field });
    await refuse({}, 'url');
    await refuse({ url: 'hooks.example.com/relative' }, 'url');
    await refuse({ url: 'ftp://hooks.example.com/' }, 'url');
    await refuse({ url: `https://hooks.example.com/${'a'.repeat(1980)}` }, 'url');
    await refuse({ url: 'https://user:pass@hooks.example.com/' }, 'url');
    await refuse({ url: 'https://hooks.example.com/a b' }, 'url');
    await refuse({ url: 'https://hooks.example.com/', events: ['ActionExploded'] }, 'events');
    await refuse({ url: 'https://hooks.example.com/', events: [] }, 'events');
    await refuse({ url: 'https://hooks.example.com/', events: ['*', 'ActionCreated'] }, 'events');
    await refuse({ url: 'https://hooks.example.com/', description: 'x'.repeat(201) }, 'description');
    // The one-line rules of section 3: control characters, line breaks and bidirectional formatting.
    for (const description of [
      'two\nlines',
      'tab\there',
      'bell\u0007',
      'c1\u0085',
      'del\u007f',
      'gpj.\u202eexe',
      '\u2066x\u2069',
    ])
      await refuse({ url: 'https://hooks.example.com/', description }, 'description');
    await refuse({ url: 'https://hooks.example.com/', secret: 'whsec_mine' }, 'secret');
    const unknown = await call('POST', '/api/webhooks', {
      token: user.token,
      body: { url: 'https://hooks.example.com/', events: ['ActionExploded'] },
    });
    expect(unknown.body.detail).toContain('ActionExploded');
    // One event type no test here publishes: a subscription to every event would send the whole stack's
    // events to a host that does not resolve here.
    const made = await subscribe(user, {
      url: 'https://hooks.example.com/',
      events: ['ActionEscalated'],
      description: 'one line',
    });
    const patched = await call('PATCH', `/api/webhooks/${made.id}`, {
      token: user.token,
      body: { description: 'now\r\ntwo' },
    });
    expectProblem(patched, 400, { field: 'description' });
    // Every published type, the reminders of section 10 included, is accepted.
    await subscribe(user, {
      url: 'https://hooks.example.com/',
      events: ['ActionDueSoon', 'ActionOverdue', 'ActionEscalated', 'ActionEndorsementWithdrawn'],
      description: 'x'.repeat(200),
    });
  });

  it('pages the delivery log with a cursor, newest first', async () => {
    const user = newUser();
    const hook = await receiver();
    const subscription = await subscribe(user, { url: hook.url, events: ['ActionCreated'] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await create(user.token, actionBody(uniqueProducer('page'))));
    // It follows the hanging-receiver test's hundreds of creates through the one local stream
    // reader: on a loaded machine the backlog took past 30 s. It tests the log's paging, not latency.
    await hook.waitFor((r) => ids.includes(r.json?.data?.id), 3, 90_000);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await deliveries(user, subscription.id, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.deliveries.map((d) => d.eventId));
      cursor = page.nextCursor;
    } while (cursor);
    const eventIds = ids.map((id) => hook.about({ id })[0]!.headers['webhook-id']);
    expect(seen.filter((e) => eventIds.includes(e))).toEqual([...eventIds].reverse());
    expectProblem(
      await call('GET', `/api/webhooks/${subscription.id}/deliveries?cursor=nope`, { token: user.token }),
      400,
      {
        parameter: 'cursor',
      },
    );
  }, 150_000);
});
