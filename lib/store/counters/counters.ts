import { settleAll } from '../../flow/fan-out';
import type { Action } from '../../model/action';
import { type CountedName, countedValue, storedFieldList } from '../catalogue';
import { canBeKey, tableName } from '../client';
import { queryInput, type SortCondition } from '../query/key-query';
import { queryAll } from '../query/pager';
import { MEMBER_PARTITIONS, shardOf, sliceOf } from '../shards';
import { type SharedReads, sharedRead } from '../shared-reads';
import { attr, itemKind } from '../table';
import { addExpression } from './add';
import {
  locationCounter,
  type PrefixCounter,
  prefixByOverdue,
  prefixCounter,
  prefixCounters,
  prefixCounterValues,
  prefixDepths,
} from './prefixes';

/**
 * Exact counts, kept in step with every write: the total, one count per value of each counted
 * field (the catalogue's `counted`: the equality-indexed fields, the location fields and the
 * folded title), and for people, producers and every location field one per (value, status) and
 * per overdue value. A write that changes a counted value moves its counters in the same
 * transaction as the item, so a count never drifts from the items (and `npm run recount`
 * proves it). Each counter is spread over the action shards: an action's writes touch the
 * shard of its id, so concurrent transactions rarely meet on one counter item, and one Query on
 * the counter's partition reads every shard at once.
 */

/** The location fields below the site: their "no value" counters share one item (`placed`). */
const NO_VALUE_FIELDS = [
  'location.department',
  'location.workGroup',
  'location.productiveUnit',
  'location.team',
  'location.crew',
] as const satisfies readonly CountedName[];

/**
 * The fields whose counters are also split by status and by overdue, so the daily shapes of
 * contract section 4 (a person's, a site's, a producer's open or overdue actions) count exactly
 * from a few counters: `n#location.site&status#<status>#<site>`, `n#location.site&overdue#<site>`.
 * The location fields below the site too (issues 50 and 53): without them a count by team, or a
 * team's overdue actions, summed every whole location's counter, and read the matches once there
 * were more whole locations than a list may read. Each value is one counter item in a create's
 * transaction (2 write units), one more while the action is overdue; their "no value" shares one.
 */
export const pairedFields = [
  'owner',
  'assignee',
  'location.site',
  'location.businessUnit',
  'actionProducer.name',
  ...NO_VALUE_FIELDS,
  // The priority's counter is kept by status already (`statusSplitFields`); paired, a priority's
  // overdue actions are one read too (counts by priority, each group's `overdue`): one counter
  // item more while an action is overdue, none for one that is not.
  'priority',
] as const satisfies readonly CountedName[];
type Paired = (typeof pairedFields)[number];

/**
 * Counted fields kept by status too, though not paired with `overdue`: the overdue count and each
 * priority's, so `status=~1,2&overdue=true` and `status=1&priority=>3` count exactly from a few
 * counters (`n#overdue#true` items `<shard>#<status>`). They cost a create nothing (the same one
 * item a counter), and a status edit moves them as it moves the total's.
 */
export const statusSplitFields = ['overdue', 'priority'] as const satisfies readonly CountedName[];
type StatusSplit = (typeof statusSplitFields)[number];
export type PairedCounter = `${Paired | StatusSplit}&status` | `${Paired}&overdue`;

export const byStatus = (field: Paired | StatusSplit): PairedCounter => `${field}&status`;
export const byOverdue = (field: Paired): PairedCounter => `${field}&overdue`;
/** The value a by-status counter counts: the status first (an integer), so no value can be mistaken for another. */
export const statusPair = (status: string | number, value: string) => `${status}#${value}`;

/** The counted fields, by their query parameter (those the catalogue marks `counted`), and their pairs; `all` is the total. */
export const countedFields: readonly CountedField[] = [
  'all',
  ...storedFieldList.flatMap((field) => (field.counted ? [field.name as CountedName] : [])),
  ...pairedFields.flatMap((field) => [byStatus(field), byOverdue(field)]),
  ...prefixCounters,
];

