import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../../config';
import { badCursor } from '../../cursor';
import { ServiceUnavailableError, ValidationError } from '../../errors';
import type { FieldSpec } from '../../filter/fields';
import type { Clause, ListQuery } from '../../filter/query';
import type { Action } from '../../model/action';
import { ReminderLevel } from '../../model/reminders';
import { cutToBytes } from '../../text';
import { recordIndexEntries } from '../../usage';
import { equalityFields, orderedFields } from '../catalogue';
import { settleAll as all, backoff, canBeKey, MAX_SORT_KEY_BYTES, send, tableName } from '../client';
import { type CountedField, isCounted, readCount, readCounts } from '../counters/counters';
import type { StoredClause } from '../fields';
import { fromItem, type Item, isTombstone, orderKeys, valueAt } from '../item';
import { canSearch, type PageReader, search } from '../search/search';
import { attr, everythingPartitions, type IndexDefinition, indexes, itemKind, reminderPartitions } from '../table';
import { BudgetSpent, ReadBudget } from './budget';
import { filterExpression, Placeholders } from './expression';
import { DEFAULT_SORT, equalityIndexes, type IndexRead, orderedIndexes, type Plan, plan, type Sizes } from './plan';

/**
 * List execution. The common shapes (no filter in an order an all-actions index keeps; one
 * value, or a `~` of a few, of one counted field, by creation time) take `totalCount` from the
 * counters and read the page in order: a streaming merge of the index partitions that reads
 * about `skip + limit` entries plus one page per partition. Every other shape goes to the
 * planner, which knows from the counters how much it would read before it reads, and refuses
 * (400) a read over the budget.
 *
 * Whatever the shape, a list reads at most `LIST_READ_BUDGET` index entries in all: skipped
 * entries, entries its filter drops and the merge's read-ahead all count. A list refused from
 * exact figures (the counters) is refused before it reads; one whose size only a guess knows
 * (a date range) reads until the budget runs out and is then refused the same way.
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

export interface ListResult {
  actions: Action[];
  totalCount: number;
  /** `gte` when `totalCount` is a lower bound (contract section 4); `eq` when absent. */
  totalCountRelation?: 'eq' | 'gte';
  /** How the list was served: `counted` (counters + ordered merge), the planner's read, or the search postings. */
  strategy: 'counted' | 'planned' | 'searched';
  plan?: Plan;
  /** The index the page (or every match) was read from. */
  index: string;
  partitions: number;
  stats: ReadStats;
  /** Where the page stopped, when more matches follow it: what a cursor carries (see `Position`). */
  next?: Position;
}

/**
 * A place in a list's order, the same whichever index serves the list: for a field an ordered
 * index sorts (`createdAt`, `title`, `owner`...), that index's sort key, which ends in the id and
 * so is unique; for any other field, its value and the id.
 */
export type Position = string | [string | number | null, string];

export const newStats = (): ReadStats => ({ itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 });

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
async function query(input: QueryCommandInput, want: number, budget: ReadBudget, stats: ReadStats): Promise<QueryPage> {
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
}

/**
 * The first `window` items of several partitions in the order of `sortKey`, merged: each
 * partition is read a page at a time (a page sized so the partitions together cover the
 * window), and a partition is read further only when the merge has used up what it gave.
 * `input` is the query of one partition; it must read in the merge's direction.
 */
