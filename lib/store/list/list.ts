import { AsyncLocalStorage } from 'node:async_hooks';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { badCursor } from '../../cursor';
import { ValidationError } from '../../errors';
import type { FieldSpec } from '../../filter/fields';
import type { Clause, ListQuery } from '../../filter/query';
import type { Action } from '../../model/action';
import { ReminderLevel } from '../../model/reminders';
import { cutToBytes } from '../../text';
import { listReadAllowance, quotaStopsReads, recordIndexEntries } from '../../usage';
import { batchGet } from '../batch';
import type { OrderKey } from '../catalogue';
import { settleAll as all, canBeKey, MAX_SORT_KEY_BYTES, send, tableName } from '../client';
import {
  byOverdue,
  byStatus,
  type CountedField,
  isCounted,
  pairedFields,
  readCount,
  readCounts,
  statusPair,
} from '../counters/counters';
import type { StoredClause } from '../fields';
import { fromItem, type Item, isTombstone, orderKeys, valueAt } from '../item';
import { canSearch, type PageReader, search } from '../search/search';
import { attr, everythingPartitions, type IndexDefinition, indexes, itemKind, reminderPartitions } from '../table';
import { BudgetSpent, ReadBudget } from './budget';
import { clauseHolds, filterExpression, Placeholders } from './expression';
import {
  createdIn,
  DEFAULT_SORT,
  equalityIndexes,
  type IndexRead,
  orderedIndexes,
  type Plan,
  plan,
  type Sizes,
  type Walk,
} from './plan';

/**
 * List execution. The common shapes (no filter in an order an all-actions index keeps; one
 * value, or a `~` of a few, of one counted field, by creation time) take `totalCount` from the
 * counters and read the page in order: a streaming merge of the index partitions that reads
 * about `skip + limit` entries plus one page per partition. Every other shape goes to the
 * planner: every match read and sorted in memory when the counters show that fits the budget,
 * else a walk of an index already in the list's order, which stops when the page is full.
 *
 * Whatever the shape, a list reads at most `LIST_READ_BUDGET` index entries in all: skipped
 * entries, entries its filter drops and the merge's read-ahead all count. A list is never
 * refused for its cost (contract section 12): when the budget runs out it answers the matches
 * found, in order, with a cursor that continues the search and, where it could not count every
 * match, a lower bound (`gte`). Only a `skip` past what the budget reaches is a 400, naming
 * `skip` and pointing to the cursor.
 */

/** What a list call read, for cost logging and the benchmark. */
export interface ReadStats {
  /** Index entries and actions read. */
  itemsRead: number;
  /** Index entries alone: what the budget bounds and the caller's read quota is charged. */
  indexEntries: number;
  readUnits: number;
  requests: number;
}

/** `eq`: `totalCount` is exact; `gte`: it is a lower bound, the matches counted before the budget ran out. */
export type CountRelation = 'eq' | 'gte';

export interface ListResult {
  actions: Action[];
  totalCount: number;
  totalCountRelation: CountRelation;
  /** How the list was served: counters + ordered merge, the planner's read, the search postings, or scoped parts. */
  strategy: 'counted' | 'planned' | 'searched' | 'scoped';
  plan?: Plan;
  /** The index the page (or every match) was read from. */
  index: string;
  partitions: number;
  stats: ReadStats;
  /** Where the page stopped, when more matches follow it: what a cursor carries (see `Position`). */
  next?: Position;
  /** Under `positionsOnly`: the page's ids and places, its actions left unfetched (`actions` is empty). */
  positions?: Array<{ id: string; at: Position }>;
}

const deferring = new AsyncLocalStorage<boolean>();

/**
 * Runs a list that answers its page as ids and places where it can, fetching no action: a scoped
 * list's parts (`scoped.ts`) merge places and fetch only the merged page.
 */
export const positionsOnly = <T>(list: () => Promise<T>): Promise<T> => deferring.run(true, list);

/**
 * A place in a list's order, the same whichever index serves the list: for a field an ordered
 * index sorts (`createdAt`, `title`, `owner`...), that index's sort key, which ends in the id and
 * so is unique; for any other field, its value and the id.
 */
export type Position = string | [string | number | null, string];

export const newStats = (): ReadStats => ({ itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 });

/** The fewest entries a filtered walk asks of a partition in one query (issue 42: `limit=1` read ~3 a query). */
const WALK_PAGE_FLOOR = 25;