export type CountedField = 'all' | CountedName | PairedCounter | PrefixCounter;

/** Whether a query parameter is a counted field (the pairs are no parameter). */
export const isCounted = (field: string): field is CountedName =>
  field !== 'all' && !field.includes('&') && (countedFields as readonly string[]).includes(field);

/**
 * The value of each counted field, as filters compare it; `undefined` is not counted. Only
 * `overdue=true` is counted: stores made before `overdue` existed then need no new counters.
 */
export function countedValues(action: Action): Record<CountedField, string | undefined> {
  const values: Partial<Record<CountedField, string | undefined>> = { all: '' };
  for (const field of countedFields) {
    if (field === 'all' || field.includes('&')) continue;
    values[field] = countedValue(field as CountedName, action);
  }
  for (const field of pairedFields) {
    const value = values[field] as string;
    values[byStatus(field)] = statusPair(action.status, value);
    values[byOverdue(field)] = action.overdue ? value : undefined;
  }
  Object.assign(values, prefixCounterValues(action));
  return values as Record<CountedField, string | undefined>;
}

/** The partition of one counter: `n#status#2`, `n#all#`. */
export const counterKey = (field: CountedField, value: string | number) => `n#${field}#${value}`;

/*
 * "No value" of the location fields below the site (many companies never fill them): the counters
 * of `''` (`n#location.team#`, `n#location.team&overdue#`) share one item a (shard, status), an
 * attribute a field (`n#location.team`), in `n#location&none#` and `n#location&none&overdue#`
 * (issue 53, `KEY_VERSION` 14): a create without them moves one item, not five (2 write units, not
 * 10; a status change 4, not 20); `location.team=` reads that partition and sums its attribute.
 */
const noValueAttribute = (field: string) => `${attr.count}#${field}`;
/** The attributes of a "no value" item, one a field (a scan that projects counter items names them). */
export const noValueAttributes = (): string[] => NO_VALUE_FIELDS.map(noValueAttribute);
const noValuePartition = (overdue: boolean) => `n#location&none${overdue ? '&overdue' : ''}#`;
const noValueCells: ReadonlyMap<string, { key: string; attribute: string }> = new Map(
  NO_VALUE_FIELDS.flatMap((field) => [
    [counterKey(field, ''), { key: noValuePartition(false), attribute: noValueAttribute(field) }],
    [counterKey(byOverdue(field), ''), { key: noValuePartition(true), attribute: noValueAttribute(field) }],
  ]),
);
const isNoValuePartition = (key: string) => key === noValuePartition(false) || key === noValuePartition(true);

/** Where a cell is stored: a location field's "no value" in the shared item's attribute, any other where it is named. */
function placed(cell: CounterCell): CounterCell {
  const shared = noValueCells.get(cell.key);
  return shared ? { ...cell, ...shared } : cell;
}

/** The counter a cell counts toward, as `counterKey` names it: the same key, but `n#location.team#` for its "no value" attribute. */
export function counterOf(cell: CounterCell): string {
  if (cell.attribute === undefined) return cell.key;
  const field = cell.attribute.slice(noValueAttribute('').length) as Paired;
  return counterKey(cell.key === noValuePartition(true) ? byOverdue(field) : field, '');
}

/**
 * The counters kept by status: the total and each paired field's and location prefix's values.
 * Their items hold the status in the sort key (`<shard>#<status>`), so one item a (value,
 * status, shard) serves both the value's count (every item of its partition) and its count by
 * status (the items of that status): a create moves one counter where it moved two, each 2
 * write units in its transaction, and a value's counts by several statuses are one read. So
 * `status` and the `&status` pairs are read from these and stored nowhere of their own.
 */
const byStatusInKey: ReadonlySet<CountedField> = new Set<CountedField>([
  'all',
  ...pairedFields,
  ...statusSplitFields,
  ...prefixDepths.map(prefixCounter),
  // The overdue counters of each paired value and location prefix keep the status too: one
  // Query of a prefix's overdue partition counts a scope's overdue actions of any status set
  // (`GET /api/actions/counts?by=status` under 20 scopes reads 20 of them, not every match).
  // A create writes what it wrote; a status edit of an overdue action moves them as it moves
  // the total's.
  ...pairedFields.map(byOverdue),
  ...prefixDepths.map(prefixByOverdue),
]);