export async function readInOrder(
  partitions: ReadonlyArray<string | number>,
  input: (partition: string | number) => QueryCommandInput,
  sortKey: string,
  forward: boolean,
  window: number,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<Item[]> {
  const merged: Item[] = [];
  const live = partitions.filter(canBeKey);
  if (window === 0 || live.length === 0) return merged;
  const pageSize = Math.min(1000, Math.ceil(window / live.length) + 1);
  const cursors: Cursor[] = live.map((partition) => ({ partition, buffer: [], done: false }));
  const fill = async (cursor: Cursor) => {
    const page = await query(
      {
        ...input(cursor.partition),
        ScanIndexForward: forward,
        ...(cursor.startKey ? { ExclusiveStartKey: cursor.startKey } : {}),
      },
      pageSize,
      budget,
      stats,
    );
    cursor.buffer.push(...(page.Items ?? []));
    cursor.startKey = page.LastEvaluatedKey;
    cursor.done = page.LastEvaluatedKey === undefined;
  };
  const direction = forward ? 1 : -1;
  while (merged.length < window) {
    await all(cursors.filter((c) => c.buffer.length === 0 && !c.done).map(fill));
    let next: Cursor | undefined;
    for (const cursor of cursors) {
      const head = cursor.buffer[0];
      if (head === undefined) continue;
      if (!next || direction * compareValues(head[sortKey], (next.buffer[0] as Item)[sortKey]) < 0) next = cursor;
    }
    if (!next) break;
    merged.push(next.buffer.shift() as Item);
  }
  return merged;
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
): Promise<Row[]> {
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
  const items = await readInOrder(partitions, input, sortKey, forward, window, budget, stats);
  return items.map((item) => ({ id: item[attr.id] as string, value: item[sortKey] }));
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
  query: ListQuery,
  window: number,
  budget: ReadBudget,
  count: () => Promise<number>,
  merge: () => Promise<Row[]>,
): Promise<[number, Row[]]> {
  // Within the budget, count and read at once, as ever; the budget still bounds the read-ahead.
  if (window <= budget.limit) return all<[number, Row[]]>([count(), merge()]);
  const totalCount = await count();
  const needed = Math.min(window, totalCount);
  if (needed > budget.limit) throw overBudget(query, budget.limit, needed, 'skip');
  return [totalCount, await merge()];
}

/** Serves the common shapes from counters and an ordered merge; `undefined` for any other shape. */
async function listCounted(
  query: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
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
      query,
      window,
      budget,
      () => readCount('all', '', stats),
      () => readMerged(ordered, everythingPartitions, !sort.descending, window, budget, stats, from),
    );
    return page(rows, query, totalCount, ordered, everythingPartitions.length, stats);
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
    query,
    window,
    budget,
    () => readCounts(clause.field.name, values, stats),
    () => readMerged(index, partitions, !sort.descending, window, budget, stats, from),
  );
  return page(rows, query, totalCount, index, partitions.length, stats);
}

/** The key a counted list continues after: a cursor of its shape holds an index sort key. */
function keyAfter(after: Position | undefined): string | undefined {
  if (after === undefined) return undefined;
  if (typeof after !== 'string' || after === '' || Buffer.byteLength(after, 'utf8') > MAX_SORT_KEY_BYTES)
    throw badCursor();
  return after;
}

