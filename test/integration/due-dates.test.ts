import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../contract/oracle';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { sweepDueDates } from '../../lib/due-dates/sweep';
import { actionBody, call, expectProblem, uniqueProducer } from '../support/client';

/**
 * Issue 26 (contract section 10): due soon, overdue and escalated reminders, written by the
 * sweep as history entries and published as events; `overdue` on every action and as a filter.
 * A stack of its own with short windows (decimal hours) and a 1 s sweep, as `npm start` runs
 * it: the shared stack does not sweep, so other tests' versions stay put. The tests that race
 * or cut sweeps call the sweep function itself with a clock moved far ahead, past actions made
 * for them alone, so the stack's own sweeper (on the real clock) never reaches those.
 */

const DUE_SOON_S = 7.2; // DUE_SOON_HOURS=0.002
const ESCALATE_S = 3.6; // ESCALATE_AFTER_HOURS=0.001
const SYSTEM = { id: 'system', name: 'Action tracking service', email: null };

let stack: LocalStack;
let dataDir: string;
let token: string;
const saved = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-due-'));
  Object.assign(process.env, {
    DUE_SOON_HOURS: '0.002',
    ESCALATE_AFTER_HOURS: '0.001',
    REMINDER_INTERVAL_SECONDS: '1',
    CLOSED_STATUSES: '3,4',
    LOG_LEVEL: 'silent',
  });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0, sweepEverySeconds: 1 });
  token = issueToken(stack.issuer, { sub: 'u-dana', name: 'Dana Due', email: 'dana@example.com' });
});

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.env = saved;
});

const at = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const api = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call<T>(method, path, { token, body, headers, baseUrl: stack.url });

async function createDue(producer: string, dueAt: string, overrides: Record<string, unknown> = {}) {
  const reply = await api('POST', '/api/actions', actionBody(producer, { dueAt, ...overrides }));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const got = await api('GET', `/api/actions/${reply.body.id}`);
  return got.body as { id: string; overdue: boolean; updatedAt: string; createdAt: string };
}

async function history(id: string): Promise<any[]> {
  const reply = await api('GET', `/api/actions/${id}/history?limit=100`);
  expect(reply.status).toBe(200);
  return reply.body.entries;
}

const reminders = (entries: any[]) =>
  entries.filter((e) => ['due-soon', 'overdue', 'escalated'].includes(e.type)).map((e) => e.type);

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(200);
  }
}

