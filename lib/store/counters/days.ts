import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../../dates';
import { inPool } from '../../flow/fan-out';
import { type Action, locationFields } from '../../model/action';
import { send, tableName } from '../client';
import { dayShardOf } from '../shards';
import { attr } from '../table';
import { addExpression } from './add';
import { type CountStats, readPartition } from './counters';
import { prefixValue } from './prefixes';

/**
 * Day counters (issue 41): for each UTC day, how many actions were created on it, were last
 * updated on it and are due on it, so a filter on `createdAt`, `updatedAt` or `dueAt` counts
 * exactly at any size (`lib/store/list/count/date-counts.ts`). One partition holds them all,
 * `n#@days`, sorted by `<YYYY-MM-DD>#<shard>`, one numeric attribute per date field; so a range of
 * days is one Query, and a create, whose createdAt and updatedAt fall on the same day, moves one
 * item for both (and a third attribute of it when it is also due that day): 2 transaction items,
 * not 3. They move in the same transaction as the item they count, as every counter does.
 *
 * Four shards, not the sixteen of the other counters: a range read reads every shard of every
 * day in it, so four make a year of days about 1,500 small items (15 read units), where sixteen
 * would make it 60; a day's item takes that day's creates, a quarter each, where the total's
 * shards take a sixteenth (a transaction conflict only retries).
 */

/** The partition of every day counter. */
export const DAY_COUNTERS = 'n#@days';

/**
 * The location prefixes whose overdue actions are also counted by due day, by status: the business
 * unit (one field) and the site (two), each in a partition of its own, `n#@days&<depth>#<prefix
 * digest>`, with the same items (`<day>#<shard>`) and attributes (`o<status>`) as the service's.
 * So a business unit's or a site's counts of overdue actions due in a range of days (a scoped
 * viewer's `overdueAge`) are one Query of its days, however many actions it holds. Only overdue
 * actions are counted there: a create that is not overdue moves none of their items; the sweep's
 * mark, and a close, move, status change or delete of an overdue action, move one of each (2 write
 * units each).
 */
export const OVERDUE_DAY_DEPTHS = [1, 2] as const;

/** The partition of the overdue due days of one location prefix (its values in field order: a business unit, or a unit and a site). */
export const overdueDaysOf = (values: readonly string[]) => `${DAY_COUNTERS}&${values.length}#${prefixValue(values)}`;

/** Whether a location prefix of this many fields has overdue due days of its own. */
export const hasOverdueDays = (depth: number): boolean => (OVERDUE_DAY_DEPTHS as readonly number[]).includes(depth);

/** The partitions of the overdue due days of an action's business unit and site. */
const overdueDaysAt = (action: Action) =>
  OVERDUE_DAY_DEPTHS.map((depth) => overdueDaysOf(locationFields.slice(0, depth).map((f) => action.location[f])));

/**
 * The date fields counted by day, and the attribute of a day item that counts each. `closedAt`
 * (contract section 17) is counted only while set: a close moves the day item its `updatedAt`
 * moves already (the same day), so it adds no item to the transaction.
 */
export const dayFields = { createdAt: 'c', updatedAt: 'u', dueAt: 'd', closedAt: 'x' } as const;
export type DayField = keyof typeof dayFields;
const dayFieldList = Object.keys(dayFields) as DayField[];

/**
 * The due day's count split by status (issue 53): `dueAt@2` is kept in the attribute `d2` of the
 * due day's item, beside `d`, so "open, due within a week" counts exactly from the same items. A
 * create moves the item its `d` moves already (no transaction item more); a status change moves
 * the due day's item (one more, 2 write units, unless another of its dates moved it already).
 */
export type DueByStatus = `dueAt@${number}`;
/**
 * The due day's count of overdue actions, by status (issue 50): `overdue@2` in the attribute `o2`
 * of the due day's item, so the overdue actions due in a range of days ("overdue 8-30 days", the
 * counts' `overdueAge`) count exactly from the same items. A create moves the item its `d` moves
 * already; the sweep's mark moves the due day's item (one transaction item, 2 write units), and a
 * close or a move of `dueAt` moves it with the `d<status>` it moves anyway.
 */
