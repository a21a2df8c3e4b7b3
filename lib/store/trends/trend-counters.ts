import { createHash } from 'node:crypto';
import { inPool } from '../../flow/fan-out';
import { AGAIN, retry } from '../../flow/retry';
import type { Location } from '../../model/action';
import { locationFields } from '../../model/action';
import type { RecordedEntry } from '../../model/history';
import { type TrendCounts, type TrendMove, trendMoveOf } from '../../model/trends';
import { TransactionCancelled, tableName, transact } from '../client';
import { type CountStats, readPartition } from '../counters/counters';
import { attr } from '../table';

/**
 * The trend counters of contract section 17: per UTC day, per slice (a location prefix, alone or
 * with one of producer, priority, assignee or owner), how many actions were created, closed,
 * reopened and closed on time, and the seconds from creation to close summed over the closes.
 * The table's stream keeps them (`functions/publishEvents.ts`), from each new history entry.
 *
 * Layout: one partition a slice, `t#<digest of the slice>`, its days sorted by `d#<YYYY-MM-DD>`
 * (the counts) and `e#<YYYY-MM-DD>` (the open and overdue snapshot the sweep records at each
 * day's end, `day-ends.ts`). So any range of days of one slice is one Query: 400 days of items
 * of about 60 bytes are 24 KB, 6 read units strongly consistent, at any table size.
 *
 * Exact under retries: the stream may hand a record over more than once (a batch sent back, a
 * function retried, the local reader resuming after a crash). Each entry's increments are one
 * transaction with a marker item keyed by the entry (action id and version) under the condition
 * that the marker does not exist yet: a second delivery finds the marker, its transaction is
 * cancelled whole, and nothing is counted twice. A transaction that loses to another on a day
 * item (two stream shards counting at once) is tried again: nothing of it was written.
 */

/** The fields a trend filters on besides the location, as the list names them. */
export const trendFields = ['actionProducer.name', 'priority', 'assignee', 'owner'] as const;
export type TrendField = (typeof trendFields)[number];

/**
 * How deep a location prefix is kept together with one of `trendFields`: the whole service,
 * business unit, site, department. Every prefix alone is kept, to the crew; a slice of a deeper
 * prefix with another field is not (each slice is a write of every counted change).
 */
export const PAIRED_DEPTH = 3;

/** What one partition of counters counts: the actions under `prefix` (location values in field order), and with `field` = `value`. */
export interface TrendSlice {
  prefix: readonly string[];
  field?: TrendField;
  value?: string;
}

/** A slice's partition: a digest, so values of any length make a key and no two slices share one. */
export const slicePartition = (slice: TrendSlice): string =>
  `t#${createHash('sha256')
    .update(JSON.stringify([slice.prefix, slice.field ?? null, slice.value ?? null]))
    .digest('base64url')
    .slice(0, 24)}`;

export const countsSortKey = (day: string) => `d#${day}`;
export const dayEndSortKey = (day: string) => `e#${day}`;

/** The attribute of a day item that holds each count. */
const countAttributes: Record<keyof TrendCounts, string> = {
  created: 'c',
  closed: 'x',
  reopened: 'r',
  closedOnTime: 'o',
  secondsToClose: 's',
};

/** The prefix of `location` `depth` fields deep. */
export const prefixOf = (location: Location, depth: number): string[] =>
  locationFields.slice(0, depth).map((f) => location[f]);

/** Every slice an entry about an action at `subject` counts in: each prefix alone, and the shallow ones with each field. */
export function slicesOf(subject: TrendMove['subject']): TrendSlice[] {
  const values: Record<TrendField, string> = {
    'actionProducer.name': subject.producer,
    priority: subject.priority,
    assignee: subject.assigneeId,
    owner: subject.ownerId,
  };
  const slices: TrendSlice[] = [];
  for (let depth = 0; depth <= locationFields.length; depth++) {
    const prefix = prefixOf(subject.location, depth);
    slices.push({ prefix });
    if (depth <= PAIRED_DEPTH) for (const field of trendFields) slices.push({ prefix, field, value: values[field] });
  }
  return slices;
}

/** How long an entry's marker is kept: well past the stream's 24 hours, after which no record comes again. */
const MARKER_DAYS = 7;

