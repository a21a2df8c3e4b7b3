import type { FieldSpec } from '../../../filter/fields';
import type { Clause, ListQuery } from '../../../filter/query';
import { indexes } from '../../indexes';
import type { Item } from '../../item';
import type { ReadBudget } from '../../query/budget';
import { isRegistered } from '../../registry';
import { attr, everythingPartitions } from '../../table';
import { type CountedInteger, countedIntegers } from '../count/counted-integers';
import { registeredValues, type ValueCount } from '../count/registered';
import { Placeholders, valueHolds } from '../plan/expression';
import type { IndexRead } from '../plan/plan';
import { checkedPosition, compareValues } from '../plan/positions';
import type { ListContext, ListResult, Position, ReadStats, Row } from '../plan/result';
import { mergeInOrder } from './merge';
import { page, skipTooDeep } from './page';
import { queryInput, walkPageSize } from './reads';
import { walkInOrder } from './walk';

/**
 * A sort on a field no index orders, answered a page at a time (contract section 4: every sort
 * answers): the field's value partitions (`Plan.byValue`), each already in `createdAt`, then id,
 * order, read one after another in value order with the list's filters applied, until the page
 * window is full or the budget is spent. Positions are `[value, <createdAt>#<id>]`, as when every
 * match is sorted in memory, so a cursor from either continues in the other. A counted string
 * field's values come from the value registry (`registered.ts`); its empty value is in no
 * partition (DynamoDB keys cannot be empty), so its actions are found by a walk of every action
 * in created order, each fetched and filtered (the budget bounds it like any fetching walk), and
 * they come first ascending, last descending, as '' orders.
 */

/** A position before every entry of a value's partition, in each direction (created keys are ASCII). */
export const partitionStart = (forward: boolean) => (forward ? '' : '\uffff');

/**
 * What a walk in a sort's order is given (`listByValue`, `listByLocation`, `listByReference`):
 * the list, its direction, its context (budget and stats), the position to continue after, the counters'
 * exact count of the list if they have one (`counted`), and the matches an earlier read of every
 * match counted before the budget cut it (`found`, a lower bound).
 */
export interface SortWalk {
  query: ListQuery;
  descending: boolean;
  context: ListContext;
  after: Position | undefined;
  counted: number | undefined;
  found: number;
}

/**
 * One value's matches after the created key `past`, appended to `rows` as `[value, createdKey]`
 * until the window is full: its partitions (a value's own; a location value's sites,
 * `location-walk.ts`) merged in created order with `read`'s filters. The position the budget cut
 * at, or `undefined` when the budget did not cut.
 */
export async function readValue(
  rows: Row[],
  value: string | number,
  partitions: ReadonlyArray<string | number>,
  read: IndexRead,
  walk: { forward: boolean; window: number; budget: ReadBudget; stats: ReadStats; pageSize: number | undefined },
  past: string | undefined,
): Promise<Position | undefined> {
  const { forward, window, budget, stats, pageSize } = walk;
  const merged = await mergeInOrder(
    [...partitions],
    (partition) => queryInput(read, partition, new Placeholders(), forward, past),
    attr.createdKey,
    forward,
    window - rows.length,
    budget,
    stats,
    pageSize,
    past,
  );
  for (const item of merged.items)
    rows.push({ id: item[attr.id] as string, value: [value, item[attr.createdKey] as string] });
  if (!merged.cut) return undefined;
  const last = merged.items[merged.items.length - 1]?.[attr.createdKey] as string | undefined;
  return [value, merged.reached ?? last ?? past ?? partitionStart(forward)];
}

/**
 * The page of a value walk's rows: exact when the counters gave `total`, or when the walk read
 * every match from the start; otherwise a lower bound of the matches `found` or read.
 */