const eventsOf = async (id: string) => {
  const { readFileSync, existsSync } = await import('node:fs');
  if (!existsSync(stack.eventsFile)) return [];
  return readFileSync(stack.eventsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((e) => e.detail.id === id);
};

describe('due-date reminders', () => {
  it('sends due soon, overdue and escalated once each, in order, as the system, without moving updatedAt', async () => {
    const producer = uniqueProducer('due-all');
    const created = await createDue(producer, at(DUE_SOON_S + 2));
    expect(created.overdue).toBe(false);
    await until('the escalation', 30_000, async () =>
      reminders(await history(created.id)).includes('escalated') ? true : undefined,
    );
    // Two more sweeps: nothing is sent twice.
    await sleep(2_500);
    const after = await history(created.id);
    expect(after.map((e) => e.type)).toEqual(['created', 'due-soon', 'overdue', 'escalated']);
    expect(after.map((e) => e.version)).toEqual([1, 2, 3, 4]);
    const got = await api('GET', `/api/actions/${created.id}`);
    for (const entry of after.slice(1)) {
      expect(entry.actor).toEqual(SYSTEM);
      expect(entry.dueAt).toBe(got.body.dueAt);
    }
    expect(got.body.overdue).toBe(true);
    expect(got.body.updatedAt).toBe(created.updatedAt);
    expect(got.headers.get('etag')).toBe('"4"');

    const events = await until('the three events', 10_000, async () => {
      const found = (await eventsOf(created.id)).filter((e) => e['detail-type'] !== 'ActionCreated');
      return found.length >= 3 ? found : undefined;
    });
    expect(events.map((e) => e['detail-type'])).toEqual(['ActionDueSoon', 'ActionOverdue', 'ActionEscalated']);
    for (const [i, event] of events.entries()) {
      expect(event.detail).toMatchObject({
        id: created.id,
        actor: SYSTEM,
        version: i + 2,
        dueAt: got.body.dueAt,
        owner: got.body.owner,
        assignee: got.body.assignee,
        status: '1',
        title: got.body.title,
      });
      expect(typeof event.detail.time).toBe('string');
    }
  });

  it('a create already past due gets ActionOverdue, never ActionDueSoon', async () => {
    const created = await createDue(uniqueProducer('due-past'), at(-1));
    const first = await until('the overdue reminder', 10_000, async () => {
      const r = reminders(await history(created.id));
      return r.length > 0 ? r : undefined;
    });
    expect(first[0]).toBe('overdue');
    await sleep(ESCALATE_S * 1000 + 2_000);
    expect(reminders(await history(created.id))).toEqual(['overdue', 'escalated']);
  });

  it('closing clears overdue in the same change and stops escalation', async () => {
    const created = await createDue(uniqueProducer('due-close'), at(-0.5));
    await until('overdue', 10_000, async () =>
      (await api('GET', `/api/actions/${created.id}`)).body.overdue ? true : undefined,
    );
    const closed = await api('PATCH', `/api/actions/${created.id}`, { status: '3' });
    expect(closed.status).toBe(200);
    expect(closed.body.overdue).toBe(false);
    const listed = await api('GET', '/api/actions?overdue=true&limit=100');
    expect(listed.body.actions.map((a: any) => a.id)).not.toContain(created.id);
    await sleep(ESCALATE_S * 1000 + 2_000);
    expect(reminders(await history(created.id))).toEqual(['overdue']);
    // Reopened, it is overdue again at once (its overdue reminder was sent), and escalates.
    const reopened = await api('PATCH', `/api/actions/${created.id}`, { status: '1' });
    expect(reopened.body.overdue).toBe(true);
    await until('the escalation after reopening', 10_000, async () =>
      reminders(await history(created.id)).includes('escalated') ? true : undefined,
    );
  });

  it('moving dueAt re-arms the reminders', async () => {
    const created = await createDue(uniqueProducer('due-move'), at(-0.5));
    await until('overdue', 10_000, async () =>
      (await api('GET', `/api/actions/${created.id}`)).body.overdue ? true : undefined,
    );
    const later = await api('PATCH', `/api/actions/${created.id}`, { dueAt: at(3600) });
    expect(later.body.overdue).toBe(false);
    const earlier = at(-0.5);
    await api('PATCH', `/api/actions/${created.id}`, { dueAt: earlier });
    const entries = await until('the second overdue reminder', 10_000, async () => {
      const h = await history(created.id);
      return h.filter((e) => e.type === 'overdue').length >= 2 ? h : undefined;
    });
    const overdue = entries.filter((e) => e.type === 'overdue');
    expect(overdue[1].dueAt).toBe(earlier);
    expect(overdue[0].dueAt).not.toBe(earlier);
    expect((await api('GET', `/api/actions/${created.id}`)).body.overdue).toBe(true);
  });

  it('closed and deleted actions get no reminder', async () => {
    const closed = await createDue(uniqueProducer('due-closed'), at(-1), { status: '4' });
    // Due a little later, not already: the stack sweeps every second, and an action already due
    // could be reminded (rightly) between its create and its delete on a loaded machine.
    const DUE_IN_S = 8;
    const deleted = await createDue(uniqueProducer('due-deleted'), at(DUE_IN_S));
    const deletedAt = Date.now();
    expect((await api('DELETE', `/api/actions/${deleted.id}`)).status).toBe(204);
    expect(Date.now() - deletedAt, 'the delete landed before the action fell due').toBeLessThan(DUE_IN_S * 1000);
    await sleep((DUE_IN_S + ESCALATE_S) * 1000 + 2_500);
    expect((await history(closed.id)).map((e) => e.type)).toEqual(['created']);
    expect((await history(deleted.id)).map((e) => e.type)).toEqual(['created', 'deleted']);
  });

  it('overdue is read-only, and a filter with = only', async () => {
    expectProblem(await api('POST', '/api/actions', { ...actionBody('due-ro'), overdue: true }), 400, {
      field: 'overdue',
    });
    const created = await createDue(uniqueProducer('due-ro'), at(3600));
    expectProblem(await api('PATCH', `/api/actions/${created.id}`, { overdue: false }), 400, { field: 'overdue' });
    expectProblem(await api('GET', '/api/actions?overdue=maybe'), 400, { parameter: 'overdue' });
    expectProblem(await api('GET', '/api/actions?overdue=!true'), 400, { parameter: 'overdue' });
    expectProblem(await api('GET', '/api/actions?sort=overdue'), 400, { parameter: 'sort' });
  });

  it('two sweeps started at once write each reminder once', async () => {
    const producer = uniqueProducer('due-race');
    const dueAt = at(20 * 60);
    const ids = await Promise.all(Array.from({ length: 12 }, () => createDue(producer, dueAt).then((a) => a.id)));
    // Past the due time of these (and of every other action here), not yet past their escalation.
    const clock = () => Date.parse(dueAt) + 1_000;
    const [a, b] = await Promise.all([sweepDueDates({ now: clock }), sweepDueDates({ now: clock })]);
    const mine = async () => Promise.all(ids.map(async (id) => reminders(await history(id))));
    expect(await mine()).toEqual(ids.map(() => ['overdue']));
    expect(a.failed + b.failed).toBe(0);
    expect((a.sent.overdue ?? 0) + (b.sent.overdue ?? 0)).toBeGreaterThanOrEqual(ids.length);
    // Again, both at once: nothing more is owed.
    await Promise.all([sweepDueDates({ now: clock }), sweepDueDates({ now: clock })]);
    expect(await mine()).toEqual(ids.map(() => ['overdue']));
  });

  it('a sweep cut off half way, run again, writes none twice and misses none', async () => {
    const producer = uniqueProducer('due-cut');
    const dueAt = at(40 * 60);
    const ids = await Promise.all(Array.from({ length: 15 }, () => createDue(producer, dueAt).then((a) => a.id)));
    const clock = () => Date.parse(dueAt) + 1_000;
    const cut = await sweepDueDates({ now: clock, limit: 5 });
    expect(cut.stopped).toBe(true);
    const counts = await Promise.all(ids.map(async (id) => reminders(await history(id)).length));
    expect(counts.filter((n) => n === 1).length).toBeGreaterThanOrEqual(5);
    expect(counts.every((n) => n <= 1)).toBe(true);
    const rest = await sweepDueDates({ now: clock });
    expect(rest.stopped).toBe(false);
    const after = await Promise.all(ids.map(async (id) => reminders(await history(id))));
    expect(after).toEqual(ids.map(() => ['overdue']));
    // The escalation comes once too, also from sweeps that overlap.
    const later = () => Date.parse(dueAt) + (ESCALATE_S + 1) * 1000;
    await Promise.all([sweepDueDates({ now: later, limit: 3 }), sweepDueDates({ now: later })]);
    await sweepDueDates({ now: later });
    const escalated = await Promise.all(ids.map(async (id) => reminders(await history(id))));
    expect(escalated).toEqual(ids.map(() => ['overdue', 'escalated']));
  });

  it('lists overdue actions as the contract reads the filter, counted, in both orders', async () => {
    const all = await api('GET', '/api/actions?limit=100');
    expect(all.body.totalCount).toBeLessThanOrEqual(100);
    for (const query of [
      'overdue=true',
      'overdue=true&sort=dueAt',
      'overdue=true&sort=-dueAt',
      'overdue=true&sort=createdAt',
      'overdue=false',
      'overdue=true&limit=3&skip=2',
      'overdue=true&status=1',
      `overdue=true&actionProducer.name=${all.body.actions[0].actionProducer.name}`,
    ]) {
      const listed = await api('GET', `/api/actions?${query}`);
      expect(listed.status, query).toBe(200);
      const expected = evaluate(all.body.actions, query) as { ids: string[]; totalCount: number };
      expect({ ids: listed.body.actions.map((x: any) => x.id), totalCount: listed.body.totalCount }, query).toEqual(
        expected,
      );
    }
    const overdueCount = all.body.actions.filter((x: any) => x.overdue).length;
    expect(overdueCount).toBeGreaterThan(10);
  });

  it('reminds each dueAt value once for the life of the action, also when dueAt moves back to it (issue 34)', async () => {
    const [first, second] = [at(-600), at(-1200)];
    const created = await createDue(uniqueProducer('due-back'), first);
    const escalations = async () =>
      (await history(created.id)).filter((e) => e.type === 'escalated').map((e) => e.version);
    await until('the first escalation', 30_000, async () => ((await escalations()).length === 1 ? true : undefined));
    for (const [round, dueAt] of [second, first, second, first].entries()) {
      const moved = await api('PATCH', `/api/actions/${created.id}`, { dueAt });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      if (round === 0) {
        await until('the second value escalated', 30_000, async () =>
          (await escalations()).length === 2 ? true : undefined,
        );
      } else await sleep(2_500); // more than two sweeps: a value already escalated gets nothing
      expect(await escalations()).toHaveLength(2);
    }
    // Back at a value already reminded, the action shows overdue, as the sweep left it.
    expect((await api('GET', `/api/actions/${created.id}`)).body.overdue).toBe(true);
  }, 90_000);
});