const markerKey = (entry: Pick<RecordedEntry, 'actionId' | 'version'>) => ({
  [attr.id]: `t#seen#${entry.actionId}`,
  [attr.sortKey]: String(entry.version),
});

/** The item that says `entry` was counted, kept `MARKER_DAYS` against a repeated delivery. */
export const trendMarker = (entry: Pick<RecordedEntry, 'actionId' | 'version'>) => ({
  ...markerKey(entry),
  [attr.expiresAt]: Math.floor(Date.now() / 1000) + MARKER_DAYS * 86_400,
});

/** What counting `move` adds: each slice's day item, with each stored attribute and its increment (none when nothing moves). */
export function trendIncrements(
  move: TrendMove,
): Array<{ key: Record<string, string>; added: Record<string, number> }> {
  const moved = (Object.keys(countAttributes) as Array<keyof TrendCounts>).filter((k) => move.counts[k] !== 0);
  if (moved.length === 0) return [];
  const added = Object.fromEntries(moved.map((k) => [countAttributes[k], move.counts[k]]));
  return slicesOf(move.subject).map((slice) => ({
    key: { [attr.id]: slicePartition(slice), [attr.sortKey]: countsSortKey(move.day) },
    added,
  }));
}

/** The transaction that counts `move` for `entry` once: the marker first, then one ADD a slice. */
export function trendWrites(entry: Pick<RecordedEntry, 'actionId' | 'version'>, move: TrendMove, table = tableName()) {
  const increments = trendIncrements(move);
  if (increments.length === 0) return [];
  const marker = {
    Put: {
      TableName: table,
      Item: trendMarker(entry),
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeNames: { '#id': attr.id },
    },
  };
  const updates = increments.map(({ key, added }) => {
    const names = Object.keys(added);
    return {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `ADD ${names.map((name) => `#${name} :${name}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, added[name]])),
      },
    };
  });
  return [marker, ...updates];
}

/** What counting a batch did: entries counted now, and those a marker showed were counted before. */
export interface TrendReport {
  counted: number;
  repeated: number;
  writeUnits: number;
}

/** How long one entry's transaction keeps trying when others hold its day items. */
const CONFLICT_BUDGET_MS = 20_000;

/** Counts one entry, once; `false` when its marker says it was counted before. */
async function countOnce(entry: RecordedEntry, move: TrendMove, report: TrendReport): Promise<void> {
  const items = trendWrites(entry, move);
  if (items.length === 0) return;
  await retry(
    async () => {
      try {
        report.writeUnits += await transact(items);
        report.counted++;
        return true;
      } catch (error) {
        if (!(error instanceof TransactionCancelled)) throw error;
        if (error.conditionFailed(0)) {
          report.repeated++;
          return false;
        }
        if (error.conflict) return AGAIN;
        throw error;
      }
    },
    { budgetMs: CONFLICT_BUDGET_MS },
  );
}

/**
 * Counts the trend moves of a batch of new history entries, each exactly once however often the
 * stream delivers it. Throws when any could not be counted (the stream then delivers the batch
 * again; what was counted stays counted once).
 */
export async function countTrends(entries: readonly RecordedEntry[], closedStatuses: readonly number[]) {
  const report: TrendReport = { counted: 0, repeated: 0, writeUnits: 0 };
  const moves = entries.flatMap((entry) => {
    const move = trendMoveOf(entry, closedStatuses);
    return move ? [{ entry, move }] : [];
  });
  await inPool(
    8,
    () => moves.shift(),
    ({ entry, move }) => countOnce(entry, move, report),
  );
  return report;
}

/** One day's counts of one slice, as read. */
export type DayCounts = TrendCounts;

/** The counts of `slice` from `first` to `last` (both included), by day; days with nothing are absent. */
export async function readTrendDays(
  slice: TrendSlice,
  first: string,
  last: string,
  stats: CountStats,
): Promise<Map<string, DayCounts>> {
  const items = await readPartition(tableName(), slicePartition(slice), stats, {
    from: countsSortKey(first),
    to: countsSortKey(last),
  });
  const days = new Map<string, DayCounts>();
  for (const item of items) {
    const counts = Object.fromEntries(
      Object.entries(countAttributes).map(([k, a]) => [k, Number(item[a] ?? 0)]),
    ) as unknown as DayCounts;
    days.set(String(item[attr.sortKey]).slice(2), counts);
  }
  return days;
}