export type OverdueByStatus = `overdue@${number}`;
/** What a day item counts: a date field, or the due date of one status, or of one status's overdue actions. */
export type DayCounted = DayField | DueByStatus | OverdueByStatus;
const dueByStatus = (status: number): DueByStatus => `dueAt@${status}`;
const overdueByStatus = (status: number): OverdueByStatus => `overdue@${status}`;
/** The attribute of a day item that counts `counted`. */
export function dayAttribute(counted: DayCounted): string {
  if (counted in dayFields) return dayFields[counted as DayField];
  const [kind, status] = counted.split('@') as [string, string];
  return `${kind === 'overdue' ? 'o' : dayFields.dueAt}${status}`;
}
/** A day item's counts of one attribute family by status: its `d<status>` attributes, or its `o<status>` ones. */
function byStatusOf(item: Record<string, unknown>, letter: 'd' | 'o'): Map<number, number> {
  const counts = new Map<number, number>();
  const name = new RegExp(`^${letter}\\d+$`);
  for (const [key, value] of Object.entries(item))
    if (name.test(key)) counts.set(Number(key.slice(1)), Number(value ?? 0));
  return counts;
}
/** The counts of a day item's due date by status (its `d<status>` attributes). */
export const dueByStatusOf = (item: Record<string, unknown>): Map<number, number> => byStatusOf(item, 'd');
/** The counts of a day item's overdue actions by status (its `o<status>` attributes). */
export const overdueByStatusOf = (item: Record<string, unknown>): Map<number, number> => byStatusOf(item, 'o');

/** The sort key of a day's item on one shard; a day's items sort together, days in order. */
export const daySortKey = (day: string, shard: number) => `${day}#${shard}`;

/** The day an item of the day partition counts (from its sort key). */
export const dayOfItem = (item: Record<string, unknown>): string => String(item[attr.sortKey]).slice(0, 10);

/** `<partition>\u0000<day>\u0000<field>` -> change: what a write adds to the day counters. */
export type DayDeltas = Map<string, number>;

const cell = (day: string, field: DayCounted, partition = DAY_COUNTERS) => `${partition}\u0000${day}\u0000${field}`;
const uncell = (key: string) => key.split('\u0000') as [string, string, DayCounted];

/** Adds `delta` for each date of `action` to `deltas`. */
export function addDays(deltas: DayDeltas, action: Action, delta: number): DayDeltas {
  for (const field of dayFieldList) {
    const instant = action[field];
    if (instant === null) continue;
    const key = cell(dayOf(instant), field);
    deltas.set(key, (deltas.get(key) ?? 0) + delta);
  }
  if (action.dueAt !== null) {
    const key = cell(dayOf(action.dueAt), dueByStatus(action.status));
    deltas.set(key, (deltas.get(key) ?? 0) + delta);
    if (action.overdue)
      for (const late of [
        cell(dayOf(action.dueAt), overdueByStatus(action.status)),
        ...overdueDaysAt(action).map((days) =>
          cell(dayOf(action.dueAt as string), overdueByStatus(action.status), days),
        ),
      ])
        deltas.set(late, (deltas.get(late) ?? 0) + delta);
  }
  return deltas;
}

/**
 * What a write moves: `before` undefined for a create, `after` undefined for a delete. An edit
 * moves a field's count only when its day changed; moves that cancel out are left out. Pure.
 */
export function dayMoves(before: Action | undefined, after: Action | undefined): DayDeltas {
  const deltas: DayDeltas = new Map();
  if (before) addDays(deltas, before, -1);
  if (after) addDays(deltas, after, 1);
  for (const [key, delta] of deltas) if (delta === 0) deltas.delete(key);
  return deltas;
}

/** The moves of one day item: its partition (the service's days, or a site's overdue days), its day, and each count's change. */
export interface DayItemMoves {
  partition: string;
  day: string;
  changes: Partial<Record<DayCounted, number>>;
}

/** The moves grouped by day item: one Update an item, each field's change an attribute. Pure. */
export function byDay(deltas: DayDeltas): DayItemMoves[] {
  const items = new Map<string, DayItemMoves>();
  for (const [key, delta] of deltas) {
    if (delta === 0) continue;
    const [partition, day, field] = uncell(key);
    const at = `${partition}\u0000${day}`;
    const item = items.get(at) ?? { partition, day, changes: {} };
    item.changes[field] = delta;
    items.set(at, item);
  }
  return [...items.values()];
}

/** One ADD of a day item's attributes (an Update's own fields, for a transaction or alone). */
export function dayUpdate(
  day: string,
  shard: number,
  changes: Partial<Record<DayCounted, number>>,
  table = tableName(),
  partition = DAY_COUNTERS,
) {
  const fields = Object.keys(changes) as DayCounted[];
  return {
    TableName: table,
    Key: { [attr.id]: partition, [attr.sortKey]: daySortKey(day, shard) },
    ...addExpression(fields.map((f) => [dayAttribute(f), changes[f] as number])),
  };
}

/** The transaction items of a write of the action `id` (its shard): one a day whose counts move. */
export function dayCounterUpdates(id: string, before: Action | undefined, after: Action | undefined) {
  const shard = dayShardOf(id);
  return byDay(dayMoves(before, after)).map(({ partition, day, changes }) => ({
    Update: dayUpdate(day, shard, changes, tableName(), partition),
  }));
}

/** A day item's count of one field. */
export const dayCount = (item: Record<string, unknown>, field: DayField): number => Number(item[dayFields[field]] ?? 0);

