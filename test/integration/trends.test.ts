import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as sweep } from '../../functions/sweepDueDates';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import type { ActionView } from '../../lib/model/action';
import type { RecordedEntry } from '../../lib/model/history';
import { type TrendSubject, trendSubjectOf } from '../../lib/model/trends';
import { getDocumentClient, tableName } from '../../lib/store/client';
import { historyItem } from '../../lib/store/item';
import { changesOf } from '../../lib/store/sync/stream';
import { attr, itemKind } from '../../lib/store/table';
import { recordDayEnds } from '../../lib/store/trends/day-ends';
import { countTrends } from '../../lib/trends/trend-stream';
import { actionBody, type CallOptions, call, expectProblem, locationAt } from '../support/client';

/**
 * Contract section 17, "Trends", on a scoped stack of its own: created, closed, reopened, closed
 * on time and mean days to close equal an oracle kept over the history this file makes (creates,
 * closes, reopens, closes to another closed status, deletes), today's bucket equals the list's
 * open and overdue counts, a person with one site sees that site alone, a stream record handed
 * over twice counts once, and every bad parameter is a 400 naming it. Past days are written as
 * the stream writes them: history entries of made-up actions, through the real stream path
 * (`changesOf` + the consumer's `countTrends`) into the real store.
 */

let stack: LocalStack;
let dataDir: string;
const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

interface Person {
  id: string;
  token: string;
}
const person = (label: string, groups?: string[]): Person => {
  const id = `${label}-${randomUUID().slice(0, 8)}`;
  return { id, token: issueToken(stack.issuer, { sub: id, name: label, email: `${id}@example.com`, groups }) };
};

const UNIT = `Trend Unit ${randomUUID().slice(0, 8)}`;
const place = (site: string, businessUnit = UNIT) => locationAt(businessUnit, site);
const NORTH = place('North Pit');
const SOUTH = place('South Pit');
const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2036-12-01T10:00:00Z';

let admin: Person;
let mia: Person; // viewer of UNIT / North Pit only
const today = () => new Date().toISOString().slice(0, 10);

/** The oracle: what each bucket must say, per site, kept as the changes are made. */
interface Tally {
  created: number;
  closed: number;
  reopened: number;
  closedOnTime: number;
}
const tally: Record<string, Tally> = {
  'North Pit': { created: 0, closed: 0, reopened: 0, closedOnTime: 0 },
  'South Pit': { created: 0, closed: 0, reopened: 0, closedOnTime: 0 },
};
const sum = (a: Tally, b: Tally): Tally => ({
  created: a.created + b.created,
  closed: a.closed + b.closed,
  reopened: a.reopened + b.reopened,
  closedOnTime: a.closedOnTime + b.closedOnTime,
});

interface Made {
  id: string;
  site: string;
  dueAt: string;
  status: number;
}
const made: Made[] = [];
const closedStatus = (s: number) => s === 3 || s === 4;

