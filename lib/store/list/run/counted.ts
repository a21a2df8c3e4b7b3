import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Clause, ListQuery } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { type CountedField, isCounted, readCount, readCounts } from '../../counters/counters';
import { type IndexDefinition, indexes } from '../../indexes';
import type { ReadBudget } from '../../query/budget';
import { queryInput } from '../../query/key-query';
import { attr, everythingPartitions } from '../../table';
import { orderedIndexes } from '../plan/index-holds';
import { DEFAULT_SORT, equalityIndexes, MAX_MERGED_VALUES, overdueByDuePartitions } from '../plan/plan';
import { keyAfter } from '../plan/positions';
import type { ListContext, ListResult, Position, ReadStats, Rows } from '../plan/result';
import { mergeInOrder } from './merge';
import { page, skipTooDeep } from './page';

/**
 * The common shapes (no filter in an order an all-actions index keeps; one value, or a `~` of a
 * few, of one counted field, by creation time; `overdue=true`): `totalCount` from the counters,
 * the page from an ordered merge that reads about `skip + limit` entries plus a page a partition.
 */

/** The first `window` entries of an index's partitions in its order, after the key `after` if given. */
async function readMerged(
  index: IndexDefinition,
  partitions: ReadonlyArray<string | number>,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
  after?: string,
): Promise<Rows> {
  const sortKey = index.sortKey.name;
  // Past a cursor, each partition continues after the key the last page ended on.
  const input = (partition: string | number): QueryCommandInput =>
    queryInput({
      index,
      partition,
      ...(after === undefined ? {} : { sort: { op: forward ? '>' : '<', value: after } as const }),
    });
  const merged = await mergeInOrder(partitions, input, sortKey, forward, window, budget, stats);
  return { ...merged, rows: merged.items.map((item) => ({ id: item[attr.id] as string, value: item[sortKey] })) };
}

/**
 * `overdue=true` alone is a common shape in the orders an index of overdue actions keeps: newest
 * (or oldest) first from `overdue-by-created`, by due time from the overdue levels of
 * `reminders-by-due` (see `lib/store/table.ts`).
 */
const overdueReads: Record<string, { index: IndexDefinition; partitions: readonly string[] }> = {
  createdAt: { index: indexes.overdueByCreated, partitions: everythingPartitions },
  dueAt: { index: indexes.remindersByDue, partitions: overdueByDuePartitions },
};

/** The one equality clause a counted list serves, if the query is of that shape. */
function countedClause(query: ListQuery): (Clause & { field: { name: CountedField } }) | undefined {
  if (query.filters.length !== 1) return undefined;
  const clause = query.filters[0] as Clause;
  if (!isCounted(clause.field.name) || (clause.op !== '=' && clause.op !== '~')) return undefined;
  // The merge reads the field's equality index; a title has none (the planner reads its `=` as a
  // key range of the title index, and takes the count from its counter).
  if (clause.type !== 'boolean' && !equalityIndexes[clause.field.name]) return undefined;
  // Only overdue actions are counted and indexed; `overdue=false` goes to the planner.
  if (clause.type === 'boolean' && clause.values[0] !== true) return undefined;
  const values = clause.values as Array<string | number>;
  // The location indexes leave out actions whose value is empty, so '' cannot be read from them.
  if (values.some((v) => v === '')) return undefined;
  return clause as Clause & { field: { name: CountedField } };
}

/**
 * A page that starts past more entries than the budget allows is refused before anything is
 * read, when the count shows that many exist: the merge must read every skipped entry.
 */
async function countThenMerge(
  skip: number,
  window: number,
  budget: ReadBudget,
  count: () => Promise<number>,
  merge: () => Promise<Rows>,
): Promise<[number, Rows]> {
  // Within the budget, count and read at once, as ever; the budget still bounds the read-ahead.
  if (window <= budget.limit) return all<[number, Rows]>([count(), merge()]);
  const totalCount = await count();
  // Only a skip the budget cannot get past is refused; a page it cannot fill is answered short.
  if (skip > 0 && Math.min(skip, totalCount) >= budget.limit) throw skipTooDeep(budget);
  return [totalCount, await merge()];
}

/** Serves the common shapes from counters and an ordered merge; `undefined` for any other shape. */
export async function listCounted(
  query: ListQuery,
  context: ListContext,
  after?: Position,
  known?: number,
): Promise<ListResult | undefined> {
  const { budget, stats } = context;
  const sort = query.sort ?? DEFAULT_SORT;
  // A count-only call (`limit=0`) reads no entries, whatever its `skip`: the counters answer it.
  // Otherwise one entry past the page says whether more follow.
  const window = query.limit === 0 ? 0 : query.skip + query.limit + 1;
  if (query.filters.length === 0) {
    const ordered = query.limit === 0 ? indexes.allByCreated : orderedIndexes[sort.field.name];
    if (!ordered) return undefined;
    const from = keyAfter(after);
    const [totalCount, rows] = await countThenMerge(
      query.skip,
      window,
      budget,
      () => readCount('all', '', stats),
      () => readMerged(ordered, everythingPartitions, !sort.descending, window, budget, stats, from),
    );
    return page(rows, query, totalCount, 'eq', ordered, everythingPartitions.length, context, from);
  }
  const clause = countedClause(query);
  if (!clause) return undefined;
  const values = [...new Set(clause.values as Array<string | number | boolean>)].map((v) =>
    typeof v === 'boolean' ? String(v) : v,
  );
  const countOnly = query.limit === 0;
  const overdue = clause.type === 'boolean' ? overdueReads[countOnly ? 'createdAt' : sort.field.name] : undefined;
  if (clause.type === 'boolean' && !overdue) return undefined;
  if (!overdue && !countOnly && (values.length > MAX_MERGED_VALUES || sort.field.name !== 'createdAt'))
    return undefined;
  const index = overdue?.index ?? (equalityIndexes[clause.field.name] as { index: IndexDefinition }).index;
  const partitions = overdue?.partitions ?? values;
  const from = keyAfter(after);
  const [totalCount, rows] = await countThenMerge(
    query.skip,
    window,
    budget,
    () => (known === undefined ? readCounts(clause.field.name, values, stats) : Promise.resolve(known)),
    () => readMerged(index, partitions, !sort.descending, window, budget, stats, from),
  );
  return page(rows, query, totalCount, 'eq', index, partitions.length, context, from);
}
