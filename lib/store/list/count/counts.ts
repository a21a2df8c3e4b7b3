import type { Clause, ListQuery } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { canBeKey } from '../../client';
import {
  byOverdue,
  byStatus,
  type CountedField,
  isCounted,
  pairedFields,
  readCount,
  readCounts,
  readStatusCounts,
  statusPair,
} from '../../counters/counters';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import { type KeyNames, queryInput } from '../../query/key-query';
import { queryPage } from '../../query/pager';
import { valueHolds } from '../plan/expression';
import { equalityIndexes, MAX_MERGED_VALUES, type Sizes } from '../plan/plan';
import type { ListContext, ReadStats } from '../plan/result';
import { overdueByStatus, type StatusCounts, statusesHolding } from './by-status';
import { countedIntegers, holdingCount, probeValues } from './counted-integers';
import { dateTotal, onOneDate } from './date-counts';
import { locationTotal } from './location-counts';
import { byRegistry, registryTotal } from './registry-counts';
import { scopeCount } from './scope-count';

/** What the counters say about a list: the sizes the planner estimates with, and exact totals. */

/**
 * What the counters say about the fields a query names, for the planner's estimates (each counter
 * read once a list, or once for a scoped list's parts, through its stats' `shared`). `counted`:
 * the list's count is known (a scoped list's part), so no figure here must be exact for it: the
 * fields the context's `estimated` names are left to estimates. Otherwise the planner may need
 * an exact size to read every match for an exact count.
 */
export async function sizesFor(
  query: ListQuery,
  { stats, estimated }: Pick<ListContext, 'stats' | 'estimated'>,
  counted = false,
): Promise<Sizes> {
  const sizes: Sizes = { total: await readCount('all', '', stats), values: {} };
  const lookups: Array<Promise<void>> = [];
  // A `!`, `<` or `>` on status: every status with its count, so the planner can read the
  // partitions of those the clauses hold for (one read of the total's counter, kept by status).
  if (query.filters.some((c) => c.field.name === 'status' && c.op !== '=' && c.op !== '~'))
    lookups.push(
      readStatusCounts('all', '', stats).then((counts) => {
        sizes.statuses = Object.fromEntries([...counts].filter(([, n]) => n > 0).map(([s, n]) => [String(s), n]));
      }),
    );
  for (const clause of query.filters) {
    const field = clause.field.name;
    if (!isCounted(field) || (clause.op !== '=' && clause.op !== '~')) continue;
    if (clause.type === 'boolean' && clause.values[0] !== true) continue;
    if (counted && estimated?.has(field)) continue;
    const values = [...new Set((clause.values as Array<string | number>).map(String))];
    if (values.length > MAX_MERGED_VALUES) continue;
    const known: Record<string, number> = sizes.values[field] ?? {};
    sizes.values[field] = known;
    for (const value of values) {
      lookups.push(
        readCount(field, value, stats).then((n) => {
          known[value] = n;
        }),
      );
    }
  }
  await all(lookups);
  return sizes;
}

/**
 * The exact count of a list of one clause on a counted field, from the counters alone (about a
 * read unit a value, and no index entry): `=` and `~` a sum of values, `<` and `>` on an integer
 * the sum of its values in range, `!` the total less the value, `overdue=false` the total less
 * the overdue. A `!` on a field not counted but indexed by value (a producer's reference): the
 * total less its value's partition, counted within `budget`. Filters on one date field alone:
 * the day counters (`date-counts.ts`). `undefined` for any other list.
 */
export async function countedTotal(
  query: ListQuery,
  stats: ReadStats,
  budget: ReadBudget,
): Promise<number | undefined> {
  // Filters on location fields alone, else: the registered locations' counters (`location-counts.ts`).
  return (await counterTotal(query, stats, budget)) ?? locationTotal(query.filters, stats);
}