/**
 * Every day item of the days from `first` to `last` (both included; open where absent), read
 * strongly consistent: of the service's day counters, or of one site's overdue due days
 * (`overdueDaysOf`).
 */
export const readDays = (
  first: string | undefined,
  last: string | undefined,
  stats?: CountStats,
  partition = DAY_COUNTERS,
) =>
  readPartition(tableName(), partition, stats, {
    ...(first === undefined ? {} : { from: first }),
    // `$` sorts just above the `#` that ends the day in every key of that day.
    ...(last === undefined ? {} : { to: `${last}$` }),
  });

/** Whether an item is one of the day counters (the service's, or a site's overdue days). */
export const isDayCounter = (item: Record<string, unknown>): boolean =>
  item[attr.id] === DAY_COUNTERS || String(item[attr.id]).startsWith(`${DAY_COUNTERS}&`);

/**
 * The day counters as the actions make them and as stored, for the recount: `stored` takes every
 * item of a scan (`true` for a day item), `count` every live action; then `drift` lists each day
 * field that differs, named `n#@days#<day>#<field>`.
 */
export function dayTally() {
  const actual: DayDeltas = new Map();
  const stored: DayDeltas = new Map();
  return {
    stored(item: Record<string, unknown>): boolean {
      if (!isDayCounter(item)) return false;
      const day = dayOfItem(item);
      const partition = String(item[attr.id]);
      for (const field of dayFieldList) {
        if (item[dayFields[field]] === undefined) continue;
        const key = cell(day, field, partition);
        stored.set(key, (stored.get(key) ?? 0) + dayCount(item, field));
      }
      // The due day's counts by status, of every action and of the overdue ones.
      for (const [byStatus, named] of [
        [dueByStatusOf(item), dueByStatus],
        [overdueByStatusOf(item), overdueByStatus],
      ] as const)
        for (const [status, n] of byStatus) {
          const key = cell(day, named(status), partition);
          stored.set(key, (stored.get(key) ?? 0) + n);
        }
      return true;
    },
    count(action: Action): void {
      addDays(actual, action, 1);
    },
    drift(): Array<{ counter: string; stored: number; actual: number }> {
      return [...new Set([...actual.keys(), ...stored.keys()])]
        .sort()
        .map((key) => ({ key, stored: stored.get(key) ?? 0, actual: actual.get(key) ?? 0 }))
        .filter((d) => d.stored !== d.actual)
        .map(({ key, stored, actual }) => ({ counter: dayDriftName(...uncell(key)), stored, actual }));
    },
  };
}

/** A day count's name in a drift: `n#@days#<day>#<field>`, `n#@days&2#<prefix>#<day>#<field>`. */
const dayDriftName = (partition: string, day: string, field: DayCounted) => `${partition}#${day}#${field}`;

/** The partition, day and field a drift names (`dayDriftName`). */
function driftCell(counter: string): [string, string, DayCounted] {
  const at = /#(\d{4,}-\d{2}-\d{2})#([^#]+)$/.exec(counter);
  if (!at) throw new Error(`not a day counter: ${counter}`);
  return [counter.slice(0, at.index), at[1] as string, at[2] as DayCounted];
}

/**
 * Adds counts summed in memory (a bulk load's) to the day counters: one ADD a day, on shard 0 (a
 * count is the sum of its shards, so where it goes does not change it).
 */
export async function addDayCounts(deltas: DayDeltas): Promise<number> {
  const days = byDay(deltas);
  const total = days.length;
  await inPool(
    8,
    () => days.pop(),
    ({ partition, day, changes }) => send(new UpdateCommand(dayUpdate(day, 0, changes, tableName(), partition))),
  );
  return total;
}

/** The day items that hold `deltas`, whole, on shard 0: what the store upgrade puts for a table made before them. */
export const dayItems = (deltas: DayDeltas): Array<Record<string, unknown>> =>
  byDay(deltas).map(({ partition, day, changes }) => ({
    [attr.id]: partition,
    [attr.sortKey]: daySortKey(day, 0),
    ...Object.fromEntries(Object.entries(changes).map(([f, n]) => [dayAttribute(f as DayCounted), n])),
  }));

/** Whether a drift `dayTally` found names a day counter. */
export const isDayDrift = (d: { counter: string }) =>
  d.counter.startsWith(`${DAY_COUNTERS}#`) || d.counter.startsWith(`${DAY_COUNTERS}&`);

/** Repairs the day counters' drift (the others' is left to the caller): the difference added to shard 0. */
export async function repairDays(drift: ReadonlyArray<{ counter: string; stored: number; actual: number }>) {
  for (const d of drift.filter(isDayDrift)) {
    const [partition, day, field] = driftCell(d.counter);
    await send(new UpdateCommand(dayUpdate(day, 0, { [field]: d.actual - d.stored }, tableName(), partition)));
  }
}
