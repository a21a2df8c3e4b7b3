import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { inPool } from '../../../flow/fan-out';
import type { Action } from '../../../model/action';
import { cutToBytes } from '../../../text';
import { batchGet } from '../../batch';
import { canBeKey, MAX_SORT_KEY_BYTES } from '../../client';
import { fromItem, type Item, isTombstone, valueAt } from '../../item';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import { queryInput as keyQueryInput, type SortCondition } from '../../query/key-query';
import { attr, itemKind } from '../../table';
import { filterExpression, Placeholders } from '../plan/expression';
import { createdIn } from '../plan/index-holds';
import type { IndexRead } from '../plan/plan';
import type { ReadStats, Row } from '../plan/result';
import { readPage } from './merge';

/** Key conditions of an index read, every match of a read, and the fetch of the actions themselves. */

/**
 * One partition's query of a read. `forward` and `after` are for a walk that continues past a
 * cursor: the bound on the side it reads toward stays, and the cursor's key takes the other.
 */
export function queryInput(
  read: IndexRead,
  partition: string | number,
  p = new Placeholders(),
  forward = true,
  after?: string,
): QueryCommandInput {
  let lower = read.range?.lower === undefined ? undefined : clampSortKey(read.range.lower);
  let upper = read.range?.upper === undefined ? undefined : clampSortKey(read.range.upper);
  // A cursor's key replaces the bound behind it: every key after it is inside the range too.
  let past: '>' | '<' | undefined;
  // Forward within an upper bound, the lower bound is the first key after the cursor's (the key
  // and a U+0000, the least string greater than it): a BETWEEN from the cursor's key read it
  // again, which, at a page of one entry a partition, used the read of the partition that holds
  // it, so a walk the budget cut there could never get past it (issue 53).
  if (after !== undefined && forward && (lower === undefined || after >= lower))
    [lower, past] = [upper === undefined ? after : `${after}\u0000`, '>'];
  if (after !== undefined && !forward && (upper === undefined || after <= upper)) [upper, past] = [after, '<'];
  // BETWEEN includes its upper bound where the plan's range excludes it; no key can equal a bound
  // (every sort key ends in an id, every bound in a separator), so the two agree. A cursor's own
  // key is a key: a BETWEEN that includes it leaves it to the merge to drop (`mergeInOrder`'s `past`).
  const sort: SortCondition | undefined =
    lower !== undefined && upper !== undefined
      ? { op: 'between', from: lower, to: upper }
      : lower !== undefined
        ? { op: past ?? '>=', value: lower }
        : upper !== undefined
          ? { op: '<', value: upper }
          : undefined;
  // An index without a name is the table itself (the reference order, `reference-walk.ts`).
  return keyQueryInput(
    {
      index: read.index,
      partition,
      ...(sort ? { sort } : {}),
      filter: (q) => filterExpression(read.filter, q as Placeholders),
    },
    p,
  );
}

/**
 * A key bound DynamoDB accepts. Every stored sort key is well under 1,024 bytes (a date or a title
 * of at most 200 characters, plus an id), so cutting a longer bound to its first 1,024 bytes
 * selects exactly the same stored keys: any key that passes the cut bound differs from it
 * within those bytes, and compares with the full bound the same way.
 */
function clampSortKey(bound: string): string {
  return cutToBytes(bound, MAX_SORT_KEY_BYTES);
}

/** The fewest entries a filtered walk asks of a partition in one query (issue 42: `limit=1` read ~3 a query). */
const WALK_PAGE_FLOOR = 25;

/**
 * The fewest entries a walk whose filter keeps a known share asks of a partition: as many entries
 * holding the `f` map (about 520 bytes each) as one 4 KB read unit holds. At 8, each page was
 * billed two (20 scopes' open actions by due date, one page of each of 16 partitions: 50 read
 * units at 3,000 actions, 39 at 7).
 */
const KNOWN_SHARE_FLOOR = 7;

/** The share of a walk's `entries` its filter keeps, from `matches` counted over them; unknown without both. Pure. */
export const keptShare = (matches: number | undefined, entries: number): number | undefined =>
  matches === undefined || entries <= 0 ? undefined : matches / entries;