async function page(
  rows: Row[],
  query: ListQuery,
  totalCount: number,
  index: IndexDefinition,
  partitions: number,
  stats: ReadStats,
): Promise<ListResult> {
  const shown = rows.slice(query.skip, query.skip + query.limit);
  const more = rows.length > query.skip + query.limit;
  const actions = await fetchActions(
    shown.map((r) => r.id),
    stats,
  );
  const last = shown[shown.length - 1];
  return {
    actions,
    totalCount,
    strategy: 'counted',
    index: index.name,
    partitions,
    stats,
    ...(more && last ? { next: last.value as string } : {}),
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

/** "a, b or c" */
const orList = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

/**
 * The filter a refused list could add to narrow its read: an equality an index serves, or a
 * range over an ordered date (from the catalogue, `lib/store/catalogue.ts`).
 */
const NARROWING = `an equality filter on ${orList(equalityFields.map((f) => f.name))}, or a ${orList(
  orderedFields.filter((f) => f.type === 'date').map((f) => f.name),
)} range`;

/**
 * The 400 of a list over the budget: `entries` it would read, known before reading, or, when
 * the budget ran out mid-read, none. A deep `skip` is named as the parameter to change.
 */
function overBudget(query: ListQuery, budget: number, entries?: number, parameter?: string): ValidationError {
  const named = parameter ?? query.filters[0]?.field.name ?? 'sort';
  const what =
    entries === undefined
      ? `this list reads more than the budget of ${budget} index entries to find its matches (it stopped there)`
      : `this list would read ${entries} index entries${parameter === 'skip' ? ' (every entry it skips)' : ''}, more than the budget of ${budget}`;
  const narrow = `narrow it with ${NARROWING}${parameter === 'skip' ? ', or page with a smaller skip' : ''}`;
  return new ValidationError(
    [{ parameter: named, message: `${what}; ${narrow}` }],
    `${what.charAt(0).toUpperCase()}${what.slice(1)}. ${narrow.charAt(0).toUpperCase()}${narrow.slice(1)}.`,
  );
}

async function listPlanned(
  query: ListQuery,
  budget: ReadBudget,
  stats: ReadStats,
  after?: Position,
): Promise<ListResult> {
  const chosen = plan(query, await sizesFor(query, stats));
  const base = { strategy: 'planned' as const, plan: chosen, index: chosen.read.index.name };
  if (chosen.empty) return { ...base, actions: [], totalCount: 0, partitions: 0, stats };
  // Only a count refuses before reading; a guess reads until the budget runs out.
  if (chosen.exact && chosen.entries > budget.limit) throw overBudget(query, budget.limit, chosen.entries);
  const rows = await readMatches(chosen.read, chosen.sortAttribute, budget, stats);
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
    totalCount: rows.length,
    partitions: chosen.read.partitions.length,
    stats,
    ...(more && last ? { next: last.at } : {}),
  };
}

/** Where a match read with `sortAttribute` stands in the order of `field` (see `Position`). */
function positionOf(field: FieldSpec, sortAttribute: string, row: Row): Position {
  const key = orderedIndexes[field.name]?.sortKey.name;
  if (key === undefined) return [(row.value ?? null) as string | number | null, row.id];
  if (sortAttribute === key) return row.value as string;
  return (orderKeys[key] as (value: unknown, id: string) => string)(row.value, row.id);
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

function comparePositions(a: Position, b: Position): number {
  if (typeof a === 'string' || typeof b === 'string') return compareValues(a, b);
  return compareValues(a[0], b[0]) || compareValues(a[1], b[1]);
}

/**
 * Lists actions: the counted path for the common shapes, else the cheapest plan within budget.
 * `after` continues after a position an earlier page ended on (`ListResult.next`).
 */
export async function listActions(query: ListQuery, after?: Position): Promise<ListResult> {
  const stats = newStats();
  const budget = new ReadBudget(getConfig().listReadBudget);
  try {
    return (
      (await listSearched(query, budget, stats, after)) ??
      (await listCounted(query, budget, stats, after)) ??
      (await listPlanned(query, budget, stats, after))
    );
  } catch (error) {
    if (error instanceof BudgetSpent) throw overBudget(query, budget.limit);
    throw error;
  }
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

function queryInput(read: IndexRead, partition: string | number, p = new Placeholders()): QueryCommandInput {
  const pk = p.name(read.index.partitionKey.name);
  const sk = () => p.name(read.index.sortKey.name);
  let keyCondition = `${pk} = ${p.value(partition)}`;
  const lower = read.range?.lower === undefined ? undefined : clampSortKey(read.range.lower);
  const upper = read.range?.upper === undefined ? undefined : clampSortKey(read.range.upper);
  // BETWEEN includes its upper bound where the plan's range excludes it; no key can equal a bound
  // (every sort key ends in an id, every bound in a separator), so the two agree.
  if (lower !== undefined && upper !== undefined)
    keyCondition += ` AND ${sk()} BETWEEN ${p.value(lower)} AND ${p.value(upper)}`;
  else if (lower !== undefined) keyCondition += ` AND ${sk()} >= ${p.value(lower)}`;
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
}

/** Every match's id and sort value. */
async function readMatches(
  read: IndexRead,
  sortAttribute: string,
  budget: ReadBudget,
  stats: ReadStats,
): Promise<Row[]> {
  let unread = read.partitions.filter(canBeKey).length;
  const lists = await eachPartition(read, async (partition) => {
    const p = new Placeholders();
    const input = queryInput(read, partition, p);
    input.ProjectionExpression = `${p.name(attr.id)}, ${p.name(sortAttribute)}`;
    const rows: Row[] = [];
    let startKey: Item | undefined;
    do {
      // A fair share of what is left for each partition still reading; DynamoDB's 1 MB page
      // limit is the usual bound, as before the budget.
      const want = Math.ceil(budget.available / Math.max(1, unread));
      const page = await query({ ...input, ExclusiveStartKey: startKey }, want, budget, stats);
      for (const item of page.Items ?? [])
        rows.push({ id: item[attr.id] as string, value: valueAt(item, sortAttribute) });
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    unread--;
    return rows;
  });
  return lists.flat();
}

/** The actions with these ids, in this order; one deleted since the index was read is left out. */
async function fetchActions(ids: string[], stats: ReadStats): Promise<Action[]> {
  const found = new Map<string, Item>();
  for (let i = 0; i < ids.length; i += 100) {
    let keys: Item[] | undefined = ids
      .slice(i, i + 100)
      .map((id) => ({ [attr.id]: id, [attr.sortKey]: itemKind.action }));
    for (let attempt = 0; keys && keys.length > 0; attempt++) {
      if (attempt > 0) await backoff(attempt);
      if (attempt > 6) throw new ServiceUnavailableError('store', 1);
      const result: {
        Responses?: Record<string, Item[]>;
        UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
        ConsumedCapacity?: Array<{ CapacityUnits?: number }>;
      } = await send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } }, ReturnConsumedCapacity: 'TOTAL' }),
      );
      stats.requests++;
      for (const item of result.Responses?.[tableName()] ?? []) {
        stats.itemsRead++;
        found.set(item[attr.id] as string, item);
      }
      for (const c of result.ConsumedCapacity ?? []) stats.readUnits += c.CapacityUnits ?? 0;
      keys = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return ids.flatMap((id) => {
    const item = found.get(id);
    return item && !isTombstone(item) ? [fromItem(item)] : [];
  });
}