/** The counters stored: the counted fields less those read from the ones kept by status. */
const storedCounters = countedFields.filter((field) => field !== 'status' && !field.endsWith('&status'));

/**
 * The counters whose values share partitions: each value is one item, its sort key the value
 * itself, in one of `MEMBER_PARTITIONS` partitions picked by a digest of the value, so every
 * value's count is read at once (a Query of each partition) rather than a read a value. Only the
 * whole location's (`locationCounter`): a list on location fields sums every location's count
 * (`list/location-counts.ts`), and there can be thousands. Its items are not spread over the
 * action shards: two creates at one whole location at the same instant meet on one item (a
 * conflict the write retries), where a site's counter has 16 shards.
 */
const sharedPartitions: ReadonlySet<CountedField> = new Set<CountedField>([locationCounter]);

/** The partition of one of a shared counter's slices: `n#scope&7@07`. */
export const memberPartition = (field: CountedField, slice: number) => `n#${field}@${String(slice).padStart(2, '0')}`;

/** Where a counter is kept: its partition, and which status (a counter kept by status) or value (a shared one) in it. */
export interface CounterCell {
  key: string;
  status?: string;
  member?: string;
  /** The item's attribute that holds the count, when not `n`: a location field's "no value" (`placed`). */
  attribute?: string;
}

/** A cell as one string (a map key), and back. */
export const cellId = (cell: CounterCell) =>
  JSON.stringify([cell.key, cell.status ?? null, cell.member ?? null, ...(cell.attribute ? [cell.attribute] : [])]);
export function cellOf(id: string): CounterCell {
  const [key, status, member, attribute] = JSON.parse(id) as [string, string | null, string | null, string?];
  return {
    key,
    ...(status === null ? {} : { status }),
    ...(member === null ? {} : { member }),
    ...(attribute === undefined ? {} : { attribute }),
  };
}

/** The attribute of a cell's item that holds its count. */
export const countAttribute = (cell: CounterCell) => cell.attribute ?? attr.count;

/** The sort key of a cell's item on one shard: `07`, `07#2` for status 2, the value itself in a shared counter. */
export const cellSortKey = (shard: number, cell: CounterCell) =>
  cell.member ??
  (cell.status === undefined ? itemKind.counterShard(shard) : `${itemKind.counterShard(shard)}#${cell.status}`);

/** The table key of a cell's item on one shard (the first, for a repair or a count written whole). */
export const cellKey = (cell: CounterCell, shard = 0) => ({
  [attr.id]: cell.key,
  [attr.sortKey]: cellSortKey(shard, cell),
});

/** Whether a partition is one of a shared counter's slices. */
const isMemberPartition = (key: string) => [...sharedPartitions].some((field) => key.startsWith(`n#${field}@`));

/** The cell a stored counter item counts toward (the item, for one holding several: `countsOfItem`). */
export function cellOfItem(item: Record<string, unknown>): CounterCell {
  const key = String(item[attr.id]);
  const sortKey = String(item[attr.sortKey]);
  if (isMemberPartition(key)) return { key, member: sortKey };
  const status = sortKey.split('#')[1];
  return status === undefined ? { key } : { key, status };
}

/** Each cell a stored counter item holds, with its count: one, or a "no value" item's one a field. */
export function countsOfItem(item: Record<string, unknown>): Array<[CounterCell, number]> {
  const cell = cellOfItem(item);
  if (!isNoValuePartition(cell.key)) return [[cell, Number(item[attr.count] ?? 0)]];
  return Object.keys(item)
    .filter((name) => name.startsWith(noValueAttribute('')))
    .map((attribute) => [{ ...cell, attribute }, Number(item[attribute] ?? 0)]);
}