export async function valuePage(
  walked: { rows: Row[]; reached: Position | undefined; fetched?: Map<string, Item> },
  query: ListQuery,
  at: { window: number; from: unknown; total: number | undefined; found: number; after: Position | undefined },
  index: IndexRead['index'],
  partitions: number,
  context: ListContext,
): Promise<ListResult> {
  const { rows, reached } = walked;
  const cut = reached !== undefined;
  const whole = !cut && rows.length < at.window && at.from === undefined;
  const result = await page(
    { rows, cut, ...(reached ? { reached } : {}) },
    query,
    at.total ?? (whole ? rows.length : Math.max(at.found, rows.length)),
    at.total !== undefined || whole ? 'eq' : 'gte',
    index,
    partitions,
    context,
    at.after,
    walked.fetched,
  );
  return { ...result, strategy: 'planned', index: index.name };
}

/**
 * The values some action has, ascending, with their counts: a counted string field's from the
 * value registry (`registered.ts`, proven complete by their counters), an integer field's probed
 * from its counters (`counted-integers.ts`). `undefined`: they cannot be enumerated cheaply.
 */
const countedValues = (field: string, stats: ReadStats): Promise<Array<ValueCount | CountedInteger> | undefined> =>
  isRegistered(field) ? registeredValues(field, stats) : countedIntegers(field, stats);

/**
 * The page of a list sorted by `field` read from its value partitions; `undefined` when the
 * field's values cannot be enumerated (the caller refuses the sort as before). `found`: matches
 * an earlier read counted, a lower bound.
 */
export async function listByValue(
  sorted: SortWalk,
  field: FieldSpec,
  read: IndexRead,
): Promise<ListResult | undefined> {
  const { query, descending, context, after, counted, found } = sorted;
  const { budget, stats } = context;
  const values = await countedValues(field.name, stats);
  if (values === undefined) return undefined;
  const forward = !descending;
  const kept = values.filter((v) => valueHolds(query.filters, field, v.value));
  if (!forward) kept.reverse();
  // Every filter on the sort field alone: the counts of the values kept are the total.
  const onlyField = query.filters.every((c) => c.field.name === field.name);
  const total = counted ?? (onlyField ? kept.reduce((sum, v) => sum + v.count, 0) : undefined);

  const from = after === undefined ? undefined : (checkedPosition(field, after) as [number, string]);
  const direction = forward ? 1 : -1;
  const start = from === undefined ? 0 : kept.findIndex((v) => direction * compareValues(v.value, from[0]) >= 0);
  const window = query.skip + query.limit + 1;
  if (query.skip > 0 && query.skip >= budget.available) throw skipTooDeep(budget);
  const rows: Row[] = [];
  let reached: Position | undefined;
  // One value's partition at a time.
  const walk = { forward, window, budget, stats, pageSize: walkPageSize(read, window, 1) };
  const fetched = new Map<string, Item>();
  for (const v of start < 0 ? [] : kept.slice(start)) {
    // Inside the cursor's own value: after its created key; every later value from its start.
    const inside = from !== undefined && v.value === from[0] && from[1] !== partitionStart(forward);
    const past = inside ? from[1] : undefined;
    if (v.value === '') {
      const walked = await emptyValueWalk(query, field, forward, window - rows.length, budget, stats, past, v.count);
      for (const row of walked.rows) rows.push({ id: row.id, value: ['', row.value as string] });
      for (const [id, item] of walked.fetched ?? []) fetched.set(id, item);
      if (walked.cut) {
        reached = ['', (walked.reached as string | undefined) ?? past ?? partitionStart(forward)];
        break;
      }
      if (rows.length >= window) break;
      continue;
    }
    reached = await readValue(rows, v.value, [v.value], read, walk, past);
    if (reached !== undefined || rows.length >= window) break;
  }
  return valuePage(
    { rows, reached, fetched },
    query,
    { window, from, total, found, after },
    read.index,
    kept.length,
    context,
  );
}

/**
 * The actions whose `field` is '' that match the list, in created order (the tie order), after
 * the created key `after`: a fetching walk of the index of every action by creation time.
 */
function emptyValueWalk(
  query: ListQuery,
  field: FieldSpec,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
  after: string | undefined,
  count: number,
) {
  const empty: Clause = { field, type: 'string', op: '=', values: [''] };
  const read = { index: indexes.allByCreated, partitions: [...everythingPartitions], filter: [] };
  const walk = { read, fetch: true, clauses: [...query.filters, empty], cost: 0, entries: count };
  return walkInOrder(walk, forward, window, budget, stats, after);
}
