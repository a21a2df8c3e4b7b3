import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { getDocumentClient } from '../../lib/store/client';
import { seedActions } from '../../scripts/seed-data';
import { type CallOptions, call } from '../support/client';

/**
 * Issue 42's list findings: a list, a search or the change feed at the edge of the read budget
 * or of the caller's read quota answers what it read (a short page, `gte`, a cursor) or a 429,
 * never a 500 (`BudgetSpent` escaping) and never a 400 about a `skip` that was not sent; A stack of its own with a small
 * budget (the issue's 150 over 220 actions) and a small read quota.
 */

const BUDGET = 150;
const READS = 2_000;
const WINDOW = 60;
let stack: LocalStack;

beforeAll(async () => {
  Object.assign(process.env, {
    LIST_READ_BUDGET: String(BUDGET),
    RATE_LIMIT_READS: String(READS),
    RATE_LIMIT_REQUESTS: '10000',
    LOG_LEVEL: 'silent',
  });
  stack = await startSeededStack('edges', seedActions(220, 42));
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

let callers = 0;
const newCaller = () => {
  const sub = `u-edge-${++callers}-${Date.now().toString(36)}`;
  return { id: sub, token: issueToken(stack.issuer, { sub, name: `Edge ${callers}` }) };
};
const send = (path: string, token: string, options: CallOptions = {}) =>
  call('GET', path, { ...options, token, baseUrl: stack.url });

/** Leaves a caller `left` index entries of their read quota in the current window (waits for room in it first). */
async function leaveReads(caller: string, left: number): Promise<void> {
  const into = (Date.now() / 1000) % WINDOW;
  if (WINDOW - into < 15) await new Promise((r) => setTimeout(r, (WINDOW - into + 0.2) * 1000));
  const windowStart = Math.floor(Date.now() / 1000 / WINDOW) * WINDOW;
  await getDocumentClient().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: { id: `q#${caller}#${windowStart}`, sk: 'q' },
      UpdateExpression: 'SET qe = :e, qr = if_not_exists(qr, :zero)',
      ExpressionAttributeValues: { ':e': READS - left, ':zero': 0 },
    }),
  );
}

/** A 200 that says what it read, or a 429: never a 500, never a 400 about `skip`. */
function answered(reply: { status: number; body: any }, path: string) {
  expect([200, 429], `${path}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
  if (reply.status === 200 && path.startsWith('/api/actions')) {
    expect(['eq', 'gte'], path).toContain(reply.body.totalCountRelation);
    expect(reply.body.actions.length, path).toBeLessThanOrEqual(reply.body.totalCount);
  }
}

const edgePaths = [
  '/api/actions?title=*belt',
  '/api/changes?limit=100',
  '/api/actions?limit=10',
  '/api/actions?sort=title',
  '/api/actions?status=>2',
  '/api/actions?title=*zzzq',
];

describe('at the read quota edge', () => {
  for (const left of [1, 3, 10]) {
    it(`answers with ${left} entries of quota left: a short page or a 429, never a 500 or a 400 about skip`, async () => {
      for (const path of edgePaths) {
        const caller = newCaller();
        await leaveReads(caller.id, left);
        answered(await send(path, caller.token), path);
      }
    }, 300_000);
  }
});

describe('at the read budget', () => {
  it('answers a search whose budget runs out with what it found', async () => {
    const caller = newCaller();
    for (const path of [
      '/api/actions?title=*zzzq',
      '/api/actions?title=*zzzq&status=~1,2',
      '/api/actions?title=*ing',
    ]) {
      const reply = await send(path, caller.token);
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
  });

  it('answers a feed page of nearly the budget (limit 140 under 150) with entries and a cursor', async () => {
    const caller = newCaller();
    const reply = await send('/api/changes?limit=140', caller.token);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.entries.length).toBeGreaterThan(0);
    expect(reply.body.entries.length).toBeLessThanOrEqual(140);
    expect(reply.body.nextCursor).toBeDefined();
    // The cursor continues where the page stopped.
    const next = await send(`/api/changes?limit=140&after=${encodeURIComponent(reply.body.nextCursor)}`, caller.token);
    expect(next.status).toBe(200);
    const seen = new Set(reply.body.entries.map((e: any) => `${e.actionId}/${e.version}`));
    expect(next.body.entries.some((e: any) => seen.has(`${e.actionId}/${e.version}`))).toBe(false);
  });
});
