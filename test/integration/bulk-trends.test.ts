import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMemoryEngine } from '../../infra/local/shared-engine';
import { localEnvironment } from '../../infra/local/stack';
import { type LocalStore, startTableOn } from '../../infra/local/store';
import { getReminderSettings } from '../../lib/config';
import type { ActionView } from '../../lib/model/action';
import type { RecordedEntry } from '../../lib/model/history';
import type { TrendSubject } from '../../lib/model/trends';
import { getDocumentClient } from '../../lib/store/client';
import type { Item } from '../../lib/store/item';
import { attr } from '../../lib/store/table';
import { writeTrendsInBulk } from '../../lib/store/trends/bulk-trends';
import { countTrends } from '../../lib/trends/trend-stream';
import { dataDir, locationAt } from '../support/client';

/**
 * The benchmark's bulk writer of trend counters (`lib/store/trends/bulk-trends.ts`) leaves exactly
 * the items the stream consumer's `countTrends` leaves: the same entries (creates open and closed,
 * closes on time and late, reopens, a close to another closed status, a comment, an entry handed
 * over twice) counted once through `countTrends` into one table and once in bulk into another,
 * then every trend item (`t#...`: day counters and applied-markers) of both scanned and compared.
 * And the benchmark's order, the bulk first and `countTrends` adding a sample on top, leaves the
 * same items as the bulk of all. Two tables of their own on the file's DynamoDB Local.
 */

let counted: LocalStore; // the configured table: where countTrends writes
let bulk: LocalStore;

