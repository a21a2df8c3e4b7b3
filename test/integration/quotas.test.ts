import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { putNewAction } from '../../lib/store/actions/writes';
import { getDocumentClient } from '../../lib/store/client';
import { seedActions } from '../../scripts/seed-data';
import { actionBody, type CallOptions, call, expectProblem, q } from '../support/client';

/**
 * Issue 23, part A: exact list budgets and per-caller quotas. This file runs a stack of its own
 * with small limits (the shared stack's are generous, for the other tests' thousands of
 * requests), seeded with realistic actions through the real write path.
 */

const BUDGET = 100;
const REQUESTS = 30;
const READS = 400;
const SEEDED = 200;
const WINDOW = 60;

let stack: LocalStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-quotas-'));
  Object.assign(process.env, {
    LIST_READ_BUDGET: String(BUDGET),
    RATE_LIMIT_REQUESTS: String(REQUESTS),
    RATE_LIMIT_READS: String(READS),
    LOG_LEVEL: 'silent',
  });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
  const actions = [...seedActions(SEEDED, 23)];
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      for (let i = worker; i < actions.length; i += 4) {
        const action = actions[i] as (typeof actions)[number];
        // A busy shared machine can time a write out; a retried create of the same action changes nothing.
        for (let attempt = 1; ; attempt++) {
          try {
            await putNewAction(action, action.owner);
            break;
          } catch (error) {
            if (attempt >= 5) throw error;
          }
        }
      }
    }),
  );
}, 300_000);

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let callers = 0;
/** A caller of its own for each use, so no test spends another's quota. */
const newCaller = () => {
  const sub = `u-quota-${++callers}-${Date.now().toString(36)}`;
  return { id: sub, token: issueToken(stack.issuer, { sub, name: `Caller ${callers}` }) };
};
const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

/** What the table says a caller has used in the window holding `atMs`. */
async function used(caller: string, atMs: number): Promise<{ requests: number; reads: number }> {
  const windowStart = Math.floor(atMs / 1000 / WINDOW) * WINDOW;
  const { Item } = await getDocumentClient().send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { id: `q#${caller}#${windowStart}`, sk: 'q' } }),
  );
  return { requests: Number(Item?.qr ?? 0), reads: Number(Item?.qe ?? 0) };
}

/** Waits, if need be, until the current quota window has at least `seconds` left. */
async function windowWithRoom(seconds: number): Promise<number> {
  const into = (Date.now() / 1000) % WINDOW;
  if (WINDOW - into < seconds) await new Promise((r) => setTimeout(r, (WINDOW - into + 0.2) * 1000));
  return Date.now();
}

