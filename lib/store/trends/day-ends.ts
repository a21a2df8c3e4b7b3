import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseListTerms } from '../../filter/query';
import { inPool } from '../../flow/fan-out';
import type { Scope } from '../../model/access';
import { locationFields } from '../../model/action';
import { send, tableName } from '../client';
import { readCount, readCounts, readPartition } from '../counters/counters';
import { countedLocations } from '../list/count/location-counts';
import { scopeCount } from '../list/count/scope-count';
import { newStats, type ReadStats } from '../list/plan/result';
import { attr } from '../table';
import { dayEndSortKey, PAIRED_DEPTH, prefixOf, slicePartition, type TrendSlice } from './trend-counters';

/**
 * Open and overdue actions at the end of each UTC day, per location prefix (contract section
 * 17's `openAtEnd` and `overdueAtEnd`): recorded once a day by the due-date sweep, from the
 * counters the writes keep (`../counters/`), never by reading actions. The first sweep of a day
 * records the day before: the numbers then are the day's end, give or take the sweep's interval.
 * Prefixes to the department (the depths the counters keep by status and overdue), for every
 * prefix some action has; a marker item per day (`t#ends`, `<day>`) says the day is recorded.
 */

const ENDS = 't#ends';

export interface DayEnd {
  open: number;
  overdue: number;
}

const openList = (closed: readonly number[]) => parseListTerms([['status', `~${closed.join(',')}`]]);
const overdueList = () => parseListTerms([['overdue', 'true']]);
const everyList = () => parseListTerms([]);

/** Open and overdue now under one prefix, from its counters. */
async function countNow(prefix: readonly string[], closed: readonly number[], stats: ReadStats): Promise<DayEnd> {
  if (prefix.length === 0) {
    const [all, closedNow, overdue] = await Promise.all([
      readCount('all', '', stats),
      readCounts('status', closed, stats),
      readCount('overdue', 'true', stats),
    ]);
    return { open: all - closedNow, overdue };
  }
  const scope: Scope = Object.fromEntries(prefix.map((value, i) => [locationFields[i], value]));
  const [all, closedNow, overdue] = await Promise.all([
    scopeCount(everyList(), scope, stats),
    scopeCount(openList(closed), scope, stats),
    scopeCount(overdueList(), scope, stats),
  ]);
  return { open: (all ?? 0) - (closedNow ?? 0), overdue: overdue ?? 0 };
}

/**
 * Every prefix to `PAIRED_DEPTH` some action has (the whole service first), and whether that is
 * all of them: past `maxProvenLocations()` whole locations only the whole service is recorded.
 */
async function prefixesNow(stats: ReadStats): Promise<{ prefixes: string[][]; complete: boolean }> {
  const locations = await countedLocations(stats);
  const seen = new Map<string, string[]>([['[]', []]]);
  for (const { location } of locations ?? [])
    for (let depth = 1; depth <= PAIRED_DEPTH; depth++) {
      const prefix = prefixOf(location, depth);
      seen.set(JSON.stringify(prefix), prefix);
    }
  return { prefixes: [...seen.values()], complete: locations !== undefined };
}

export interface DayEndReport {
  day: string;
  /** `false` when the day was recorded before. */
  recorded: boolean;
  prefixes: number;
  readUnits: number;
}

/** Stores one prefix's end of `day`. */
export const putDayEnd = (prefix: readonly string[], day: string, end: DayEnd) =>
  send(
    new PutCommand({
      TableName: tableName(),
      Item: { [attr.id]: slicePartition({ prefix }), [attr.sortKey]: dayEndSortKey(day), ...end },
    }),
  );

/** Marks `day` recorded, after every prefix's end is stored (`complete`: every prefix some action has). */
export const markDayRecorded = (day: string, prefixes: number, complete: boolean) =>
  send(new PutCommand({ TableName: tableName(), Item: { [attr.id]: ENDS, [attr.sortKey]: day, prefixes, complete } }));

/** Records the end of `day` for every prefix, unless it is recorded already. */
export async function recordDayEnds(day: string, closed: readonly number[]): Promise<DayEndReport> {
  const stats = newStats();
  const marker = { [attr.id]: ENDS, [attr.sortKey]: day };
  const done = await send<{ Item?: unknown }>(
    new GetCommand({ TableName: tableName(), Key: marker, ConsistentRead: true }),
  );
  if (done.Item) return { day, recorded: false, prefixes: 0, readUnits: 0 };
  const { prefixes, complete } = await prefixesNow(stats);
  const pending = [...prefixes];
  await inPool(
    8,
    () => pending.pop(),
    async (prefix) => putDayEnd(prefix, day, await countNow(prefix, closed, stats)),
  );
  await markDayRecorded(day, prefixes.length, complete);
  return { day, recorded: true, prefixes: prefixes.length, readUnits: stats.readUnits };
}

/** The recorded day ends of `slice` from `first` to `last`, by day (days not recorded are absent). */
export async function readDayEnds(
  slice: TrendSlice,
  first: string,
  last: string,
  stats: ReadStats,
): Promise<Map<string, DayEnd>> {
  const items = await readPartition(tableName(), slicePartition(slice), stats, {
    from: dayEndSortKey(first),
    to: dayEndSortKey(last),
  });
  return new Map(
    items.map((item) => [
      String(item[attr.sortKey]).slice(2),
      { open: Number(item.open), overdue: Number(item.overdue) },
    ]),
  );
}

/**
 * The days from `first` to `last` whose ends are recorded, each with whether every prefix was
 * (`false`: only the whole service's).
 */
export async function readRecordedDays(first: string, last: string, stats: ReadStats): Promise<Map<string, boolean>> {
  const items = await readPartition(tableName(), ENDS, stats, { from: first, to: last });
  return new Map(items.map((item) => [String(item[attr.sortKey]), item.complete === true]));
}