async function counterTotal(query: ListQuery, stats: ReadStats, budget: ReadBudget): Promise<number | undefined> {
  const prefix = await prefixTotal(query, stats);
  if (prefix !== undefined) return prefix;
  const date = onOneDate(query);
  if (date) return dateTotal(date, query.filters, stats, budget);
  if (query.filters.length === 2) {
    const paired = await pairedTotal(query.filters as [Clause, Clause], stats);
    if (paired !== undefined) return paired;
  }
  if (query.filters.length !== 1) return statusSplitTotal(query.filters, stats);
  const clause = query.filters[0] as Clause;
  const field = clause.field.name;
  if (clause.op === '!' && !isCounted(field)) return totalLessPartition(clause, stats, budget);
  if (!isCounted(field)) return undefined;
  // `<`, `>`, `*` on a counted string field: the registered values' counts (`registry-counts.ts`).
  if (byRegistry(clause)) return registryTotal(clause, stats);
  if (clause.type === 'boolean') {
    const overdue = await readCount(field, 'true', stats);
    return clause.values[0] ? overdue : (await readCount('all', '', stats)) - overdue;
  }
  const values = (clause.values as Array<string | number>).map(String);
  if (clause.op === '=' || clause.op === '~') return readCounts(field, values, stats);
  if (clause.type === 'integer' && clause.op !== '!') return integerRangeTotal(clause, stats);
  if (clause.op !== '!') return undefined;
  const [total, matching] = await all<[number, number]>([
    readCount('all', '', stats),
    readCount(field, values[0] as string, stats),
  ]);
  return total - matching;
}

/**
 * One business unit and a site in it (or a set of sites, and a department below), with clauses on
 * status or `overdue`: the location prefix counters, as a scope's part is counted
 * (`scope-count.ts`), where the site's own counters know nothing of its business unit.
 */
async function prefixTotal(query: ListQuery, stats: ReadStats): Promise<number | undefined> {
  const unit = query.filters.find((c) => c.field.name === 'location.businessUnit');
  if (unit?.op !== '=' || !query.filters.some((c) => c.field.name === 'location.site')) return undefined;
  return scopeCount(query, { businessUnit: unit.values[0] as string }, stats);
}

/**
 * The exact count of the daily shapes, from the paired counters: one `=`/`~` on a person, site,
 * business unit or producer with one `=`/`~` on `status` (a sum over value x status) or with
 * `overdue` (the overdue counters, or the value's count less them).
 */
async function pairedTotal([a, b]: [Clause, Clause], stats: ReadStats): Promise<number | undefined> {
  const paired = (pairedFields as readonly string[]).includes(a.field.name) ? a : b;
  const other = paired === a ? b : a;
  const field = paired.field.name as (typeof pairedFields)[number];
  if (!(pairedFields as readonly string[]).includes(field) || (paired.op !== '=' && paired.op !== '~'))
    return undefined;
  const values = [...new Set((paired.values as string[]).map(String))];
  const sum = (counter: CountedField, keys: string[]) => readCounts(counter, keys, stats);
  if (other.field.name === 'status' && (other.op === '=' || other.op === '~')) {
    const statuses = [...new Set((other.values as number[]).map(String))];
    return sum(
      byStatus(field),
      values.flatMap((v) => statuses.map((s) => statusPair(s, v))),
    );
  }
  if (other.type !== 'boolean' || other.field.name !== 'overdue') return undefined;
  const overdue = await sum(byOverdue(field), values);
  return other.values[0] ? overdue : (await readCounts(field, values, stats)) - overdue;
}

/**
 * Clauses on `status` (any operator) alone, or with `overdue`, with clauses on `priority`, or with
 * one `=`/`~` on a paired field, with or without `overdue` (a site's open overdue actions, each
 * group's `overdue` in counts by site and status): the counters kept by status (`readStatusCounts`, one read a
 * value), summed over the statuses every status clause holds for. A priority not listed by `=`/`~`
 * is enumerated from its counters (`probeValues`). `undefined` for any other list.
 */
