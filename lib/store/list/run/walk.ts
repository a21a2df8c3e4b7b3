import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../../item';
import { isTombstone } from '../../item';
import type { ReadBudget } from '../../query/budget';
import { attr } from '../../table';
import { clauseHolds, Placeholders } from '../plan/expression';
import { createdOfTitleKey, titleKeyAt } from '../plan/key-ranges';
import { entryBytes, type Walk } from '../plan/plan';
import type { KeyRange } from '../plan/plan-types';
import type { ReadStats, Row, Rows } from '../plan/result';
import { keyOf, type MergeKey, mergeInOrder } from './merge';
import { fetchItems, keptShare, queryInput, walkPageSize } from './reads';

/** What one read unit reads: 4 KB (eventually consistent, half a unit; a query reads at least that). */
const READ_UNIT_BYTES = 4_096;

/**
 * What a fetching walk may be told besides its walk: `keep`, a test each fetched action must
 * also pass (a scoped list's scopes, `combined.ts`), and `share`, about the part of the walk's
 * entries that pass, so that a run of keys fetches about what the window needs, not 100 at least.
 */
export interface FetchingOptions {
  keep?: (item: Item) => boolean;
  share?: number;
}

/**
 * How many keys a fetching walk reads in its next run, for `rest` matches still missing from the
 * window with `available` entries left in the budget over `partitions` partitions: half the budget
 * left (the other half fetches the run's actions), less the merge's read-ahead of 2 entries a
 * partition, and at most 1,000. With the caller's `share`, the keys that hold the rest of the
 * window; with the counters' share `kept` among the walk's entries, a quarter more than that;
 * with neither, four times the rest and at least 100. Below 1, the walk stops cut. Pure.
 */
export function fetchRun(rest: number, available: number, partitions: number, share?: number, kept?: number): number {
  const wanted =
    share !== undefined
      ? Math.ceil(rest / Math.max(0.01, share)) + 1
      : kept !== undefined && kept > 0
        ? Math.ceil((rest * 1.25) / Math.min(1, kept)) + 1
        : Math.max(100, rest * 4);
  return Math.min(1000, wanted, Math.floor((available - 2 * partitions) / 2));
}

/**
 * The first `window` matches in the list's order, by walking `walk` (see `Walk` in `plan.ts`):
 * its partitions merged by their sort key with the filter applied as they are read, or, for a
 * fetching walk, a run of keys at a time whose actions are fetched (each charged to the budget
 * as an entry) and filtered in memory.
 */
export async function walkInOrder(
  walk: Walk,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
  after: string | undefined,
  matches?: number,
  fetching: FetchingOptions = {},
): Promise<Rows & { fetched?: Map<string, Item> }> {
  const { read } = walk;
  const sortKey = read.index.sortKey.name;
  const input = (from: string | undefined) => (partition: string | number) =>
    queryInput(read, partition, new Placeholders(), forward, from);
  const idOf = walk.idOf ?? ((entry: Item) => entry[attr.id] as string);
  if (!walk.fetch) {
    // Counted matches over the entries the walk covers: the share of them its filter keeps.
    const kept = keptShare(matches, walk.entries);
    const streams: Streams = read.ranges
      ? rangeStreams(walk, read.ranges, forward, window, after)
      : {
          streams: read.partitions,
          input: input(after),
          key: sortKey,
          pageSize: walkPageSize(read, window, read.partitions.length, kept),
        };
    const { items, ...merged } = await mergeInOrder(
      streams.streams,
      streams.input,
      streams.key,
      forward,
      window,
      budget,
      stats,
      streams.pageSize,
      after,
    );
    return { ...merged, rows: items.map((item) => ({ id: idOf(item), value: keyOf(streams.key, item) })) };
  }
  const rows: Row[] = [];
  const fetched = new Map<string, Item>();
  let from = after;
  // The share of entries the clauses keep, when the counters gave the matches among them (the
  // overdue actions with some status, of the overdue ones `reminders-by-due` holds).
  const kept = keptShare(matches, walk.entries);
  while (rows.length < window) {
    const run = fetchRun(window - rows.length, budget.available, read.partitions.length, fetching.share, kept);
    if (run < 1) return { rows, cut: true, ...(from === undefined ? {} : { reached: from }), fetched };
    const keys = await mergeInOrder(
      read.partitions,
      input(from),
      sortKey,
      forward,
      run,
      budget,
      stats,
      undefined,
      from,
    );
    // Each action fetched to filter is an entry read, so the budget bounds the fetches too.
    const granted = keys.items.length === 0 ? 0 : await budget.take(keys.items.length);
    budget.settle(granted, granted);
    const examined = keys.items.slice(0, granted);
    const items = await fetchItems(examined.map(idOf), stats);
    for (const entry of examined) {
      const id = idOf(entry);
      const item = items.get(id);
      if (item === undefined || isTombstone(item) || !walk.clauses.every((c) => clauseHolds(c, item))) continue;
      if (fetching.keep && !fetching.keep(item)) continue;
      rows.push({ id, value: entry[sortKey] });
      fetched.set(id, item);
      if (rows.length === window) return { rows, cut: false, fetched };
    }
    const last = examined[examined.length - 1]?.[sortKey] as string | undefined;
    if (granted < keys.items.length) return { rows, cut: true, reached: last ?? from, fetched };
    if (keys.cut) return { rows, cut: true, reached: keys.reached ?? last ?? from, fetched };
    if (keys.items.length < run) return { rows, cut: false, fetched };
    from = last;
  }
  return { rows, cut: false, fetched };
}

/** What a walk merges: its streams (partitions), each one's query, the merge's order and its page. */
interface Streams {
  streams: ReadonlyArray<string | number>;
  input: (stream: string | number) => QueryCommandInput;
  key: MergeKey;
  pageSize: number | undefined;
}

/**
 * The streams of a walk of several key ranges (`title=~a,b` in created order): every (range,
 * partition) pair is one, merged by the created key each title key holds (a page's
 * `LastEvaluatedKey` holds only keys), and a cursor continues each range at the key its created
 * key has there (`titleKeyAt`). Each stream's first page is its share of the entries the counters
 * gave, up to what one read unit holds, so a stream of few entries is read once. Pure.
 */
export function rangeStreams(
  walk: Walk,
  ranges: readonly KeyRange[],
  forward: boolean,
  window: number,
  after: string | undefined,
): Streams {
  const { read } = walk;
  const count = read.partitions.length;
  const streams = Array.from({ length: ranges.length * count }, (_, i) => i);
  const input = (stream: string | number) => {
    const range = ranges[Math.floor(Number(stream) / count)] as KeyRange;
    const partition = read.partitions[Number(stream) % count] as string | number;
    const from = after === undefined ? undefined : titleKeyAt(range, after);
    return queryInput({ ...read, ranges: undefined, range }, partition, new Placeholders(), forward, from);
  };
  const perUnit = Math.floor(READ_UNIT_BYTES / entryBytes(read.index));
  const pageSize = Math.max(
    Math.ceil(window / streams.length) + 1,
    Math.min(perUnit, Math.ceil(walk.entries / streams.length) + 1),
  );
  return { streams, input, key: (item) => createdOfTitleKey(String(item[read.index.sortKey.name])), pageSize };
}