/** The most values of one field a counted list merges; a longer `~` list goes to the planner. */
export const MAX_MERGED_VALUES = 10;

interface QueryPage {
  Items?: Item[];
  Count?: number;
  ScannedCount?: number;
  LastEvaluatedKey?: Item;
  ConsumedCapacity?: { CapacityUnits?: number };
}

/**
 * One page of an index, of at most `want` entries and never past the budget: `BudgetSpent` when
 * the budget is gone.
 */
export async function query(
  input: QueryCommandInput,
  want: number,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<QueryPage> {
  const granted = await budget.take(want);
  if (granted === 0) throw new BudgetSpent(budget.limit);
  let read = 0;
  try {
    const page = await send<QueryPage>(new QueryCommand({ ...input, Limit: granted, ReturnConsumedCapacity: 'TOTAL' }));
    read = page.ScannedCount ?? 0;
    stats.requests++;
    stats.itemsRead += read;
    stats.indexEntries += read;
    stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    recordIndexEntries(read);
    return page;
  } finally {
    budget.settle(granted, read);
  }
}

/** DynamoDB orders strings by UTF-8 bytes, which is code point order; JavaScript's `<` is not. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  if (x === y) return 0;
  if (/[\ud800-\udfff]/.test(x) || /[\ud800-\udfff]/.test(y)) return Buffer.compare(Buffer.from(x), Buffer.from(y));
  return x < y ? -1 : 1;
}

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
  sortKey: string,
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
    const page = await query(
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
    cursor.buffer.push(...(page.Items ?? []).filter((item) => past === undefined || item[sortKey] !== past));
    cursor.startKey = page.LastEvaluatedKey;
    cursor.done = page.LastEvaluatedKey === undefined;
    cursor.read = true;
  };
  const direction = forward ? 1 : -1;
  while (merged.length < window) {
    try {
      // Every partition still open must offer a head before the merge picks: a page its filter
      // emptied says nothing of what comes next in it, so it is read again.
      for (
        let empty = cursors.filter((c) => c.buffer.length === 0 && !c.done);
        empty.length > 0;
        empty = cursors.filter((c) => c.buffer.length === 0 && !c.done)
      )
        await all(empty.map(fill));
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      return cutShort(merged, cursors, sortKey, direction, window);
    }
    let next: Cursor | undefined;
    for (const cursor of cursors) {
      const head = cursor.buffer[0];
      if (head === undefined) continue;
      if (!next || direction * compareValues(head[sortKey], (next.buffer[0] as Item)[sortKey]) < 0) next = cursor;
    }
    if (!next) break;
    merged.push(next.buffer.shift() as Item);
  }
  return { items: merged, cut: false };
}

/**
 * A merge the budget stopped: every partition still open was read up to its last key, so the
 * nearest of those keys is where the merge is sure of every match; the buffered items up to it
 * follow what was merged, in order.
 */
function cutShort(merged: Item[], cursors: Cursor[], sortKey: string, direction: number, window: number): Merged {
  const open = cursors.filter((c) => !c.done);
  if (open.some((c) => !c.read || c.startKey === undefined)) return { items: merged, cut: true };
  const ends = open.map((c) => (c.startKey as Item)[sortKey]);
  const reached = ends.reduce((a, b) => (direction * compareValues(b, a) < 0 ? b : a)) as string;
  const rest = cursors
    .flatMap((c) => c.buffer)
    .filter((item) => direction * compareValues(item[sortKey], reached) <= 0)
    .sort((a, b) => direction * compareValues(a[sortKey], b[sortKey]));
  const items = [...merged, ...rest];
  // A full window is a page like any other: it ends at its own last item.
  if (items.length >= window) return { items: items.slice(0, window), cut: false };
  return { items, cut: true, reached };
}

/** Index entries in the order of a list: ids, sort values, and where a cut-short read got to. */
interface Rows {
  rows: Row[];
  /** The budget ran out first (see `Merged`). */
  cut: boolean;
  reached?: string;
}

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
  const input = (partition: string | number): QueryCommandInput => {
    const p = new Placeholders();
    // Past a cursor, each partition continues after the key the last page ended on.
    const past = after === undefined ? '' : ` AND ${p.name(sortKey)} ${forward ? '>' : '<'} ${p.value(after)}`;
    return {
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: `${p.name(index.partitionKey.name)} = ${p.value(partition)}${past}`,
      ExpressionAttributeNames: p.names,
      ExpressionAttributeValues: p.values,
    };
  };
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
  dueAt: {
    index: indexes.remindersByDue,
    partitions: [...reminderPartitions(ReminderLevel.overdue), ...reminderPartitions(ReminderLevel.escalated)],
  },
};