/**
 * The page a walk asks of each of `partitions` partitions for a window of `window` matches: the
 * store's own without a filter; with one, which keeps an unknown share of what is read, ten times
 * the window's share, and at least a floor (a small window's pages would be a few entries, one
 * query each). When the counters show the share `kept` of entries the filter keeps (matches
 * counted over the entries the walk covers), a quarter more than the entries that hold the
 * window's share, never more than without it. Pure.
 */
export function walkPageSize(read: IndexRead, window: number, partitions: number, kept?: number): number | undefined {
  if (read.filter.length === 0) return undefined;
  const blind = Math.max(WALK_PAGE_FLOOR, Math.ceil((window * 10) / partitions) + 1);
  if (kept === undefined || !(kept > 0)) return blind;
  return Math.min(blind, Math.max(KNOWN_SHARE_FLOOR, Math.ceil((window * 1.25) / (kept * partitions)) + 1));
}

/** Runs one query per partition, a few at a time. */
export async function eachPartition<T>(read: IndexRead, run: (partition: string | number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  // A partition no key can hold (`owner=`, or a value past the key size limit) holds nothing.
  const queue = read.partitions.filter(canBeKey);
  await inPool(
    Math.min(8, queue.length),
    () => queue.shift(),
    async (partition) => {
      results.push(await run(partition));
    },
  );
  return results;
}

/** Every match's id and sort value; `cut` when the budget ran out first (then the rows are some of them). */
export async function readMatches(
  read: IndexRead,
  sortAttribute: string,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<{ rows: Row[]; cut: boolean }> {
  // Several key ranges (`title=~a,b`): each read in turn, within the one budget.
  if (read.ranges) {
    const rows: Row[] = [];
    for (const range of read.ranges) {
      const part = await readMatches({ ...read, ranges: undefined, range }, sortAttribute, budget, stats);
      rows.push(...part.rows);
      if (part.cut) return { rows, cut: true };
    }
    return { rows, cut: false };
  }
  let unread = read.partitions.filter(canBeKey).length;
  let cut = false;
  const lists = await eachPartition(read, async (partition) => {
    const p = new Placeholders();
    const input = queryInput(read, partition, p);
    // The created key (or the creation time) too, for the tie rule of a sort made in memory.
    const created = createdIn(read.index);
    // DynamoDB refuses a path named twice (sorting by createdAt on an index keyed by it).
    input.ProjectionExpression = [...new Set([attr.id, sortAttribute, ...(created ? [created] : [])])]
      .map((path) => p.name(path))
      .join(', ');
    const rows: Row[] = [];
    let startKey: Item | undefined;
    try {
      do {
        // A fair share of what is left for each partition still reading; DynamoDB's 1 MB page
        // limit is the usual bound, as before the budget.
        const want = Math.ceil(budget.available / Math.max(1, unread));
        const page = await readPage({ ...input, ExclusiveStartKey: startKey }, want, budget, stats);
        for (const item of page.Items ?? []) {
          const id = item[attr.id] as string;
          const at = created === undefined ? undefined : valueAt(item, created);
          const key = created === attr.createdKey ? (at as string) : at === undefined ? undefined : `${at}#${id}`;
          rows.push({ id, value: valueAt(item, sortAttribute), ...(key === undefined ? {} : { created: key }) });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      cut = true;
    }
    unread--;
    return rows;
  });
  return { rows: lists.flat(), cut };
}

/** The stored items with these ids (tombstones included), by id. */
export async function fetchItems(ids: string[], stats: ReadStats): Promise<Map<string, Item>> {
  const read = await batchGet(ids.map((id) => ({ [attr.id]: id, [attr.sortKey]: itemKind.action })));
  stats.requests += read.requests;
  stats.itemsRead += read.items.length;
  stats.readUnits += read.readUnits;
  return new Map(read.items.map((item) => [item[attr.id] as string, item]));
}

/** The actions with these ids, in this order (fetching those not `known` yet); one deleted since the index was read is left out. */
export async function fetchActions(
  ids: string[],
  stats: ReadStats,
  known?: ReadonlyMap<string, Item>,
): Promise<Action[]> {
  const found = await fetchItems(
    ids.filter((id) => !known?.has(id)),
    stats,
  );
  return ids.flatMap((id) => {
    const item = known?.get(id) ?? found.get(id);
    return item && !isTombstone(item) ? [fromItem(item)] : [];
  });
}
