import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as createHandler } from '../../functions/createAction';
import { handler as getHandler } from '../../functions/getAction';
import { handler as listHandler } from '../../functions/listActions';
import { handler as updateHandler } from '../../functions/updateAction';
import { localEnvironment } from '../../infra/local/stack';
import { apiEvent } from '../support/api-event';
import { actionBody, dataDir, newUser, uniqueProducer } from '../support/client';
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy';

/**
 * Store faults without mocks (contract section 6, issue 7): the real handler modules run in this
 * worker against the real embedded store, reached through a proxy that can throttle the way
 * DynamoDB throttles, reset connections, vanish or stop answering. Each fault is a 503 with
 * Retry-After and a problem body that leaks nothing, in bounded time, after the SDK's own
 * retries; when the store comes back the same handlers serve again, with no restart.
 */

type Handler = (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
const handlers = {
  create: createHandler as unknown as Handler,
  list: listHandler as unknown as Handler,
  get: getHandler as unknown as Handler,
  update: updateHandler as unknown as Handler,
};

const MAX_ATTEMPTS = 2;
/** Long enough for one throttled retry (the SDK backs off up to 1 s after a throttle), short enough to test. */
const TIMEOUT_MS = 1_500;
/** What any 503 may take here at most, however the budget is spent (well under 5 s). */
const BOUND_MS = MAX_ATTEMPTS * TIMEOUT_MS + 1_000;

let proxy: FaultProxy;
const user = newUser('Fay Faults');
const measured: Record<string, number[]> = {};

beforeAll(async () => {
  proxy = await startFaultProxy(inject('storeEndpoint'));
  Object.assign(process.env, localEnvironment(dataDir(), proxy.url), {
    STORE_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    STORE_TIMEOUT_MS: String(TIMEOUT_MS),
    LOG_LEVEL: 'silent',
  });
  // The handlers read their configuration at first use, that is, from the environment set here.
});

afterAll(async () => {
  await proxy?.close();
  const summary = Object.entries(measured).map(([fault, ms]) => `${fault}: ${Math.min(...ms)}-${Math.max(...ms)} ms`);
  console.info(`503 latency (max attempts ${MAX_ATTEMPTS}, timeout ${TIMEOUT_MS} ms): ${summary.join('; ')}`);
});

const { token } = user;
const create = (producer: string) =>
  handlers.create(apiEvent('POST', '/api/actions', { token, body: actionBody(producer) }), {});
const listBy = (producer: string) =>
  handlers.list(apiEvent('GET', `/api/actions?actionProducer.name=${encodeURIComponent(producer)}`, { token }), {});
const getById = (id: string) => handlers.get(apiEvent('GET', `/api/actions/${id}`, { token }), {});
const update = (id: string, body: unknown) =>
  handlers.update(apiEvent('PATCH', `/api/actions/${id}`, { token, body }), {});

const parsed = (reply: APIGatewayProxyStructuredResultV2) => JSON.parse(reply.body ?? 'null');

/** Calls still running; a store that never answers must not leak them into the next test. */
const inflight = new Set<Promise<unknown>>();

/** `promise`, or a clear failure once `ms` have passed without an answer. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  inflight.add(promise);
  const settled = () => inflight.delete(promise);
  promise.then(settled, settled);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

afterEach(async () => {
  if (inflight.size === 0) return;
  // Cut the hung connections and let the stranded calls fail, so none lands in a later test.
  await proxy.set('down');
  await Promise.allSettled([...inflight]);
  await proxy.set('pass');
});

/** A 503 a client can act on, in bounded time, and nothing about what failed inside. */
async function expectUnavailable(fault: string, call: () => Promise<APIGatewayProxyStructuredResultV2>) {
  const began = performance.now();
  const reply = await within(BOUND_MS, call(), `${fault}: a 503 was due`);
  const elapsed = Math.round(performance.now() - began);
  if (!measured[fault]) measured[fault] = [];
  measured[fault].push(elapsed);
  expect(reply.statusCode, reply.body).toBe(503);
  const headers = reply.headers ?? {};
  expect(headers['content-type']).toBe('application/problem+json');
  expect(Number(headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const body = parsed(reply);
  expect(body).toMatchObject({ status: 503, title: expect.any(String), detail: expect.any(String) });
  expect(reply.body).not.toMatch(
    /Exception|Throttl|ECONN|EPIPE|socket|timeout|127\.0\.0\.1|localhost|dynamo|\.ts:|\.js:|\n\s+at /i,
  );
  return elapsed;
}

const eventsMention = (text: string) => {
  try {
    return readFileSync(join(dataDir(), 'events.ndjson'), 'utf8').includes(text);
  } catch {
    return false;
  }
};

describe('store faults through the real handlers', () => {
  let existing: string;

  beforeAll(async () => {
    await proxy.set('pass');
    const reply = await create(uniqueProducer('faults-existing'));
    expect(reply.statusCode, reply.body).toBe(201);
    existing = parsed(reply).id;
  });

  // First: the SDK's retry quota drains during the outages below, and then it stops retrying for a while.
  it('a brief throttle is absorbed by the SDK retry: the client sees 201 and one stored action', async () => {
    const producer = uniqueProducer('faults-brief');
    await proxy.failNext(MAX_ATTEMPTS - 1, 'throughput-exceeded', { transactionsOnly: true });
    const reply = await create(producer);
    expect(reply.statusCode, reply.body).toBe(201);
    expect(proxy.seen).toEqual({ failed: MAX_ATTEMPTS - 1, passed: 1 });
    expect(parsed(await listBy(producer)).totalCount).toBe(1);
  });

  it('a create whose reply is lost is retried by the SDK and still answers 201, once', async () => {
    const producer = uniqueProducer('faults-lost-reply');
    await proxy.failNext(1, 'lose-reply', { transactionsOnly: true });
    const reply = await create(producer);
    // The first attempt stored the action; the SDK's retry sends the same client request token,
    // which DynamoDB recognises: it answers success without applying the transaction again.
    expect(reply.statusCode, reply.body).toBe(201);
    expect(proxy.seen).toEqual({ failed: 1, passed: 1 });
    expect(parsed(await listBy(producer)).totalCount).toBe(1);
  });

  it("DynamoDB Local's lock timeout (a 500 DynamoDB never sends) is waited out within STORE_TIMEOUT_MS: 201, once", async () => {
    // Past the SDK's own attempts: without lib/store/client.ts' wait, this create is a 503.
    const producer = uniqueProducer('faults-lock-timeout');
    await proxy.failNext(MAX_ATTEMPTS + 1, 'lock-timeout', { transactionsOnly: true });
    const reply = await create(producer);
    expect(reply.statusCode, reply.body).toBe(201);
    expect(proxy.seen).toEqual({ failed: MAX_ATTEMPTS + 1, passed: 1 });
    expect(parsed(await listBy(producer)).totalCount).toBe(1);
  });

  it('a transaction cancelled by a conflict is retried: 201, one stored action, counted once', async () => {
    const producer = uniqueProducer('faults-conflict');
    await proxy.failNext(2, 'transaction-conflict');
    const reply = await create(producer);
    expect(reply.statusCode, reply.body).toBe(201);
    expect(proxy.seen.failed).toBe(2);
    expect(parsed(await listBy(producer)).totalCount).toBe(1);
    await proxy.failNext(1, 'transaction-conflict');
    const edited = await update(parsed(reply).id, { status: 4 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(parsed(edited).status).toBe('4');
    expect(proxy.seen.failed).toBe(1);
  });

  const faults: Fault[] = ['throughput-exceeded', 'throttling', 'reset', 'down', 'hang'];

  it.each(faults)('%s: 503 with Retry-After on every route, then recovery without a restart', async (fault) => {
    const producer = uniqueProducer(`faults-${fault}`);
    await proxy.set(fault);

    await expectUnavailable(fault, () => create(producer));
    if (fault === 'throughput-exceeded' || fault === 'throttling') {
      // The SDK retried before giving up: one create, every attempt seen by the store's front door.
      expect(proxy.seen.failed).toBe(MAX_ATTEMPTS);
    }
    await Promise.all([
      expectUnavailable(fault, () => listBy(producer)),
      expectUnavailable(fault, () => getById(existing)),
      expectUnavailable(fault, () => update(existing, { title: `Edited during ${fault}` })),
    ]);

    await proxy.set('pass');
    const listed = await listBy(producer);
    expect(listed.statusCode, listed.body).toBe(200);
    // The failed create left nothing behind: no action, no ActionCreated event.
    expect(parsed(listed)).toEqual({ actions: [], totalCount: 0, totalCountRelation: 'eq' });
    expect(eventsMention(producer)).toBe(false);
    const got = await getById(existing);
    expect(got.statusCode).toBe(200);
    expect(parsed(got).title).not.toBe(`Edited during ${fault}`);

    const created = await create(producer);
    expect(created.statusCode, created.body).toBe(201);
    const after = parsed(await listBy(producer));
    expect(after.totalCount).toBe(1);
    expect(after.actions[0].id).toBe(parsed(created).id);
    expect((await update(existing, { title: `After ${fault}` })).statusCode).toBe(200);
  });

  it('a store that never answers gets its 503 within STORE_TIMEOUT_MS, the budget for a call retries included', async () => {
    // lib/config documents STORE_TIMEOUT_MS as the whole budget of a store call. In AWS that is
    // what keeps a silent store's 503 inside the function timeout (10 s) at the defaults (5 s, 3 attempts).
    await proxy.set('hang');
    const elapsed = await expectUnavailable('hang', () => getById(existing));
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 300);
  });

  it('a long outage, many requests into it, and the first request after it succeeds', async () => {
    const producer = uniqueProducer('faults-long');
    await proxy.set('throttling');
    const replies = await Promise.all(Array.from({ length: 20 }, () => create(producer)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(503));
    await proxy.set('down');
    for (let i = 0; i < 5; i++) await expectUnavailable('down', () => listBy(producer));
    await proxy.set('pass');
    expect((await create(producer)).statusCode).toBe(201);
    expect(parsed(await listBy(producer)).totalCount).toBe(1);
  });
});