/** The one equality clause a counted list serves, if the query is of that shape. */
function countedClause(query: ListQuery): (Clause & { field: { name: CountedField } }) | undefined {
  if (query.filters.length !== 1) return undefined;
  const clause = query.filters[0] as Clause;
  if (!isCounted(clause.field.name) || (clause.op !== '=' && clause.op !== '~')) return undefined;
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
  if (Math.min(skip, totalCount) >= budget.limit) throw skipTooDeep(budget.limit);
  return [totalCount, await merge()];
}

/** Serves the common shapes from counters and an ordered merge; `undefined` for any other shape. */
async function listCounted(
  query: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
  known?: number,
): Promise<ListResult | undefined> {
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
    return page(rows, query, totalCount, 'eq', ordered, everythingPartitions.length, stats, from);
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
  return page(rows, query, totalCount, 'eq', index, partitions.length, stats, from);
}

/** The key a counted list continues after: a cursor of its shape holds an index sort key. */
function keyAfter(after: Position | undefined): string | undefined {
  if (after === undefined) return undefined;
  if (typeof after !== 'string' || after === '' || Buffer.byteLength(after, 'utf8') > MAX_SORT_KEY_BYTES)
    throw badCursor();
  return after;
}

/**
 * The page of entries read in order. When the budget cut the read short, the page holds the
 * matches found and the cursor continues from where the read was sure of every match; a `skip`
 * the read did not get past is the one thing refused.
 */
async function page(
  read: Rows,
  query: ListQuery,
  totalCount: number,
  relation: CountRelation,
  index: IndexDefinition,
  partitions: number,
  stats: ReadStats,
  after: string | undefined,
  fetched?: ReadonlyMap<string, Item>,
): Promise<ListResult> {
  const { rows } = read;
  if (read.cut && query.skip > 0 && rows.length <= query.skip) throw skipTooDeep();
  const shown = rows.slice(query.skip, query.skip + query.limit);
  const more = rows.length > query.skip + query.limit;
  const deferred = deferring.getStore() === true;
  const actions = deferred
    ? []
    : await fetchActions(
        shown.map((r) => r.id),
        stats,
        fetched,
      );
  const last = shown[shown.length - 1];
  // Cut short: continue after the last key the read was sure of (or, if it got nowhere, where it began).
  const next = more ? (last?.value as string | undefined) : read.cut ? (read.reached ?? after) : undefined;
  return {
    actions,
    ...(deferred ? { positions: shown.map((r) => ({ id: r.id, at: r.value as Position })) } : {}),
    totalCount,
    totalCountRelation: relation,
    strategy: 'counted',
    index: index.name,
    partitions,
    stats,
    ...(next !== undefined ? { next } : {}),
  };
}