/** Where the count of one value of a counted field is read: `status=2` is the total's status-2 items. */
export function counterCell(field: CountedField, value: string | number): CounterCell {
  if (field === 'status') return { key: counterKey('all', ''), status: String(value) };
  if (sharedPartitions.has(field)) {
    const member = String(value);
    return { key: memberPartition(field, sliceOf(member)), member };
  }
  if (field.endsWith('&status')) {
    const text = String(value);
    const cut = text.indexOf('#');
    return placed({
      key: counterKey(field.slice(0, -'&status'.length) as CountedField, text.slice(cut + 1)),
      status: text.slice(0, cut),
    });
  }
  return placed({ key: counterKey(field, value) });
}

/** The counter cells one action adds one to. */
export function counterCells(action: Action): CounterCell[] {
  const values = countedValues(action);
  const status = String(action.status);
  return storedCounters.flatMap((field) => {
    const value = values[field];
    if (value === undefined) return [];
    if (sharedPartitions.has(field)) return [counterCell(field, value)];
    const key = counterKey(field, value);
    return [placed(byStatusInKey.has(field) ? { key, status } : { key })];
  });
}

export interface CounterMove extends CounterCell {
  delta: number;
}

/**
 * The counter moves a write makes: `before` undefined for a create, `after` undefined for a
 * delete; an edit moves only the cells that differ (a status change moves each kept-by-status
 * counter from the old status's cell to the new one's).
 */
export function counterMoves(before: Action | undefined, after: Action | undefined): CounterMove[] {
  const cells = (action?: Action) => new Map((action ? counterCells(action) : []).map((cell) => [cellId(cell), cell]));
  const [old, next] = [cells(before), cells(after)];
  const moved = (from: Map<string, CounterCell>, to: Map<string, CounterCell>, delta: number) =>
    [...from].flatMap(([id, cell]) => (to.has(id) ? [] : [{ ...cell, delta }]));
  return [...moved(old, next, -1), ...moved(next, old, 1)];
}

/**
 * The transaction items that apply `moves` for the action `id` (on the shard of its id): one an
 * item, adding to each of its attributes moved (a transaction names an item once).
 */
export function counterUpdates(id: string, moves: CounterMove[]) {
  const shard = shardOf(id);
  const items = new Map<string, CounterMove[]>();
  for (const move of moves) {
    const item = JSON.stringify(cellKey(move, shard));
    items.set(item, [...(items.get(item) ?? []), move]);
  }
  return [...items.values()].map((moved) => ({
    Update: {
      TableName: tableName(),
      Key: cellKey(moved[0] as CounterMove, shard),
      ...addExpression(moved.map((move) => [countAttribute(move), move.delta])),
    },
  }));
}

/** What counting read, for the list's cost report; with `shared`, the reads it shares (`newStats`). */
export interface CountStats {
  readUnits: number;
  requests: number;
  readonly shared?: SharedReads;
}

/** Bounds on a partition's sort keys: `from` inclusive, `to` inclusive too (DynamoDB's BETWEEN). */
export interface SortKeyRange {
  from?: string;
  to?: string;
}

/** The sort key condition for `range`, if it bounds anything. */
function sortKeyCondition({ from, to }: SortKeyRange): SortCondition | undefined {
  if (from !== undefined && to !== undefined) return { op: 'between', from, to };
  if (from !== undefined) return { op: '>=', value: from };
  if (to !== undefined) return { op: '<=', value: to };
  return undefined;
}

/**
 * Every item of one partition of `table` (within `range`, if given), read strongly consistent,
 * page after page, each request's read units added to `stats`: a counter's shards, a field's
 * registered values, a range of day counters (`days.ts`); at most `maxItems` of them (each
 * request limited to what is left).
 */
export function readPartition(
  table: string,
  partition: string,
  stats?: CountStats,
  range: SortKeyRange = {},
  maxItems = Number.POSITIVE_INFINITY,
): Promise<Array<Record<string, unknown>>> {
  // A list's steps, and the lists of one counts request, read each counter once (`stats.shared`).
  const key = JSON.stringify([table, partition, range.from ?? null, range.to ?? null, maxItems]);
  return sharedRead(stats?.shared, `counter#${key}`, () => {
    const sort = sortKeyCondition(range);
    return queryAll(queryInput({ table, partition, ...(sort ? { sort } : {}), consistent: true }), {
      ...(stats ? { stats } : {}),
      maxItems,
    });
  });
}