beforeAll(async () => {
  const engine = await sharedMemoryEngine();
  if (!engine) throw new Error('no shared DynamoDB Local for this file');
  [counted, bulk] = await Promise.all([startTableOn(engine), startTableOn(engine)]);
  // The store reads its configuration at first use, which is after this.
  Object.assign(process.env, localEnvironment(dataDir(), engine, counted.tableName), { LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await Promise.all([counted?.close(), bulk?.close()]);
});

const places = [
  locationAt('North', 'Pit 1', 'A'),
  locationAt('North', 'Pit 1', 'B'),
  locationAt('South', 'Pit 9', 'A'),
];
const people = ['ann', 'bob', 'cy'];
const person = (id: string) => ({ id, name: id, email: null });

/** A view with what the trend rules read (`trendSubjectOf`, `trendMoveOf`); the rest is never looked at. */
const viewOf = (s: TrendSubject, status: string): ActionView =>
  ({
    actionProducer: { name: s.producer },
    location: s.location,
    priority: s.priority,
    status,
    owner: person(s.ownerId),
    assignee: person(s.assigneeId),
    createdAt: s.createdAt,
    dueAt: s.dueAt,
  }) as unknown as ActionView;

/**
 * About 40 entries of 12 actions over a few days of `year`: each created (every fourth created
 * closed), then a close (on time or late), a reopen, a close to another closed status (no move),
 * a comment (no move), and one close handed over twice.
 */
function historyOf(year: number): RecordedEntry[] {
  const entries: RecordedEntry[] = [];
  for (let i = 0; i < 12; i++) {
    const actionId = randomUUID();
    const createdAt = `${year}-03-0${1 + (i % 3)}T0${i % 10}:15:00.000Z`;
    const subject: TrendSubject = {
      location: places[i % places.length] as TrendSubject['location'],
      producer: i % 2 ? 'audit' : 'inspection',
      priority: String(1 + (i % 3)),
      ownerId: people[i % 3] as string,
      assigneeId: people[(i + 1) % 3] as string,
      createdAt,
      dueAt: `${year}-03-0${3 + (i % 4)}T00:00:00.000Z`,
    };
    const actor = person(subject.ownerId);
    const createdClosed = i % 4 === 0;
    entries.push({
      actionId,
      version: 1,
      type: 'created',
      actor,
      time: createdAt,
      action: { ...viewOf(subject, createdClosed ? '3' : '1'), id: actionId },
    } as RecordedEntry);
    if (createdClosed) continue;
    const update = (version: number, day: number, before: string, after: string) =>
      ({
        actionId,
        version,
        type: 'updated',
        actor,
        time: `${year}-03-0${day}T12:00:00.000Z`,
        changes: { status: { before, after } },
        trend: subject,
      }) as RecordedEntry;
    const close = update(2, 4 + (i % 3), '1', '3');
    entries.push(close);
    if (i % 4 === 1) entries.push(update(3, 7, '3', '2'), update(4, 8, '2', '4'));
    if (i % 4 === 2) entries.push(update(3, 8, '3', '4'));
    if (i % 4 === 3) {
      entries.push({
        actionId,
        version: 3,
        type: 'commented',
        actor,
        time: `${year}-03-08T12:00:00.000Z`,
      } as RecordedEntry);
      entries.push(close);
    }
  }
  return entries;
}

/**
 * The trend items of `table` (`t#...`) that `entries` leave (their days' counters and their
 * markers), sorted by key; each marker's expiry checked and left out (it is the time of writing).
 * The tables hold both tests' items: each test reads its own, so one failing leaves the other whole.
 */
async function trendItems(table: string, entries: readonly RecordedEntry[]): Promise<Item[]> {
  const year = entries[0]?.time.slice(0, 4);
  const markers = new Set(entries.map((entry) => `t#seen#${entry.actionId}`));
  const ours = (item: Item) =>
    markers.has(String(item[attr.id])) || String(item[attr.sortKey]).startsWith(`d#${year}-`);
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await getDocumentClient().send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  const now = Date.now() / 1000;
  return items
    .filter((item) => String(item[attr.id]).startsWith('t#') && ours(item))
    .map((item) => {
      if (!String(item[attr.id]).startsWith('t#seen#')) return item;
      const { [attr.expiresAt]: expires, ...rest } = item;
      expect(Number(expires)).toBeGreaterThan(now + 6 * 86_400);
      expect(Number(expires)).toBeLessThan(now + 8 * 86_400);
      return rest;
    })
    .sort((a, b) => `${a[attr.id]}|${a[attr.sortKey]}`.localeCompare(`${b[attr.id]}|${b[attr.sortKey]}`));
}

describe('the bulk writer of trend counters', () => {
  it('writes exactly the items countTrends writes for the same entries', async () => {
    const entries = historyOf(2003);
    const closed = getReminderSettings().closedStatuses;
    const report = await countTrends(entries);
    const summary = await writeTrendsInBulk(entries, closed, { table: bulk.tableName });
    // 12 creates, 9 closes, 3 reopens, 3 closes after a reopen; 3 closes handed over twice.
    expect(report).toMatchObject({ counted: 27, repeated: 3 });
    expect(summary).toMatchObject({ counted: 27, repeated: 3 });

    const [expected, actual] = await Promise.all([
      trendItems(counted.tableName, entries),
      trendItems(bulk.tableName, entries),
    ]);
    expect(actual.length).toBe(summary.items);
    expect(expected.filter((item) => String(item[attr.id]).startsWith('t#seen#'))).toHaveLength(27);
    // Many entries add to one day item (every entry of a day to the whole service's): the sums matter.
    expect(Math.max(...expected.map((item) => Number(item.c ?? 0)))).toBeGreaterThan(1);
    expect(expected.some((item) => Number(item.s ?? 0) > 0 && Number(item.o ?? 0) > 0)).toBe(true);
    expect(actual).toEqual(expected);
  });

  it('in the benchmark order, the bulk first and a sample counted on top, leaves what the bulk of all leaves', async () => {
    // Other days than the first test's: no item of one is an item of the other.
    const entries = historyOf(2004);
    const closed = getReminderSettings().closedStatuses;
    // The sample's last entry is a close whose second delivery is in the bulk: counted there, repeated here.
    const rest = await writeTrendsInBulk(entries.slice(10), closed, { table: counted.tableName });
    const report = await countTrends(entries.slice(0, 10));
    expect(report).toMatchObject({ counted: 8, repeated: 1 });
    expect(report.counted + rest.counted).toBe(27);
    await writeTrendsInBulk(entries, closed, { table: bulk.tableName });

    const [expected, actual] = await Promise.all([
      trendItems(counted.tableName, entries),
      trendItems(bulk.tableName, entries),
    ]);
    expect(actual).toEqual(expected);
  });
});