describe('the list budget', () => {
  it('answers a guessed date range that passes the budget with what it found and a cursor (the range bypass)', async () => {
    const caller = newCaller();
    const at = await windowWithRoom(10);
    // (`*zq`: two characters, which the search postings do not serve, so the planner reads titles.)
    // Every seeded action is due between these dates; the planner used to guess that a
    // two-sided range keeps a tenth of the table (20 entries here) and read all of it.
    const query = `${q('dueAt', '>1900-01-01')}&${q('dueAt', '<2200-01-01')}&${q('title', '*zq')}`;
    const cut = await send('GET', `/api/actions?${query}`, { token: caller.token });
    expect(cut.status, JSON.stringify(cut.body)).toBe(200);
    // Nothing matches; what it read is a lower bound, and the cursor continues the search.
    expect(cut.body).toMatchObject({ actions: [], totalCount: 0, totalCountRelation: 'gte' });
    expect(typeof cut.body.nextCursor).toBe('string');
    // What it read, charged to the caller: never more than the budget.
    const { reads } = await used(caller.id, at);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(BUDGET);
  });

  it('walks a substring search over every title a budget at a time, each page continuing the last', async () => {
    const caller = newCaller();
    const at = await windowWithRoom(20);
    // The one action whose title holds the fragment, made newest: the walk (newest first) finds it first.
    // (Two characters, which the search postings do not serve: the planner walks the titles.)
    const needle = await send('POST', '/api/actions', {
      token: caller.token,
      body: actionBody('quota-needle', { title: 'Inspect the qj valve' }),
    });
    expect(needle.status).toBe(201);
    const first = await send('GET', `/api/actions?${q('title', '*qj')}&limit=1`, { token: caller.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.actions.map((a: { id: string }) => a.id)).toEqual([needle.body.id]);
    expect(first.body.totalCountRelation).toBe('gte');
    expect(first.body.totalCount).toBeGreaterThanOrEqual(1);
    expect((await used(caller.id, at)).reads).toBeLessThanOrEqual(BUDGET);
    // Past the needle nothing matches: the next page is empty, and still a 200 within the budget.
    const next = await send('GET', `/api/actions?cursor=${encodeURIComponent(first.body.nextCursor)}`, {
      token: caller.token,
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.actions).toEqual([]);
    expect((await used(caller.id, at)).reads).toBeLessThanOrEqual(2 * BUDGET);
  });

  it('counts a ! or a long ~ of a counted field exactly from the counters, past the budget', async () => {
    const caller = newCaller();
    const at = await windowWithRoom(10);
    const count = async (query: string) => {
      const reply = await send('GET', `/api/actions?${query}`, { token: caller.token });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.totalCountRelation).toBe('eq');
      return reply.body.totalCount as number;
    };
    const total = await count('limit=0');
    const open = await count('status=1&limit=0');
    expect(total).toBeGreaterThan(BUDGET);
    expect(await count('status=!1&limit=0')).toBe(total - open);
    // A count alone reads no index entry.
    expect((await used(caller.id, at)).reads).toBe(0);
    // With a page, the page comes from a walk and the count stays exact.
    const paged = await send('GET', '/api/actions?status=!1&limit=3', { token: caller.token });
    expect(paged.status, JSON.stringify(paged.body)).toBe(200);
    expect(paged.body).toMatchObject({ totalCount: total - open, totalCountRelation: 'eq' });
    expect(paged.body.actions).toHaveLength(3);
    for (const action of paged.body.actions as Array<{ status: number }>) expect(action.status).not.toBe(1);
    expect((await used(caller.id, at)).reads).toBeLessThanOrEqual(BUDGET);
  });

  it('refuses only a skip past what the budget reaches, naming skip and the cursor', async () => {
    const caller = newCaller();
    const at = await windowWithRoom(10);
    const deep = await send('GET', '/api/actions?skip=150&limit=10', { token: caller.token });
    expectProblem(deep, 400, { parameter: 'skip' });
    expect(deep.body.detail).toMatch(/cursor/);
    expect((await used(caller.id, at)).reads).toBe(0);
    // The same deep skip in a small partition is within the budget: the count says so.
    const page = await send('GET', '/api/actions?skip=20&limit=10', { token: caller.token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.actions).toHaveLength(10);
    expect(page.body.totalCountRelation).toBe('eq');
    expect((await used(caller.id, at)).reads).toBeLessThanOrEqual(BUDGET);
  });
});

describe('per-caller quotas', () => {
  it('every authenticated answer, errors too, carries the RateLimit fields; public ones and 401s do not', async () => {
    const caller = newCaller();
    await windowWithRoom(10);
    const first = await send('GET', '/api/actions?limit=0', { token: caller.token });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe(`"requests";q=${REQUESTS};w=${WINDOW}`);
    expect(first.headers.get('ratelimit')).toMatch(
      new RegExp(`^"requests";r=${REQUESTS - 1};t=([1-9]|[1-5][0-9]|60)$`),
    );
    const missing = await send('GET', '/api/actions/no-such-action', { token: caller.token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit')).toMatch(new RegExp(`^"requests";r=${REQUESTS - 2};t=\\d+$`));
    for (const reply of [
      await send('GET', '/api/openapi.json'),
      await send('GET', '/api/actions?limit=0'),
      await send('GET', '/api/actions?limit=0', { token: 'not-a-token' }),
    ]) {
      expect(reply.headers.get('ratelimit')).toBeNull();
      expect(reply.headers.get('ratelimit-policy')).toBeNull();
    }
  });

  it('past the request quota: 429 with Retry-After, nothing written, and another caller unaffected', async () => {
    const [ann, bob] = [newCaller(), newCaller()];
    const at = await windowWithRoom(20);
    for (let i = 0; i < REQUESTS; i++) {
      const reply = await send('GET', '/api/actions?limit=0', { token: ann.token });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('ratelimit')).toMatch(new RegExp(`^"requests";r=${REQUESTS - 1 - i};`));
    }
    const refused = await send('POST', '/api/actions', { token: ann.token, body: actionBody('quota-test') });
    expectProblem(refused, 429);
    expect(refused.body.type).toMatch(/too-many-requests$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    expect(refused.headers.get('ratelimit')).toBe(`"requests";r=0;t=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe(`"requests";q=${REQUESTS};w=${WINDOW}`);
    // Nothing written: Ann owns no action, and the refused request was not even counted.
    expect((await used(ann.id, at)).requests).toBe(REQUESTS);
    const owned = await send('GET', `/api/actions?${q('owner', ann.id)}&limit=0`, { token: bob.token });
    expect(owned.status).toBe(200);
    expect(owned.body.totalCount).toBe(0);
    // Bob's quota is his own.
    expect(owned.headers.get('ratelimit')).toMatch(new RegExp(`^"requests";r=${REQUESTS - 1};`));
    const created = await send('POST', '/api/actions', { token: bob.token, body: actionBody('quota-test') });
    expect(created.status).toBe(201);
  });

  it('past the read quota: the list that passed it is answered, the next request is a 429', async () => {
    const [cat, dan] = [newCaller(), newCaller()];
    const at = await windowWithRoom(20);
    // Each list reads at most the budget (100 entries); four of them pass the quota of 400.
    const heavy = `/api/actions?${q('dueAt', '>1900-01-01')}&${q('dueAt', '<2200-01-01')}&${q('title', '*zq')}`;
    let statuses: number[] = [];
    let last = await send('GET', heavy, { token: cat.token });
    statuses.push(last.status);
    while (last.status !== 429 && statuses.length < 10) {
      // Once reads are the scarcer quota, the fields name it.
      if ((await used(cat.id, at)).reads / READS > 0.5) {
        expect(last.headers.get('ratelimit-policy')).toBe(`"reads";q=${READS};w=${WINDOW}`);
      }
      last = await send('GET', heavy, { token: cat.token });
      statuses.push(last.status);
    }
    expect(statuses.at(-1)).toBe(429);
    // Each heavy list answers (200, its budget spent), and is charged what it read.
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(last.body.detail).toMatch(new RegExp(`${READS} index entries read`));
    expect(last.headers.get('ratelimit')).toMatch(/^"reads";r=0;t=\d+$/);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { reads } = await used(cat.id, at);
    expect(reads).toBeGreaterThanOrEqual(READS);
    // A write past the read quota does nothing.
    statuses = [];
    const refused = await send('POST', '/api/actions', { token: cat.token, body: actionBody('quota-reads') });
    expectProblem(refused, 429);
    const owned = await send('GET', `/api/actions?${q('owner', cat.id)}&limit=0`, { token: dan.token });
    expect(owned.body.totalCount).toBe(0);
    // Dan lists as before.
    const page = await send('GET', '/api/actions?limit=5', { token: dan.token });
    expect(page.status).toBe(200);
    expect(page.body.actions).toHaveLength(5);
  });
});