async function createAt(site: typeof NORTH, status: number, dueAt: string, priority = 2) {
  const reply = await send('POST', '/api/actions', {
    token: admin.token,
    body: actionBody('trends', { location: site, status: String(status), dueAt, priority: String(priority) }),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const t = tally[site.site] as Tally;
  t.created++;
  if (closedStatus(status)) {
    t.closed++;
    if (dueAt === FUTURE) t.closedOnTime++;
  }
  made.push({ id: reply.body.id, site: site.site, dueAt, status });
}

async function setStatus(action: Made, status: number) {
  const reply = await send('PATCH', `/api/actions/${action.id}`, {
    token: admin.token,
    body: { status: String(status) },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const t = tally[action.site] as Tally;
  if (!closedStatus(action.status) && closedStatus(status)) {
    t.closed++;
    if (action.dueAt === FUTURE) t.closedOnTime++;
  }
  if (closedStatus(action.status) && !closedStatus(status)) t.reopened++;
  action.status = status;
}

const trend = (query: string, who: Person = admin) => send('GET', `/api/actions/trends?${query}`, { token: who.token });
const count = async (query: string, who: Person = admin) => {
  const reply = await send('GET', `/api/actions?${query}&limit=0`, { token: who.token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.totalCountRelation).toBe('eq');
  return reply.body.totalCount as number;
};
const unit = `location.businessUnit=${encodeURIComponent(UNIT)}`;
const site = (name: string) => `${unit}&location.site=${encodeURIComponent(name)}`;

/** Waits until the trend's one bucket of today shows `expected` (the stream's lag), then returns it. */
async function todayBucket(query: string, expected: Partial<Tally>, who: Person = admin) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await trend(`interval=day&from=${today()}&to=${today()}&${query}`, who);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const bucket = reply.body.buckets[0];
    const reached = Object.entries(expected).every(([k, v]) => bucket[k] === v);
    if (reached || Date.now() > deadline) return bucket;
    await new Promise((r) => setTimeout(r, 250));
  }
}
const everything = () => sum(tally['North Pit'] as Tally, tally['South Pit'] as Tally);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-trends-'));
  process.env.LOG_LEVEL = 'silent';
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0, access: { mode: 'scoped' } });
  admin = person('admin', ['action-admins']);
  mia = person('mia');
  const granted = await send('POST', '/api/grants', {
    token: admin.token,
    body: {
      principal: { type: 'person', id: mia.id },
      role: 'viewer',
      scope: { businessUnit: UNIT, site: 'North Pit' },
    },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(201);

  // A history: creates (open, closed on creation, past and future due), closes on time and late,
  // a reopen, a close to another closed status, and deletes of an open and a closed action.
  await createAt(NORTH, 1, FUTURE);
  await createAt(NORTH, 1, PAST);
  await createAt(NORTH, 2, FUTURE, 1);
  await createAt(NORTH, 3, FUTURE);
  await createAt(NORTH, 5, PAST, 1);
  await createAt(SOUTH, 1, FUTURE);
  await createAt(SOUTH, 1, PAST);
  await createAt(SOUTH, 4, PAST);
  await createAt(SOUTH, 2, FUTURE, 1);
  const [n1, n2, n3, n4, n5, s1, s2, s3] = made as [Made, Made, Made, Made, Made, Made, Made, Made];
  await setStatus(n1, 3); // closed on time
  await setStatus(n2, 3); // closed late
  await setStatus(n2, 1); // reopened
  await setStatus(n4, 4); // closed to closed: nothing
  await setStatus(s1, 3);
  await setStatus(s2, 4); // late
  await setStatus(s3, 1); // reopened
  await setStatus(s3, 3); // closed again, late
  for (const gone of [n3, n1, s2]) {
    const reply = await send('DELETE', `/api/actions/${gone.id}`, { token: admin.token });
    expect(reply.status).toBe(204);
    made.splice(made.indexOf(gone), 1);
  }
  void n5;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('trends', () => {
  it("today's bucket equals the oracle over the history, and the list's open and overdue counts", async () => {
    const expected = everything();
    const bucket = await todayBucket(unit, expected);
    expect(bucket).toMatchObject({ start: today(), end: today(), ...expected });
    expect(bucket.meanDaysToClose).toBe(0);
    // Overdue is set by the due-date sweep, which also records yesterday's end (its first run of the day).
    await sweep(undefined, {} as never);
    expect(await count(`${unit}&overdue=true`)).toBe(2);
    const again = await todayBucket(unit, expected);
    expect(again.openAtEnd).toBe(await count(`${unit}&status=!3&status=!4`));
    expect(again.openAtEnd).toBe(made.filter((m) => !closedStatus(m.status)).length);
    expect(again.overdueAtEnd).toBe(await count(`${unit}&overdue=true`));
    expect(again.overdueAtEnd).toBe(2);
    // Yesterday's end, as the sweep recorded it just now (nothing has changed since).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const both = await trend(`interval=day&from=${yesterday}&to=${today()}&${unit}`);
    expect(both.body.buckets[0]).toMatchObject({ start: yesterday, openAtEnd: again.openAtEnd, overdueAtEnd: 2 });
    // The same numbers in the week and the month holding today.
    for (const interval of ['week', 'month']) {
      const reply = await trend(`interval=${interval}&from=${today()}&to=${today()}&${unit}`);
      expect(reply.status).toBe(200);
      expect(reply.body.buckets).toHaveLength(1);
      expect(reply.body.buckets[0]).toMatchObject({ ...expected, openAtEnd: again.openAtEnd });
    }
    // Per site, and by priority with a location.
    expect(await todayBucket(site('South Pit'), tally['South Pit'] as Tally)).toMatchObject(
      tally['South Pit'] as Tally,
    );
    // Three created at priority 1 (one since deleted: it stays counted where it was).
    const urgent = await todayBucket(`${unit}&priority=1`, { created: 3 });
    expect(urgent).toMatchObject({
      created: 3,
      closed: 0,
      openAtEnd: await count(`${unit}&priority=1&status=!3&status=!4`),
    });
  });

  it('a person with one site sees only that site, and none of their own actions elsewhere', async () => {
    // Mia reports one action in the other site: she sees it (her own), the trend does not count it.
    const own = await send('POST', '/api/actions', {
      token: mia.token,
      body: actionBody('trends', { location: SOUTH }),
    });
    expect(own.status).toBe(201);
    (tally['South Pit'] as Tally).created++;
    made.push({ id: own.body.id, site: 'South Pit', dueAt: FUTURE, status: 1 });
    expect(await todayBucket(unit, everything())).toMatchObject(everything());
    const hers = await todayBucket('', tally['North Pit'] as Tally, mia);
    expect(hers).toMatchObject(tally['North Pit'] as Tally);
    expect(hers.openAtEnd).toBe(await count(`${site('North Pit')}&status=!3&status=!4`));
    const south = await trend(`interval=day&from=${today()}&to=${today()}&${site('South Pit')}`, mia);
    expect(south.status).toBe(200);
    expect(south.body.buckets[0]).toMatchObject({ created: 0, closed: 0, openAtEnd: 0, overdueAtEnd: 0 });
  });

  it('past days: day, week (Monday to Sunday) and month buckets, mean days to close, and day ends', async () => {
    const far = `Trend Past ${randomUUID().slice(0, 8)}`;
    const subject = (createdAt: string, dueAt: string): TrendSubject => ({
      location: place('West Pit', far),
      producer: 'trends',
      priority: '2',
      ownerId: admin.id,
      assigneeId: 'undefined',
      createdAt,
      dueAt,
    });
    const created = (actionId: string, time: string, status: string, dueAt: string): RecordedEntry => ({
      actionId,
      version: 1,
      type: 'created',
      actor: { id: admin.id, name: 'admin', email: null },
      time,
      action: { ...viewOf(subject(time, dueAt)), id: actionId, status },
    });
    const updated = (actionId: string, version: number, time: string, before: string, after: string, s: TrendSubject) =>
      ({
        actionId,
        version,
        type: 'updated',
        actor: { id: admin.id, name: 'admin', email: null },
        time,
        changes: { status: { before, after } },
        trend: s,
      }) as RecordedEntry;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    // Mon 2001-01-01 .. Sun 2001-01-07 is one week; 2001-01-08 the next; 2001-02-01 the next month.
    const entries: RecordedEntry[] = [
      created(a, '2001-01-01T10:00:00.000Z', '1', '2001-01-05T00:00:00.000Z'),
      created(b, '2001-01-02T10:00:00.000Z', '1', '2001-01-03T00:00:00.000Z'),
      created(c, '2001-01-08T10:00:00.000Z', '3', '2001-01-09T00:00:00.000Z'),
      // a: closed after 2 days, on time; b: closed after 5 days, late; b reopened; b closed to closed: nothing.
      updated(
        a,
        2,
        '2001-01-03T10:00:00.000Z',
        '1',
        '3',
        subject('2001-01-01T10:00:00.000Z', '2001-01-05T00:00:00.000Z'),
      ),
      updated(
        b,
        2,
        '2001-01-07T10:00:00.000Z',
        '2',
        '4',
        subject('2001-01-02T10:00:00.000Z', '2001-01-03T00:00:00.000Z'),
      ),
      updated(
        b,
        3,
        '2001-02-01T10:00:00.000Z',
        '4',
        '1',
        subject('2001-01-02T10:00:00.000Z', '2001-01-03T00:00:00.000Z'),
      ),
      updated(
        a,
        3,
        '2001-02-02T10:00:00.000Z',
        '3',
        '4',
        subject('2001-01-01T10:00:00.000Z', '2001-01-05T00:00:00.000Z'),
      ),
    ];
    const report = await countTrends(
      changesOf(entries.map((entry) => asStreamRecord(entry))).map((change) => change.entry),
    );
    expect(report).toMatchObject({ counted: 6, repeated: 0 });
    const query = (interval: string, from: string, to: string) =>
      trend(`interval=${interval}&from=${from}&to=${to}&location.businessUnit=${encodeURIComponent(far)}`);

    const weeks = await query('week', '2001-01-01', '2001-02-04');
    expect(weeks.status, JSON.stringify(weeks.body)).toBe(200);
    expect(weeks.body.buckets.map((x: { start: string; end: string }) => [x.start, x.end])).toEqual([
      ['2001-01-01', '2001-01-07'],
      ['2001-01-08', '2001-01-14'],
      ['2001-01-15', '2001-01-21'],
      ['2001-01-22', '2001-01-28'],
      ['2001-01-29', '2001-02-04'],
    ]);
    expect(weeks.body.buckets[0]).toMatchObject({
      created: 2,
      closed: 2,
      reopened: 0,
      closedOnTime: 1,
      meanDaysToClose: 3.5,
    });
    expect(weeks.body.buckets[1]).toMatchObject({ created: 1, closed: 1, closedOnTime: 1, meanDaysToClose: 0 });
    expect(weeks.body.buckets[2]).toMatchObject({ created: 0, closed: 0, meanDaysToClose: null, openAtEnd: null });
    expect(weeks.body.buckets[4]).toMatchObject({ created: 0, closed: 0, reopened: 1 });

    const months = await query('month', '2000-12-15', '2001-02-10');
    expect(months.body.buckets.map((x: { start: string; end: string }) => [x.start, x.end])).toEqual([
      ['2000-12-15', '2000-12-31'],
      ['2001-01-01', '2001-01-31'],
      ['2001-02-01', '2001-02-10'],
    ]);
    expect(months.body.buckets[1]).toMatchObject({ created: 3, closed: 3, closedOnTime: 2, meanDaysToClose: 2.3 });

    const days = await query('day', '2001-01-01', '2001-01-08');
    expect(days.body.buckets.map((x: { created: number }) => x.created)).toEqual([1, 1, 0, 0, 0, 0, 0, 1]);
    expect(days.body.buckets.map((x: { closed: number }) => x.closed)).toEqual([0, 0, 1, 0, 0, 0, 1, 1]);

    // A day end recorded (as the sweep records it): open and overdue per prefix, from the counters.
    const ended = await recordDayEnds('2001-01-07', [3, 4]);
    expect(ended.recorded).toBe(true);
    expect((await recordDayEnds('2001-01-07', [3, 4])).recorded).toBe(false);
    const week = await trend(`interval=week&from=2001-01-01&to=2001-01-14&${unit}`);
    expect(week.body.buckets[0].openAtEnd).toBe(await count(`${unit}&status=!3&status=!4`));
    expect(week.body.buckets[0].overdueAtEnd).toBe(await count(`${unit}&overdue=true`));
    expect(week.body.buckets[1]).toMatchObject({ openAtEnd: null, overdueAtEnd: null });
    const north = await trend(`interval=day&from=2001-01-07&to=2001-01-07&${site('North Pit')}`);
    expect(north.body.buckets[0].openAtEnd).toBe(await count(`${site('North Pit')}&status=!3&status=!4`));
    // A prefix no action has on a recorded day: nothing was open there.
    const empty = await trend(
      `interval=day&from=2001-01-07&to=2001-01-07&location.businessUnit=nowhere-${randomUUID()}`,
    );
    expect(empty.body.buckets[0]).toMatchObject({ openAtEnd: 0, overdueAtEnd: 0 });
  });

  it('a stream record delivered twice counts once', async () => {
    // A real history entry the stack's own stream reader has counted: handed over again, twice.
    const closedOne = made.find((m) => m.site === 'South Pit' && m.status === 3) as Made;
    const history = await getDocumentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: '#id = :id AND begins_with(#sk, :h)',
        ExpressionAttributeNames: { '#id': attr.id, '#sk': attr.sortKey },
        ExpressionAttributeValues: { ':id': closedOne.id, ':h': itemKind.historyPrefix },
      }),
    );
    const records = (history.Items ?? []).map((item) => asStreamRecord(item as unknown as RecordedEntry, true));
    // Once the stream has counted every change made so far.
    const before = await todayBucket(unit, everything());
    expect(before).toMatchObject(everything());
    for (let i = 0; i < 2; i++) {
      const report = await countTrends(changesOf(records).map((change) => change.entry));
      expect(report.counted).toBe(0);
      expect(report.repeated).toBeGreaterThan(0);
    }
    // A new entry counts once, however often it comes.
    const fresh = { ...(changesOf(records)[0]?.entry as RecordedEntry), actionId: randomUUID() };
    const twice = await countTrends([fresh, fresh]);
    expect(twice.counted + twice.repeated).toBe(2);
    expect(twice.counted).toBe(1);
    (tally['South Pit'] as Tally).created++;
    const after = await todayBucket(unit, everything());
    expect(after).toMatchObject({ created: before.created + 1, closed: before.closed });
  });

  it('a location field without the ones before it sums every prefix it is found in, for today and open at the end', async () => {
    // North Pit in a second business unit: `location.site=North Pit` alone is both units' North Pit.
    const elsewhere = place('North Pit', `${UNIT} West`);
    const reply = await send('POST', '/api/actions', {
      token: admin.token,
      body: actionBody('trends', { location: elsewhere, status: '1', dueAt: PAST }),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const north = tally['North Pit'] as Tally;
    const both = { ...north, created: north.created + 1 };
    const bucket = await todayBucket('location.site=North%20Pit', both);
    expect(bucket).toMatchObject(both);
    // Today's open and overdue are the list's own counts with the same filter.
    expect(bucket.openAtEnd).toBe(await count('location.site=North%20Pit&status=!3&status=!4'));
    expect(bucket.overdueAtEnd).toBe(await count('location.site=North%20Pit&overdue=true'));
    // A deeper field alone, and a pair with a gap, find the same prefixes.
    expect(await todayBucket('location.department=Maintenance&location.site=North%20Pit', both)).toMatchObject(both);
    expect(await todayBucket('location.crew=A', sum(both, tally['South Pit'] as Tally))).toMatchObject(
      sum(both, tally['South Pit'] as Tally),
    );
    // The viewer of one unit's North Pit sees only hers.
    expect(await todayBucket('location.site=North%20Pit', north, mia)).toMatchObject(north);
    // A location no action has: nothing, not an error.
    expect(await todayBucket('location.site=Nowhere', { created: 0 })).toMatchObject({ created: 0, openAtEnd: 0 });
  });

  it('every bad parameter is a 400 naming it', async () => {
    const ok = `interval=week&from=2026-01-05&to=${today()}`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[string, string]> = [
      ['from=2026-01-01&to=2026-01-02', 'interval'],
      ['interval=year&from=2026-01-01&to=2026-01-02', 'interval'],
      ['interval=day&interval=week&from=2026-01-01&to=2026-01-02', 'interval'],
      ['interval=day&to=2026-01-02', 'from'],
      ['interval=day&from=2026-01-01', 'to'],
      ['interval=day&from=2026-13-01&to=2026-12-02', 'from'],
      ['interval=day&from=2026-01-01&to=2026-02-30', 'to'],
      ['interval=day&from=2026-01-01T00:00:00Z&to=2026-01-02', 'from'],
      [`interval=day&from=2026-01-01&to=${tomorrow}`, 'to'],
      ['interval=day&from=2026-01-03&to=2026-01-02', 'from'],
      ['interval=day&from=2020-01-01&to=2026-01-02', 'from'],
      [`${ok}&title=pump`, 'title'],
      [`${ok}&status=1`, 'status'],
      [`${ok}&overdue=true`, 'overdue'],
      [`${ok}&priority=!1`, 'priority'],
      [`${ok}&priority=~1,2`, 'priority'],
      [`${ok}&priority=high`, 'priority'],
      [`${ok}&assignee=*ann`, 'assignee'],
      [`${ok}&location.businessUnit=A&location.businessUnit=B`, 'location.businessUnit'],
      [`${ok}&owner=me&priority=1`, 'priority'],
      [`${ok}&location.businessUnit=A&location.site=B&location.department=C&location.workGroup=D&owner=me`, 'owner'],
      [`${ok}&limit=5`, 'limit'],
    ];
    for (const [query, parameter] of cases) expectProblem(await trend(query), 400, { parameter });
    // 400 buckets fit; 401 do not.
    expect((await trend('interval=day&from=2001-01-01&to=2002-02-04')).status).toBe(200);
    expectProblem(await trend('interval=day&from=2001-01-01&to=2002-02-05'), 400, { parameter: 'from' });
    expect((await trend(`${ok}&owner=me&location.businessUnit=x`)).status).toBe(200);
  });
});

/** An action view around a subject, enough for a `created` entry. */
function viewOf(s: TrendSubject): ActionView {
  const view = {
    title: 'made up',
    description: '',
    actionProducer: { name: s.producer },
    location: s.location,
    allowAnonymousEdits: false,
    dueAt: s.dueAt,
    priority: s.priority,
    status: '1',
    owner: { id: s.ownerId, name: 'admin', email: null },
    initiator: { id: s.ownerId, name: 'admin', email: null },
    assignee: { id: s.assigneeId, name: 'Unknown user', email: '' },
    endorsedBy: [],
    attachments: [],
    tags: [],
    comments: [],
    commentCount: 0,
    createdAt: s.createdAt,
    updatedAt: s.createdAt,
    version: 1,
    overdue: false,
  } as unknown as ActionView;
  expect(trendSubjectOf(view)).toEqual(s);
  return view;
}

/** The stream record DynamoDB writes for a new history item (`stored`: an item as read from the table). */
function asStreamRecord(entry: RecordedEntry, stored = false): DynamoDBRecord {
  const item = stored ? (entry as unknown as Record<string, unknown>) : historyItem(entry);
  return {
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall({ [attr.id]: item[attr.id], [attr.sortKey]: item[attr.sortKey] }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      SequenceNumber: String(Math.random()).slice(2),
    },
  };
}