/** What the counters say about the fields a query names, for the planner's estimates. */
async function sizesFor(query: ListQuery, stats: ReadStats): Promise<Sizes> {
  const sizes: Sizes = { total: await readCount('all', '', stats), values: {} };
  const lookups: Array<Promise<void>> = [];
  for (const clause of query.filters) {
    const field = clause.field.name;
    if (!isCounted(field) || (clause.op !== '=' && clause.op !== '~')) continue;
    if (clause.type === 'boolean' && clause.values[0] !== true) continue;
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
 * read unit a value, and no index entry): `=` and `~` a sum of values, `!` the total less the
 * value, `overdue=false` the total less the overdue. `undefined` for any other list.
 */
async function countedTotal(query: ListQuery, stats: ReadStats): Promise<number | undefined> {
  if (query.filters.length === 2) return pairedTotal(query.filters as [Clause, Clause], stats);
  if (query.filters.length !== 1) return undefined;
  const clause = query.filters[0] as Clause;
  const field = clause.field.name;
  if (!isCounted(field)) return undefined;
  if (clause.type === 'boolean') {
    const overdue = await readCount(field, 'true', stats);
    return clause.values[0] ? overdue : (await readCount('all', '', stats)) - overdue;
  }
  const values = (clause.values as Array<string | number>).map(String);
  if (clause.op === '=' || clause.op === '~') return readCounts(field, values, stats);
  if (clause.op !== '!') return undefined;
  const [total, matching] = await all<[number, number]>([
    readCount('all', '', stats),
    readCount(field, values[0] as string, stats),
  ]);
  return total - matching;
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
  const sum = (counter: CountedField, keys: string[]) =>
    all<number[]>(keys.map((key) => readCount(counter, key, stats))).then((n) => n.reduce((x, y) => x + y, 0));
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
 * The one list refused for its cost: a `skip` past what the budget can read. When the caller's
 * read quota stopped the read short of the skip, it is the quota's 429 instead (`BudgetSpent` at
 * the edge): the same list answers once the window refills.
 */
function skipTooDeep(budget?: number): Error {
  if (quotaStopsReads()) return new BudgetSpent(budget ?? 0);
  const within = budget === undefined ? 'the read budget' : `the read budget of ${budget} index entries`;
  return new ValidationError([
    { parameter: 'skip', message: `skips past what ${within} can reach; page with cursor (nextCursor) instead` },
  ]);
}

/**
 * A sort on a field no index orders (`status`, a location, a producer) sorts every match in
 * memory; when there are more matches than the budget reads, no page of it can be exact.
 */
function unsortable(query: ListQuery, budget: number): ValidationError {
  const field = (query.sort ?? DEFAULT_SORT).field.name;
  return new ValidationError([
    {
      parameter: 'sort',
      message: `sorting by ${field} reads every match, more than the read budget of ${budget} index entries here; sort by ${orList(Object.keys(orderedIndexes))}, or narrow the filter`,
    },
  ]);
}

/** "a, b or c" */
const orList = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

async function listPlanned(
  query: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
  known?: number,
): Promise<ListResult> {
  const [chosen, counted] = await all<[Plan, number | undefined]>([
    sizesFor(query, stats).then((sizes) => plan(query, sizes)),
    known === undefined ? countedTotal(query, stats) : Promise.resolve(known),
  ]);
  const base = { strategy: 'planned' as const, plan: chosen, index: chosen.read.index.name };
  if (chosen.empty) return { ...base, actions: [], totalCount: 0, totalCountRelation: 'eq', partitions: 0, stats };
  if (counted !== undefined && query.limit === 0)
    return { ...base, actions: [], totalCount: counted, totalCountRelation: 'eq', partitions: 0, stats };
  const walk = query.limit > 0 ? chosen.walk : undefined;
  // Every match, sorted in memory, when the counters show it fits the budget. When only a guess
  // knows its size, the read gets half the budget, so that a walk can still find the page.
  let found = 0;
  // A walk needs a round of every partition (and a fetching walk a run of actions) to get anywhere.
  const forWalk = walk ? Math.max(Math.ceil(budget.available / 2), 4 * walk.read.partitions.length + 2) : 0;
  // A count given by a scoped list's counters leaves the walk to read only the page.
  const sortAll =
    known === undefined && (chosen.exact ? chosen.entries <= budget.available : budget.available > forWalk);
  if (!walk || sortAll) {
    const share = chosen.exact || !walk ? budget : new ReadBudget(budget.available - forWalk);
    const every = await readMatches(chosen.read, chosen.sortAttribute, share, stats);
    if (share !== budget) budget.charge(share.spent);
    if (!every.cut) return sortedPage(query, chosen, every.rows, stats, after);
    if (query.limit === 0)
      return { ...base, actions: [], totalCount: every.rows.length, totalCountRelation: 'gte', partitions: 0, stats };
    if (!walk) throw unsortable(query, budget.limit);
    found = every.rows.length;
  }
  // Too many matches to sort: walk an index already in the list's order for the page.
  const from = after === undefined ? undefined : keyAfter(after);
  const window = query.skip + query.limit + 1;
  if (query.skip >= budget.available) throw skipTooDeep(budget.limit);
  const walked = await walkInOrder(walk as Walk, !chosen.descending, window, budget, stats, from);
  // Read to its end from the start, the walk has seen every match; otherwise it has a lower bound.
  const whole = !walked.cut && walked.rows.length < window && from === undefined;
  const result = await page(
    walked,
    query,
    counted ?? Math.max(found, walked.rows.length),
    whole || counted !== undefined ? 'eq' : 'gte',
    (walk as Walk).read.index,
    (walk as Walk).read.partitions.length,
    stats,
    from,
    walked.fetched,
  );
  return { ...result, ...base, index: (walk as Walk).read.index.name };
}

/** Every match read and sorted in memory: the page at `skip` or after the cursor, and the exact count. */
async function sortedPage(
  query: ListQuery,
  chosen: Plan,
  rows: Row[],
  stats: ReadStats,
  after: Position | undefined,
): Promise<ListResult> {
  const direction = chosen.descending ? -1 : 1;
  const field = (query.sort ?? DEFAULT_SORT).field;
  const positions = rows.map((row) => ({ id: row.id, at: positionOf(field, chosen.sortAttribute, row) }));
  positions.sort((a, b) => direction * comparePositions(a.at, b.at));
  // The planner reads every match for its count anyway, so a page past a cursor costs what the first does.
  let start = query.skip;
  if (after !== undefined) {
    const from = checkedPosition(field, after);
    start = positions.findIndex((p) => direction * comparePositions(p.at, from) > 0);
    if (start < 0) start = positions.length;
  }
  const base = {
    strategy: 'planned',
    plan: chosen,
    index: chosen.read.index.name,
    totalCount: rows.length,
    totalCountRelation: 'eq',
    partitions: chosen.read.partitions.length,
    stats,
  } as const;
  // Places only (a scoped list's part): every place after the page's start, read anyway, so the
  // merge never sorts the part again for its next page.
  if (deferring.getStore() === true && query.limit > 0)
    return { ...base, actions: [], positions: positions.slice(start) };
  const shown = positions.slice(start, start + query.limit);
  const more = query.limit > 0 && start + query.limit < positions.length;
  const actions = await fetchActions(
    shown.map((p) => p.id),
    stats,
  );
  const last = shown[shown.length - 1];
  return {
    ...base,
    actions,
    ...(more && last ? { next: last.at } : {}),
  };
}

/**
 * The first `window` matches in the list's order, by walking `walk` (see `Walk` in `plan.ts`):
 * its partitions merged by their sort key with the filter applied as they are read, or, for a
 * fetching walk, a run of keys at a time whose actions are fetched (each charged to the budget
 * as an entry) and filtered in memory.
 */
async function walkInOrder(
  walk: Walk,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
  after: string | undefined,
): Promise<Rows & { fetched?: Map<string, Item> }> {
  const { read } = walk;
  const sortKey = read.index.sortKey.name;
  const input = (from: string | undefined) => (partition: string | number) =>
    queryInput(read, partition, new Placeholders(), forward, from);
  const toRows = (items: Item[]) => items.map((item) => ({ id: item[attr.id] as string, value: item[sortKey] }));
  if (!walk.fetch) {
    // A filter keeps an unknown share of what is read: read larger pages than the page alone needs.
    // At least a floor a partition: a small window's pages would be a few entries, one query each.
    const pageSize =
      read.filter.length === 0
        ? undefined
        : Math.max(WALK_PAGE_FLOOR, Math.ceil((window * 10) / read.partitions.length) + 1);
    const merged = await mergeInOrder(
      read.partitions,
      input(after),
      sortKey,
      forward,
      window,
      budget,
      stats,
      pageSize,
      after,
    );
    return { ...merged, rows: toRows(merged.items) };
  }
  const rows: Row[] = [];
  const fetched = new Map<string, Item>();
  let from = after;
  while (rows.length < window) {
    // A run of keys, then its actions: half the budget left each, less the merge's read-ahead.
    const run = Math.min(
      1000,
      Math.max(100, (window - rows.length) * 4),
      Math.floor((budget.available - 2 * read.partitions.length) / 2),
    );
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
    recordIndexEntries(granted);
    const examined = keys.items.slice(0, granted);
    const items = await fetchItems(
      examined.map((item) => item[attr.id] as string),
      stats,
    );
    for (const entry of examined) {
      const item = items.get(entry[attr.id] as string);
      if (item === undefined || isTombstone(item) || !walk.clauses.every((c) => clauseHolds(c, item))) continue;
      rows.push({ id: entry[attr.id] as string, value: entry[sortKey] });
      fetched.set(entry[attr.id] as string, item);
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

/** Where a match read with `sortAttribute` stands in the order of `field` (see `Position`). */
export function positionOf(field: FieldSpec, sortAttribute: string, row: Row): Position {
  const key = orderedIndexes[field.name]?.sortKey.name;
  // Ties by creation time, then id: the created key (`<createdAt>#<id>`) orders exactly so.
  const created = row.created ?? row.id;
  if (key === undefined) return [(row.value ?? null) as string | number | null, created];
  if (sortAttribute === key) return row.value as string;
  return (orderKeys[key] as OrderKey)(row.value, created.slice(0, created.indexOf('#')), row.id);
}

/** A position from a cursor, if it has the shape positions of this sort have; else a 400. */
function checkedPosition(field: FieldSpec, after: Position): Position {
  if (orderedIndexes[field.name] !== undefined) return keyAfter(after) as string;
  const ok =
    Array.isArray(after) &&
    after.length === 2 &&
    typeof after[1] === 'string' &&
    (after[0] === null || typeof after[0] === 'string' || typeof after[0] === 'number');
  if (!ok) throw badCursor();
  return after;
}

export function comparePositions(a: Position, b: Position): number {
  if (typeof a === 'string' || typeof b === 'string') return compareValues(a, b);
  return compareValues(a[0], b[0]) || compareValues(a[1], b[1]);
}

/**
 * Lists actions: the counted path for the common shapes, else the cheapest plan within budget.
 * `after` continues after a position an earlier page ended on (`ListResult.next`).
 */
export const listActions = (query: ListQuery, after?: Position): Promise<ListResult> =>
  listWithin(query, new ReadBudget(listReadAllowance()), newStats(), after);

/** A list within a budget and its stats, which a scoped list shares among its parts (`scoped.ts`), which also knows some counts. */
export async function listWithin(
  query: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
  known?: number,
) {
  return (
    (await listSearched(query, budget, stats, after)) ??
    (await listCounted(query, budget, stats, after, known)) ??
    (await listPlanned(query, budget, stats, after, known))
  );
}

// ---- Search: `*` on title or producer reference, from the n-gram postings (lib/store/search/) ----

/** Entries of a counted value's partition below which the planner reads it instead of the postings. */
const SMALL_PARTITION = 100;

/**
 * The `*` clause the search index serves, when the list is in creation order (the postings'
 * order) or only counts: a fragment of 3 or more characters on `title` or
 * `actionProducer.reference`. Shorter fragments, and other sorts, go to the planner.
 */
function searchClause(list: ListQuery): Clause | undefined {
  if (list.limit !== 0 && (list.sort ?? DEFAULT_SORT).field.name !== 'createdAt') return undefined;
  return list.filters.find((c) => c.op === '*' && canSearch(c.field.name, String(c.values[0])));
}

/**
 * Which of `ids` the live actions match `clauses` for: one item query each, filtered by the
 * same expression any index read uses, each charged to the budget as one entry.
 */
async function matchingIds(ids: string[], clauses: Clause[], budget: ReadBudget, stats: ReadStats) {
  const kept = new Set<string>();
  await all(
    ids.map(async (id) => {
      const p = new Placeholders();
      const filter = filterExpression(clauses as StoredClause[], p) as string;
      const input: QueryCommandInput = {
        TableName: tableName(),
        KeyConditionExpression: `${p.name(attr.id)} = ${p.value(id)} AND ${p.name(attr.sortKey)} = ${p.value(itemKind.action)}`,
        FilterExpression: filter,
        ProjectionExpression: p.name(attr.id),
        ExpressionAttributeNames: p.names,
        ExpressionAttributeValues: p.values,
      };
      if ((await query(input, 1, budget, stats)).Items?.length) kept.add(id);
    }),
  );
  return kept;
}

/**
 * A list with a `*` the search index serves: its matches in creation order from the rarest gram's
 * postings (`lib/store/search/search.ts`), every other filter verified on the candidates. The
 * count is exact when every posting of that gram was read, else a lower bound.
 */
async function listSearched(
  list: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
): Promise<ListResult | undefined> {
  const clause = searchClause(list);
  if (!clause) return undefined;
  const others = list.filters.filter((c) => c !== clause);
  // The cheaper side: a counted value with few actions is cheaper to read whole (its partition,
  // ~500 bytes an entry) than postings whose candidates are each verified on their item.
  for (const other of others) {
    if (!isCounted(other.field.name) || (other.op !== '=' && other.op !== '~') || other.type === 'boolean') continue;
    const values = [...new Set((other.values as Array<string | number>).map(String))];
    if (values.includes('') || values.length > MAX_MERGED_VALUES) continue;
    if ((await readCounts(other.field.name, values, stats)) <= SMALL_PARTITION) return undefined;
  }
  const read: PageReader = (input, want) => query(input, want, budget, stats);
  const found = await search(
    {
      field: clause.field.name as 'title',
      fragment: String(clause.values[0]),
      descending: (list.sort ?? DEFAULT_SORT).descending,
      window: list.limit === 0 ? 0 : list.skip + list.limit + 1,
      ...(after === undefined ? {} : { after: keyAfter(after) }),
      ...(others.length > 0 ? { verify: (ids: string[]) => matchingIds(ids, others, budget, stats) } : {}),
    },
    read,
  );
  const shown = found.matches.slice(list.skip, list.skip + list.limit);
  const more = found.matches.length > list.skip + list.limit;
  const actions = await fetchActions(
    shown.map((m) => m.id),
    stats,
  );
  // A page the budget cut short continues after the last posting read.
  const next = more ? shown[shown.length - 1]?.key : list.limit > 0 ? found.reached : undefined;
  return {
    actions,
    totalCount: found.matches.length,
    totalCountRelation: found.complete && after === undefined ? 'eq' : 'gte',
    strategy: 'searched',
    index: `search postings of '${found.gram}'`,
    partitions: 1,
    stats,
    ...(next !== undefined ? { next } : {}),
  };
}

/**
 * One partition's query of a read. `forward` and `after` are for a walk that continues past a
 * cursor: the bound on the side it reads toward stays, and the cursor's key takes the other.
 */
function queryInput(
  read: IndexRead,
  partition: string | number,
  p = new Placeholders(),
  forward = true,
  after?: string,
): QueryCommandInput {
  const pk = p.name(read.index.partitionKey.name);
  const sk = () => p.name(read.index.sortKey.name);
  let keyCondition = `${pk} = ${p.value(partition)}`;
  let lower = read.range?.lower === undefined ? undefined : clampSortKey(read.range.lower);
  let upper = read.range?.upper === undefined ? undefined : clampSortKey(read.range.upper);
  // A cursor's key replaces the bound behind it: every key after it is inside the range too.
  let past: '>' | '<' | undefined;
  if (after !== undefined && forward && (lower === undefined || after >= lower)) [lower, past] = [after, '>'];
  if (after !== undefined && !forward && (upper === undefined || after <= upper)) [upper, past] = [after, '<'];
  // BETWEEN includes its upper bound where the plan's range excludes it; no key can equal a bound
  // (every sort key ends in an id, every bound in a separator), so the two agree. A cursor's own
  // key is a key: a BETWEEN that includes it leaves it to the merge to drop (`mergeInOrder`'s `past`).
  if (lower !== undefined && upper !== undefined)
    keyCondition += ` AND ${sk()} BETWEEN ${p.value(lower)} AND ${p.value(upper)}`;
  else if (lower !== undefined) keyCondition += ` AND ${sk()} ${past ?? '>='} ${p.value(lower)}`;
  else if (upper !== undefined) keyCondition += ` AND ${sk()} < ${p.value(upper)}`;
  const filter = filterExpression(read.filter, p);
  return {
    TableName: tableName(),
    IndexName: read.index.name,
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ExpressionAttributeNames: p.names,
    ExpressionAttributeValues: p.values,
  };
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

/** Runs one query per partition, a few at a time. */
async function eachPartition<T>(read: IndexRead, run: (partition: string | number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  // A partition no key can hold (`owner=`, or a value past the key size limit) holds nothing.
  const queue = read.partitions.filter(canBeKey);
  const workers = Array.from({ length: Math.min(8, queue.length) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) results.push(await run(next));
  });
  await all(workers);
  return results;
}

interface Row {
  id: string;
  value: unknown;
  /** `<createdAt>#<id>`, where the list sorts in memory and needs the tie rule. */
  created?: string;
}

/** Every match's id and sort value; `cut` when the budget ran out first (then the rows are some of them). */
async function readMatches(
  read: IndexRead,
  sortAttribute: string,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<{ rows: Row[]; cut: boolean }> {
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
        const page = await query({ ...input, ExclusiveStartKey: startKey }, want, budget, stats);
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
async function fetchItems(ids: string[], stats: ReadStats): Promise<Map<string, Item>> {
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