async function statusSplitTotal(filters: Clause[], stats: ReadStats): Promise<number | undefined> {
  const onStatus = filters.filter((c) => c.field.name === 'status');
  const rest = filters.filter((c) => c.field.name !== 'status');
  if (onStatus.length === 0) return undefined;
  const holding = (counts: StatusCounts[]) => statusesHolding(onStatus, counts);
  if (rest.length === 0) return holding([await readStatusCounts('all', '', stats)]);
  // `overdue` beside one clause on a paired field: that value's overdue counter, kept by status.
  const late = rest.length === 2 ? rest.find((c) => c.type === 'boolean' && c.field.name === 'overdue') : undefined;
  const others = rest.filter((c) => c !== late);
  const [other] = others as [Clause];
  const field = other.field.name;
  if (others.some((c) => c.field.name !== field)) return undefined;
  if (!late && other.type === 'boolean' && field === 'overdue') {
    if (rest.length !== 1) return undefined;
    return overdueByStatus(onStatus, other.values[0] === true, {
      overdue: async () => [await readStatusCounts('overdue', 'true', stats)],
      all: async () => [await readStatusCounts('all', '', stats)],
    });
  }
  if (!late && field === 'priority') {
    const byPriority = new Map<number, Map<number, number>>();
    const count = async (value: number) => {
      const counts = await readStatusCounts('priority', value, stats);
      byPriority.set(value, counts);
      return [...counts.values()].reduce((a, b) => a + b, 0);
    };
    const listed = rest.length === 1 && (other.op === '=' || other.op === '~');
    if (listed) await all([...new Set(other.values as number[])].map(count));
    else if ((await probeValues(await readCount('all', '', stats), count)) === undefined) return undefined;
    return holding([...byPriority].filter(([value]) => valueHolds(rest, other.field, value)).map(([, c]) => c));
  }
  if (!(pairedFields as readonly string[]).includes(field) || others.length !== 1) return undefined;
  if (other.op !== '=' && other.op !== '~') return undefined;
  const paired = field as (typeof pairedFields)[number];
  const values = [...new Set((other.values as Array<string | number>).map(String))];
  const read = (counter: CountedField) => all(values.map((v) => readStatusCounts(counter, v, stats)));
  if (!late) return holding(await read(paired));
  return overdueByStatus(onStatus, late.values[0] === true, {
    overdue: () => read(byOverdue(paired)),
    all: () => read(paired),
  });
}

/** `<` or `>` on an integer counted field: the counts of the values it holds for (`counted-integers.ts`). */
async function integerRangeTotal(clause: Clause, stats: ReadStats): Promise<number | undefined> {
  const values = await countedIntegers(clause.field.name, stats);
  return values && holdingCount(values, [clause], clause.field);
}

/**
 * `!` on a field whose equality index keeps a partition a value (`actionProducer.reference`): the
 * total less the size of the value's partition, an exact read of its entries (`Select: COUNT`,
 * charged to the budget). A sparse index leaves out empty values, which differ from the value
 * and so stay counted. `undefined` when the field has no such index, the value is empty, or the
 * partition holds more than half the budget (the rest is for the page).
 */
async function totalLessPartition(clause: Clause, stats: ReadStats, budget: ReadBudget): Promise<number | undefined> {
  const index = equalityIndexes[clause.field.name]?.index;
  const value = clause.values[0];
  if (index === undefined || (typeof value !== 'string' && typeof value !== 'number') || value === '') return undefined;
  const [total, size] = await all<[number, number | undefined]>([
    readCount('all', '', stats),
    canBeKey(value) ? partitionSize(index, value, stats, budget) : Promise.resolve(0),
  ]);
  return size === undefined ? undefined : total - size;
}

/** The entries in one partition of an index, counted by DynamoDB (`Select: COUNT`) within half the budget; `undefined` past it. */
async function partitionSize(
  index: KeyNames,
  value: string | number,
  stats: ReadStats,
  budget: ReadBudget,
): Promise<number | undefined> {
  const input = { ...queryInput({ index, partition: value }), Select: 'COUNT' as const };
  const allowed = Math.floor(budget.available / 2);
  let size = 0;
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  try {
    do {
      if (read >= allowed) return undefined;
      const page = await queryPage({ ...input, ExclusiveStartKey: startKey }, { budget, stats }, allowed - read);
      size += page.Count ?? 0;
      read += page.ScannedCount ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  } catch (error) {
    if (error instanceof BudgetSpent) return undefined;
    throw error;
  }
  return size;
}
