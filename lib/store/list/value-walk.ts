import { settleAll as all } from '../../fan-out';
import type { FieldSpec } from '../../filter/fields';
import type { Clause, ListQuery } from '../../filter/query';
import { foldForComparison } from '../../text';
import { readCount } from '../counters/counters';
import { storedField } from '../fields';
import { indexes } from '../indexes';
import type { Item } from '../item';
import { isRegistered } from '../registry';
import { attr, everythingPartitions } from '../table';
import type { ReadBudget } from './budget';
import { clauseHolds, Placeholders } from './expression';
import { compareValues, mergeInOrder } from './merge';
import { page, skipTooDeep } from './page';
import type { IndexRead } from './plan';
import { checkedPosition } from './positions';
import { queryInput, walkPageSize } from './reads';
import { registeredValues } from './registered';
import type { ListResult, Position, ReadStats, Row } from './result';
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

/** Values probed from the counters in one round, and in all: a status past them leaves the sort to the full read. */
const PROBE_ROUND = 8;
const PROBE_LIMIT = 64;

/** A position before every entry of a value's partition, in each direction (created keys are ASCII). */
const partitionStart = (forward: boolean) => (forward ? '' : '\uffff');

interface Counted {
  value: string | number;
  count: number;
}

/**
 * The values of an integer counted field that some action has, ascending, with their counts:
 * the counters of 0, 1, 2... read a round at a time until their sum is the total (so no other
 * value has an action). `undefined` when the first `PROBE_LIMIT` values do not account for every
 * action (a status of 1,000 exists): they cannot be enumerated cheaply.
 */
async function countedValues(field: string, stats: ReadStats): Promise<Counted[] | undefined> {
  if (isRegistered(field)) return registeredValues(field, stats);
  const total = await readCount('all', '', stats);
  const found: Counted[] = [];
  let sum = 0;
  for (let start = 0; start < PROBE_LIMIT && sum < total; start += PROBE_ROUND) {
    const values = Array.from({ length: PROBE_ROUND }, (_, i) => start + i);
    const counts = await all<number[]>(values.map((v) => readCount(field as 'status', v, stats)));
    counts.forEach((count, i) => {
      if (count > 0) found.push({ value: values[i] as number, count });
      sum += Math.max(0, count);
    });
  }
  return sum === total ? found : undefined;
}

/**
 * Whether every clause on the sort field holds for this value (the others are left to the read),
 * judged as the filter judges a stored action: on the value, and for `*` its folded copy too. Pure.
 */
export function valueHolds(clauses: Clause[], field: FieldSpec, value: string | number): boolean {
  const { attribute, lowerAttribute } = storedField(field);
  // Filter values live in the `f` map: each path is `f.<key>`.
  const item: Record<string, Record<string, unknown>> = {};
  const put = (path: string, v: unknown) => {
    const [map, key] = path.split('.') as [string, string];
    item[map] = { ...item[map], [key]: v };
  };
  put(attribute, value);
  if (typeof value === 'string' && lowerAttribute && foldForComparison(value) !== value)
    put(lowerAttribute, foldForComparison(value));
  return clauses.filter((c) => c.field.name === field.name).every((c) => clauseHolds(c, item));
}

/**
 * The page of a list sorted by `field` read from its value partitions; `undefined` when the
 * field's values cannot be enumerated (the caller refuses the sort as before). `found`: matches
 * an earlier read counted, a lower bound.
 */
export async function listByValue(
  query: ListQuery,
  field: FieldSpec,
  read: IndexRead,
  descending: boolean,
  budget: ReadBudget,
  stats: ReadStats,
  after: Position | undefined,
  counted: number | undefined,
  found: number,
): Promise<ListResult | undefined> {
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
  if (query.skip >= budget.available) throw skipTooDeep(budget.limit);
  const rows: Row[] = [];
  let reached: Position | undefined;
  // One value's partition at a time.
  const pageSize = walkPageSize(read, window, 1);
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
    const merged = await mergeInOrder(
      [v.value],
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
      rows.push({ id: item[attr.id] as string, value: [v.value, item[attr.createdKey] as string] });
    if (merged.cut) {
      const last = merged.items[merged.items.length - 1]?.[attr.createdKey] as string | undefined;
      reached = [v.value, merged.reached ?? last ?? past ?? partitionStart(forward)];
      break;
    }
    if (rows.length >= window) break;
  }
  const cut = reached !== undefined;
  const whole = !cut && rows.length < window && from === undefined;
  const result = await page(
    { rows, cut, ...(reached ? { reached } : {}) },
    query,
    total ?? (whole ? rows.length : Math.max(found, rows.length)),
    total !== undefined || whole ? 'eq' : 'gte',
    read.index,
    kept.length,
    stats,
    after,
    fetched,
  );
  return { ...result, strategy: 'planned', index: read.index.name };
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