/** The current value of one counter: every shard, read in one strongly consistent Query. */
export const readCount = (field: CountedField, value: string | number, stats?: CountStats): Promise<number> =>
  readCounts(field, [value], stats);

/**
 * The sum of the counts of several values of one field (each value once): each partition read
 * once, however many of its statuses are asked for; a shared counter's value is its one item.
 */
export async function readCounts(
  field: CountedField,
  values: ReadonlyArray<string | number>,
  stats?: CountStats,
): Promise<number> {
  // By partition and the attribute counted there (a "no value" item holds five fields' counts).
  const asked = new Map<string, Set<string> | 'all'>();
  const members: CounterCell[] = [];
  for (const value of new Set(values.map(String))) {
    const cell = counterCell(field, value);
    const { key, status } = cell;
    if (!canBeKey(key)) continue;
    if (cell.member !== undefined) {
      members.push(cell);
      continue;
    }
    const at = JSON.stringify([key, countAttribute(cell)]);
    const statuses = asked.get(at) ?? new Set<string>();
    if (status === undefined || statuses === 'all') asked.set(at, 'all');
    else asked.set(at, statuses.add(status));
  }
  const sum = (items: Array<Record<string, unknown>>, attribute: string = attr.count) =>
    items.reduce((total, item) => total + Number(item[attribute] ?? 0), 0);
  const counts = await settleAll<number[]>([
    ...[...asked].map(async ([at, statuses]) => {
      const [key, attribute] = JSON.parse(at) as [string, string];
      const items = await readPartition(tableName(), key, stats);
      return sum(
        items.filter((item) => statuses === 'all' || statuses.has(cellOfItem(item).status as string)),
        attribute,
      );
    }),
    ...members.map(async ({ key, member }) =>
      sum(await readPartition(tableName(), key, stats, { from: member, to: member })),
    ),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * One value's counts of a counter kept by status (`byStatusInKey`), by status: every shard read in
 * one strongly consistent Query (a value no key can hold has none).
 */
export async function readStatusCounts(
  field: CountedField,
  value: string | number,
  stats?: CountStats,
): Promise<Map<number, number>> {
  const cell = counterCell(field, value);
  const counts = new Map<number, number>();
  if (!canBeKey(cell.key)) return counts;
  for (const item of await readPartition(tableName(), cell.key, stats)) {
    const { status } = cellOfItem(item);
    if (status === undefined) continue;
    counts.set(Number(status), (counts.get(Number(status)) ?? 0) + Number(item[countAttribute(cell)] ?? 0));
  }
  return counts;
}

/**
 * Every value of a shared counter that some action has, with its count, read from all its
 * partitions at once; `undefined` when more than `max` values have a count, or when a slice holds
 * more than twice its share of `max` items (values at 0, which no write removes, count there:
 * the local upgrade's recount rewrites only counted ones), so a counter far past `max` reads at
 * most `2 x max` items.
 */
export async function readMembers(
  field: CountedField,
  max: number,
  stats?: CountStats,
): Promise<Map<string, number> | undefined> {
  const perSlice = Math.ceil((2 * max) / MEMBER_PARTITIONS);
  const slices = await settleAll(
    Array.from({ length: MEMBER_PARTITIONS }, (_, slice) =>
      readPartition(tableName(), memberPartition(field, slice), stats, {}, perSlice + 1),
    ),
  );
  const counts = new Map<string, number>();
  for (const items of slices) {
    if (items.length > perSlice) return undefined;
    for (const item of items) {
      const count = Number(item[attr.count] ?? 0);
      if (count !== 0) counts.set(String(item[attr.sortKey]), count);
    }
  }
  return counts.size > max ? undefined : counts;
}
