import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { settleAll as all } from '../../../flow/fan-out';
import { canBeKey } from '../../client';
import type { Item } from '../../item';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import { type QueryPage, queryPage } from '../../query/pager';
import { compareValues } from '../plan/positions';
import type { ReadStats } from '../plan/result';

/**
 * The budgeted page read (`readPage`) and the streaming merge of an index's partitions in its
 * order, which counted lists, walks and the change feed (`lib/store/sync/feed.ts`) share.
 */

/**
 * One page of an index, of at most `want` entries and never past the budget: `BudgetSpent` when
 * the budget is gone.
 */
export const readPage = (
  input: QueryCommandInput,
  want: number,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<QueryPage> => queryPage(input, { budget, stats }, want);

/**
 * What a merge orders by: an attribute of the entries, or a function of an entry, for an order
 * that a page's `LastEvaluatedKey` (which holds only the keys) must also tell: the created key
 * of a title key (`walk.ts`, a walk of title ranges).
 */
export type MergeKey = string | ((item: Item) => unknown);

/** The value an entry (or a page's LastEvaluatedKey) has in the merge's order. */
export const keyOf = (key: MergeKey, item: Item): unknown => (typeof key === 'string' ? item[key] : key(item));

/** One partition of an index, read page by page as the merge consumes it. */
interface Cursor {
  partition: string | number;
  buffer: Item[];
  startKey?: Item;
  done: boolean;
  /** Some page of it was read. */
  read?: boolean;
}

/** What a merge read: the first items in order, and, when the budget ran out first, how far it got. */
export interface Merged {
  items: Item[];
  /** The budget ran out before the window was read. */
  cut: boolean;
  /**
   * When cut: a sort key every partition was read past (or to its end), so every match up to it
   * is in `items` and a later read may continue after it; absent when some partition was not
   * read at all.
   */
  reached?: string;
}

/**
 * The first `window` items of several partitions in the order of `sortKey`, merged: each
 * partition is read a page at a time (a page sized so the partitions together cover the
 * window, or `pageSize`), and a partition is read further only when the merge has used up what
 * it gave. `input` is the query of one partition; it must read in the merge's direction (and
 * never reads the key `past`, where a cursor continues, twice: it is dropped). When
 * the budget runs out, the items merged so far are still the first ones in order: the merge
 * answers them (`cut`) with the key it is sure of.
 */
export async function mergeInOrder(
  partitions: ReadonlyArray<string | number>,
  input: (partition: string | number) => QueryCommandInput,
  sortKey: MergeKey,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
  pageSize?: number,
  past?: string,
): Promise<Merged> {
  const merged: Item[] = [];
  const live = partitions.filter(canBeKey);
  if (window === 0 || live.length === 0) return { items: merged, cut: false };
  // Pages small enough that one round of every partition fits what is left of the budget, so a
  // merge the budget stops has still read each partition once (and so got somewhere).
  const fair = Math.max(1, Math.floor(budget.available / live.length));
  const size = Math.min(1000, fair, pageSize ?? Math.ceil(window / live.length) + 1);
  const cursors: Cursor[] = live.map((partition) => ({ partition, buffer: [], done: false }));
  const fill = async (cursor: Cursor) => {
    const page = await readPage(
      {
        ...input(cursor.partition),
        ScanIndexForward: forward,
        ...(cursor.startKey ? { ExclusiveStartKey: cursor.startKey } : {}),
      },
      size,
      budget,
      stats,
    );
    // A read continuing past a cursor may include the cursor's own key (a `BETWEEN`); it was shown.
    cursor.buffer.push(...(page.Items ?? []).filter((item) => past === undefined || keyOf(sortKey, item) !== past));
    cursor.startKey = page.LastEvaluatedKey;
    cursor.done = page.LastEvaluatedKey === undefined;
    cursor.read = true;
  };
  const direction = forward ? 1 : -1;
  while (merged.length < window) {
    try {
      // Every partition still open must offer a head before the merge picks, or have been read
      // past the head it would pick (`behind`).
      for (
        let unsure = behind(cursors, sortKey, direction);
        unsure.length > 0;
        unsure = behind(cursors, sortKey, direction)
      )
        await all(unsure.map(fill));
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      return cutShort(merged, cursors, sortKey, direction, window);
    }
    const next = firstHead(cursors, sortKey, direction);
    if (!next) break;
    merged.push(next.buffer.shift() as Item);
  }
  return { items: merged, cut: false };
}

/**
 * The open partitions with nothing buffered that the merge must read on before it picks: those
 * not read past the head it would pick next (every one of them when there is no head). A page its
 * filter emptied still says that no match lies up to where it stopped (its `LastEvaluatedKey`),
 * so a partition read past that head waits: 20 scopes' open actions by due date, one walk of 16
 * partitions with few matches in each, read each about once instead of three times. Pure.
 */
export function behind(cursors: readonly Cursor[], sortKey: MergeKey, direction: number): Cursor[] {
  const head = firstHead(cursors, sortKey, direction)?.buffer[0];
  return cursors.filter(
    (c) =>
      c.buffer.length === 0 &&
      !c.done &&
      (head === undefined ||
        c.startKey === undefined ||
        direction * compareValues(keyOf(sortKey, c.startKey), keyOf(sortKey, head)) <= 0),
  );
}

/**
 * The partition whose buffered head comes first in the merge's direction (1 ascending, -1
 * descending), the earliest listed on a tie; undefined when none has a head. Pure.
 */
export function firstHead(cursors: readonly Cursor[], sortKey: MergeKey, direction: number): Cursor | undefined {
  let next: Cursor | undefined;
  for (const cursor of cursors) {
    const head = cursor.buffer[0];
    if (head === undefined) continue;
    if (!next || direction * compareValues(keyOf(sortKey, head), keyOf(sortKey, next.buffer[0] as Item)) < 0)
      next = cursor;
  }
  return next;
}

/**
 * A merge the budget stopped: every partition still open was read up to its last key, so the
 * nearest of those keys is where the merge is sure of every match; the buffered items up to it
 * follow what was merged, in order. Pure.
 */
export function cutShort(
  merged: Item[],
  cursors: readonly Cursor[],
  sortKey: MergeKey,
  direction: number,
  window: number,
): Merged {
  const open = cursors.filter((c) => !c.done);
  if (open.some((c) => !c.read || c.startKey === undefined)) return { items: merged, cut: true };
  const ends = open.map((c) => keyOf(sortKey, c.startKey as Item));
  const reached = ends.reduce((a, b) => (direction * compareValues(b, a) < 0 ? b : a)) as string;
  const rest = cursors
    .flatMap((c) => c.buffer)
    .filter((item) => direction * compareValues(keyOf(sortKey, item), reached) <= 0)
    .sort((a, b) => direction * compareValues(keyOf(sortKey, a), keyOf(sortKey, b)));
  const items = [...merged, ...rest];
  // A full window is a page like any other: it ends at its own last item.
  if (items.length >= window) return { items: items.slice(0, window), cut: false };
  return { items, cut: true, reached };
}
