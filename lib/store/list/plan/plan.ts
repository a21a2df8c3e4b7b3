import { type FieldSpec, fieldsByName } from '../../../filter/fields';
import type { Clause, ListQuery, Sort } from '../../../filter/query';
import { UNASSIGNED } from '../../../model/action';
import { ReminderLevel } from '../../../model/reminders';
import { equalityFields, storedFieldList } from '../../catalogue';
import type { StoredClause } from '../../fields';
import { type IndexDefinition, indexes } from '../../indexes';
import {
  attr,
  everythingPartitions,
  priorityKeyPrefix,
  reminderPartitions,
  TITLE_KEY_AFTER,
  TITLE_KEY_SEPARATOR,
} from '../../table';
import { valueHolds } from './expression';
import { clauseIn, orderAttribute, orderedIndexes } from './index-holds';

/**
 * The query planner: picks the cheapest way to find every match of a list query. DynamoDB
 * charges for every byte a query reads, filtered or not, and `totalCount` must count every
 * match, so the plan expected to read the fewest bytes wins. Plans are plain data.
 *
 * The estimate is (share of the table the key condition keeps) x (bytes per index entry):
 * - an equality index keeps `selectivity` of the table per value asked for;
 * - a key range on a date or title keeps `RANGE_SHARE` of what it ranges over;
 * - an entry holding only keys is ~100 bytes, a few projected values add ~40 each, and the
 *   map of every filter value makes it ~500 (the benchmark measures 103, 138 and 490-526).
 * An index can serve a query only if its entries hold every value the filter and the sort need.
 */

/** Bounds on an index sort key: `lower` inclusive, `upper` exclusive. */
export interface KeyRange {
  lower?: string;
  upper?: string;
}

/** A read of one index: every partition listed, within `range`, keeping what `filter` matches. */
export interface IndexRead {
  index: IndexDefinition;
  partitions: Array<string | number>;
  range?: KeyRange;
  /**
   * Several key ranges instead of `range`, each read as it would be (`title=~a,b`: one title's
   * range of `all-by-title` each); only a read of every match has them, never a walk.
   */
  ranges?: KeyRange[];
  /** Clauses the key condition does not already guarantee: the filter expression. */
  filter: StoredClause[];
}

export interface Plan {
  /** Reads every match. */
  read: IndexRead;
  /** The stored attribute to order matches by (ties by createdAt, then id), in the requested direction. */
  sortAttribute: string;
  descending: boolean;
  /** The filters contradict each other; nothing can match. */
  empty: boolean;
  /** How many index entries the read is expected to cover (exact where counters know it). */
  entries: number;
  /**
   * `entries` is a count, not a guess: the counters know every value the key condition names
   * and no key range narrows the read. Only an exact figure may refuse a list before it reads;
   * a guess (the share a date range keeps) never lets it read more than the budget either,
   * since every read stops when the budget runs out (`lib/store/query/budget.ts`).
   */
  exact: boolean;
  /**
   * How to read the page in order when reading every match would pass the budget: the cheapest
   * walk of an index that already keeps the list's order (see `Walk`); none when no index keeps
   * it (a sort on a field no ordered index orders, such as `status`).
   */
  walk?: Walk;
  /**
   * When no index walk keeps the list's order: the sort field's equality index, whose partitions
   * (one per value) each keep `createdAt`, then id, order, with every filter as its filter
   * expression; `value-walk.ts` reads its partitions in value order (partitions filled there,
   * from the counters or the value registry).
   */
  byValue?: IndexRead;
}

/**
 * A read that finds matches in the list's order, so it can stop as soon as the page is full (or
 * the budget is spent) and still answer an exact page: the partitions of `read.index` merged by
 * its sort key, which is the order of the list (ties by id). `fetch`: the index holds only keys
 * (or too little to evaluate the filters), so each entry's action is fetched and `clauses` are
 * evaluated on it in memory; every fetched action is charged to the budget as an entry.
 *
 * The candidate plans of a list are a list of costed alternatives (`alternatives` in `plan`): a
 * full read of every match (then sorted), an ordered walk, a fetching walk; another kind of plan
 * (a search index) joins that list in the one place the alternatives are gathered.
 */
export interface Walk {
  read: IndexRead;
  fetch: boolean;
  /** The clauses a fetching walk evaluates on each action (the key range already applied). */
  clauses: Clause[];
  /** Rough bytes read per entry, for ranking walks. */
  cost: number;
  /** How many index entries `read` covers, as the planner estimates them (a count where the counters know it). */
  entries: number;
  /** The action an entry is of, where it is not the entry's `id` (the reference order's entries, `reference-walk.ts`). */
  idOf?: (entry: Record<string, unknown>) => string;
}

/**
 * What the counters say before anything is read: the number of actions, and the count of each
 * value of the equality-indexed fields the query names. Without it the planner falls back on
 * rough shares of the table.
 */
export interface Sizes {
  total: number;
  /** Field name (`status`) -> value (`'2'`) -> number of actions. */
  values: Record<string, Record<string, number>>;
  /** Every status some action has, with its count: read when a clause on `status` is a `!`, `<` or `>`. */
  statuses?: Record<string, number>;
}

/**
 * The partitions of `reminders-by-due` that hold the overdue actions (the overdue and escalated
 * levels; an action is in the index only while open), in due order: `overdue=true` by due time.
 */
export const overdueByDuePartitions: readonly string[] = [
  ...reminderPartitions(ReminderLevel.overdue),
  ...reminderPartitions(ReminderLevel.escalated),
];

/** The most values of one field a counted list merges (`run/counted.ts`); a longer `~` list is the planner's. */
export const MAX_MERGED_VALUES = 10;

export const DEFAULT_SORT: Sort = { field: fieldsByName.get('createdAt') as FieldSpec, descending: true };

interface EqualityIndex {
  index: IndexDefinition;
  /** Rough share of the table one value matches; only the ranking between plans matters. */
  selectivity: number;
  /** The same partitions in other orders (a site's actions by due time). */
  ordered?: readonly IndexDefinition[];
  /** The partition of the empty value, when the index keeps one. */
  empty?: string;
}

/** The fields an index serves by value, from the catalogue (`lib/store/catalogue.ts`). */
export const equalityIndexes: Record<string, EqualityIndex> = Object.fromEntries(
  equalityFields.flatMap(({ name, equality }) => (equality ? [[name, equality]] : [])),
);

/** The share of actions overdue when the counters are not asked: a guess, for ranking plans only. */
const OVERDUE_SHARE = 0.1;

/** "Nobody" is one assignee value, but a common one: a third of actions, not one person's share. */
const UNASSIGNED_SHARE = 0.3;

/** Whether the counters know how many actions have this value. */
const isCountedValue = (field: string, value: string | number, sizes?: Sizes): boolean =>
  sizes?.values[field]?.[String(value)] !== undefined;

function valueShare(field: string, value: string | number, equality: EqualityIndex, sizes?: Sizes): number {
  const counted = sizes?.values[field]?.[String(value)];
  if (counted !== undefined && sizes) return sizes.total === 0 ? 0 : counted / sizes.total;
  return field === 'assignee' && value === UNASSIGNED.id ? UNASSIGNED_SHARE : equality.selectivity;
}

/** Bytes per entry, roughly: see the estimate above. */
export function entryBytes(index: IndexDefinition): number {
  if (index.projection === 'keys') return 100;
  if (index.projection.includes(attr.filters)) return 500;
  return 100 + 40 * index.projection.length;
}

/** The share of the table one `=` on a date or title keeps (a day, one title). */
const EQUAL_SHARE = 0.01;
/** The share a range bounded on both sides keeps, and on one side. */
const RANGE_SHARE = { bounded: 0.1, open: 0.5 } as const;

interface Candidate {
  read: IndexRead;
  sortAttribute: string;
  cost: number;
  entries: number;
  exact: boolean;
}

type Alternative = ({ kind: 'read' } & Candidate) | ({ kind: 'walk' } & Walk);

/** What a fetching walk reads per entry: the key entry and the whole action (about 2 KB). */
const FETCH_BYTES = 2_100;

/**
 * The plan of a list. `matches`: the list's count when the counters give it, so walks are ranked
 * by what they read for the page (`walkBytes`), not by the bytes of every entry they cover.
 */
export function plan(query: ListQuery, sizes?: Sizes, matches?: number): Plan {
  const sort = query.sort ?? DEFAULT_SORT;
  const { filters } = query;
  const total = sizes?.total ?? Number.POSITIVE_INFINITY;

  const empty = contradiction(filters);
  if (empty)
    return {
      read: empty,
      sortAttribute: attr.createdKey,
      descending: sort.descending,
      empty: true,
      entries: 0,
      exact: true,
    };

  /**
   * Every way to answer the list, costed: full reads (`read`: every match, then sorted) and
   * ordered walks (`walk`); the choice below takes the cheapest of each kind. A title search
   * (`*`) is not among them: it is answered before any plan is made (`searched.ts`, tried first
   * by `run/open.ts`).
   */
  const alternatives: Alternative[] = [];
  /** Adds the reads of `index` if it can evaluate every clause left to filter and the sort. */
  const consider = (
    index: IndexDefinition,
    partitions: Array<string | number>,
    rest: Clause[],
    share: number,
    counted: boolean,
    ranges?: KeyRange[],
  ) => {
    const { range, remaining } = ranges ? { range: undefined, remaining: rest } : keyRangeFor(index, rest);
    const filter = remaining.map((clause) => clauseIn(index, clause));
    // A count-only call (`limit=0`) orders nothing, so any index can serve it.
    const sortAttribute = query.limit === 0 ? index.sortKey.name : orderAttribute(index, sort.field);
    if (sortAttribute === undefined || filter.some((c) => c === undefined)) return;
    const ranged = range ? rangeShare(index, rest, sizes) : { share: 1, exact: true };
    const kept = share * ranged.share;
    const cost = kept * entryBytes(index);
    const read = {
      index,
      partitions,
      ...(range ? { range } : {}),
      ...(ranges ? { ranges } : {}),
      filter: filter as StoredClause[],
    };
    const exact = sizes !== undefined && counted && ranged.exact;
    const entries = exact ? Math.round(kept * total) : Math.ceil(kept * total);
    alternatives.push({ kind: 'read', read, sortAttribute, cost, entries, exact });
    // An index whose own key is the list's order can be walked a page at a time (one range).
    if (query.limit > 0 && !ranges && sortAttribute === index.sortKey.name)
      alternatives.push({ kind: 'walk', read, fetch: false, clauses: [], cost, entries });
  };

  for (const clause of filters) {
    const equality = equalityIndexes[clause.field.name];
    if (!equality || (clause.op !== '=' && clause.op !== '~')) continue;
    const values = [...new Set<string | number>(clause.values as Array<string | number>)];
    // DynamoDB refuses an empty key: the reference index leaves out actions whose value is empty,
    // the site and business unit indexes keep them under a stand-in, which no value can be.
    const { empty } = equality;
    if (values.includes('') && empty === undefined) continue;
    if (empty !== undefined && values.includes(empty)) continue;
    const partitions = values.map((v) => (v === '' && empty !== undefined ? empty : v));
    const share = values.reduce<number>((sum, v) => sum + valueShare(clause.field.name, v, equality, sizes), 0);
    // The field's own index (`createdAt` order), then any that keeps its partitions in another order.
    for (const index of [equality.index, ...(equality.ordered ?? [])])
      consider(
        index,
        partitions,
        filters.filter((c) => c !== clause),
        share,
        values.every((v) => isCountedValue(clause.field.name, v, sizes)),
      );
  }
  // `title=~a,b`: each title (folded, as its counter counts it) is a key range of the title index,
  // so every match is read from those ranges alone, as many entries as the counters say.
  const titles = filters.find((c) => c.field.name === 'title' && c.op === '~' && c.type === 'text');
  const titleIndex = orderedIndexes.title;
  if (titles && titleIndex && !filters.some((c) => c !== titles && c.field.name === 'title')) {
    const values = [...new Set(titles.values as string[])];
    const ranges = values.map((v) => boundsOf({ ...titles, op: '=', values: [v] } as Clause));
    if (ranges.every((r) => r !== undefined)) {
      const counts = values.map((v) => sizes?.values.title?.[v]);
      const known = counts.every((n) => n !== undefined);
      const share =
        known && sizes
          ? sizes.total === 0
            ? 0
            : counts.reduce<number>((a, n) => a + (n ?? 0), 0) / sizes.total
          : values.length * EQUAL_SHARE;
      consider(
        titleIndex,
        [...everythingPartitions],
        filters.filter((c) => c !== titles),
        share,
        known,
        ranges as KeyRange[],
      );
    }
  }
  // `overdue=true` reads only overdue actions, from their sparse index; the counter knows how many.
  const overdue = filters.find((c) => c.type === 'boolean' && c.field.name === 'overdue' && c.values[0] === true);
  if (overdue) {
    const counted = sizes?.values.overdue?.true;
    const share = counted !== undefined && sizes ? (sizes.total === 0 ? 0 : counted / sizes.total) : OVERDUE_SHARE;
    consider(
      indexes.overdueByCreated,
      [...everythingPartitions],
      filters.filter((c) => c !== overdue),
      share,
      counted !== undefined,
    );
  }
  // Clauses on `status` that list no values (`!`, `<`, `>`): the statuses they hold for, when the
  // counters enumerated every status, read as a `~` of them (`status=!3&status=!4` newest first
  // merges the open statuses' partitions).
  const onStatus = filters.filter((c) => c.field.name === 'status');
  if (sizes?.statuses && onStatus.some((c) => c.op !== '=' && c.op !== '~')) {
    const status = equalityIndexes.status as EqualityIndex;
    const held = Object.entries(sizes.statuses).filter(([value]) =>
      valueHolds(onStatus, onStatus[0]?.field as FieldSpec, Number(value)),
    );
    const count = held.reduce((sum, [, n]) => sum + n, 0);
    const share = sizes.total === 0 ? 0 : count / sizes.total;
    const rest = filters.filter((c) => c.field.name !== 'status');
    for (const index of [status.index, ...(status.ordered ?? [])])
      consider(
        index,
        held.map(([value]) => Number(value)),
        rest,
        share,
        true,
      );
  }
  for (const index of Object.values(orderedIndexes)) consider(index, [...everythingPartitions], filters, 1, true);
  // Overdue actions by due time: the sweep's queue keeps them in due order (`reminders-by-due`,
  // keys only), so a walk of it fetches each entry's action and filters it (`status=~1,2`); it
  // covers only the overdue actions, which the counter knows.
  const sortsByDue = orderedIndexes[sort.field.name]?.sortKey.name === indexes.remindersByDue.sortKey.name;
  if (overdue && query.limit > 0 && sortsByDue) {
    const { range, remaining } = keyRangeFor(indexes.remindersByDue, filters);
    const counted = sizes?.values.overdue?.true;
    alternatives.push({
      kind: 'walk',
      read: {
        index: indexes.remindersByDue,
        partitions: [...overdueByDuePartitions],
        ...(range ? { range } : {}),
        filter: [],
      },
      fetch: true,
      clauses: remaining,
      cost: FETCH_BYTES,
      entries: Math.ceil(
        (counted ?? total * OVERDUE_SHARE) * (range ? rangeShare(indexes.remindersByDue, filters, sizes).share : 1),
      ),
    });
  }
  // The sort's own ordered index, fetching each entry's action to filter it: the costliest walk,
  // but one every sort on an ordered field has.
  const ordered = orderedIndexes[sort.field.name];
  if (query.limit > 0 && ordered) {
    const { range, remaining } = keyRangeFor(ordered, filters);
    alternatives.push({
      kind: 'walk',
      read: { index: ordered, partitions: [...everythingPartitions], ...(range ? { range } : {}), filter: [] },
      fetch: true,
      clauses: remaining,
      cost: FETCH_BYTES,
      entries: Math.ceil(total * (range ? rangeShare(ordered, filters, sizes).share : 1)),
    });
  }
  // One entry past the page says whether more follow.
  const window = query.skip + query.limit + 1;
  const bytes = (a: Alternative) =>
    a.kind === 'walk' && matches !== undefined ? walkBytes(a, matches, window) : a.cost;
  const cheapest = <K extends Alternative['kind']>(kind: K) =>
    alternatives
      .filter((a): a is Extract<Alternative, { kind: K }> => a.kind === kind)
      .reduce<Extract<Alternative, { kind: K }> | undefined>((b, a) => (b && bytes(b) <= bytes(a) ? b : a), undefined);
  const best = cheapest('read');
  const walk = cheapest('walk');

  // `all-by-due` projects every filter value and orders by a field it holds, so some read always applies.
  const chosen = best as Candidate;
  return {
    read: chosen.read,
    sortAttribute: chosen.sortAttribute,
    descending: sort.descending,
    empty: false,
    entries: chosen.entries,
    exact: chosen.exact,
    ...(walk
      ? { walk: { read: walk.read, fetch: walk.fetch, clauses: walk.clauses, cost: walk.cost, entries: walk.entries } }
      : {}),
    ...(query.limit > 0 && !walk ? valueRead(sort.field, filters) : {}),
  };
}

/** The bytes reading every match of a plan reads (then sorted in memory). Pure. */
export const sortBytes = (chosen: Plan): number => chosen.entries * entryBytes(chosen.read.index);

/**
 * The bytes a walk reads for the first `window` of `matches` (a count the counters gave). A walk
 * merges its partitions, each of which must offer a match (or end) before the merge takes one,
 * and then reads on for each match taken: about `(partitions + window) / matches` of its
 * entries, or all of them. Pure.
 */
export function walkBytes(walk: Walk, matches: number, window: number): number {
  const needed = walk.read.partitions.length + window;
  const share = matches <= needed ? 1 : needed / matches;
  return walk.entries * share * (walk.fetch ? FETCH_BYTES : entryBytes(walk.read.index));
}

/** Whether reading every match of `chosen` and sorting them reads fewer bytes than its walk does for the first `window` of `matches`. Pure. */
export const sortBeatsWalk = (chosen: Plan, matches: number, window: number): boolean =>
  !chosen.walk || sortBytes(chosen) < walkBytes(chosen.walk, matches, window);

/**
 * The read of a sort field's value partitions (`Plan.byValue`), for a counted field no index
 * orders whose equality index is ordered by the created key, so each partition is already in the
 * tie order: `status` (not sparse: every action is in a partition; its values enumerated from its
 * counters) and the counted string fields, a site, a business unit, a producer (their values read
 * from the value registry, `../registry.ts`; the sparse indexes leave out '', which
 * `value-walk.ts` reads apart).
 */
function valueRead(field: FieldSpec, filters: Clause[]): { byValue: IndexRead } | Record<string, never> {
  const spec = storedFieldList.find((f) => f.name === field.name);
  const index = spec?.equality?.index;
  if (!spec?.counted || spec.ordered || !index || index.sortKey.name !== attr.createdKey) return {};
  if (!(spec.type === 'string' || (spec.type === 'integer' && !spec.equality?.sparse))) return {};
  const filter = filters.map((clause) => clauseIn(index, clause));
  if (filter.some((c) => c === undefined)) return {};
  return { byValue: { index, partitions: [], filter: filter as StoredClause[] } };
}

/**
 * The share of a partition the key range over `clauses` keeps: exact only for one counted
 * priority or title; the share of a date range, or of a title the counters were not asked, is a guess.
 */
function rangeShare(index: IndexDefinition, clauses: Clause[], sizes?: Sizes): { share: number; exact: boolean } {
  const field = orderedFieldOf(index);
  const bounding = clauses.filter((c) => c.field.name === field && boundsOf(c) !== undefined);
  const equal = bounding.find((c) => c.op === '=');
  // One priority is one counted value: the counters know its share.
  const equality = field === undefined ? undefined : equalityIndexes[field];
  if (equal && equality) {
    const value = equal.values[0] as number;
    return {
      share: valueShare(field as string, value, equality, sizes),
      exact: isCountedValue(field as string, value, sizes),
    };
  }
  // So is one title (folded, as its counter counts it), though no equality index keeps it.
  const counted = equal && sizes?.values[field as string]?.[String(equal.values[0])];
  if (typeof counted === 'number' && sizes)
    return { share: sizes.total === 0 ? 0 : counted / sizes.total, exact: true };
  if (equal) return { share: EQUAL_SHARE, exact: false };
  const hasLower = bounding.some((c) => c.op === '>');
  const hasUpper = bounding.some((c) => c.op === '<');
  return { share: hasLower && hasUpper ? RANGE_SHARE.bounded : RANGE_SHARE.open, exact: false };
}

/** An empty read when the bounds on some ordered field, or the values of an equality field, cannot all hold. */
function contradiction(filters: Clause[]): IndexRead | undefined {
  for (const index of Object.values(orderedIndexes)) {
    if (keyRangeFor(index, filters).empty) return { index, partitions: [], filter: [] };
  }
  for (const name of Object.keys(equalityIndexes)) {
    const lists = filters.filter((c) => c.field.name === name && (c.op === '=' || c.op === '~'));
    if (lists.length < 2) continue;
    const [first, ...others] = lists.map((c) => new Set<unknown>(c.values));
    const common = [...(first as Set<unknown>)].filter((v) => others.every((s) => s.has(v)));
    if (common.length === 0) return { index: indexes.allByCreated, partitions: [], filter: [] };
  }
  return undefined;
}

const orderedFieldOf = (index: IndexDefinition) =>
  Object.entries(orderedIndexes).find(([, i]) => i.sortKey.name === index.sortKey.name)?.[0];

/**
 * Folds the clauses that the index sort key can answer (`=`, `<`, `>` on the field it orders)
 * into one key range, and returns the rest as the filter.
 */
export function keyRangeFor(
  index: IndexDefinition,
  clauses: Clause[],
): { range?: KeyRange; remaining: Clause[]; empty: boolean } {
  const fieldName = orderedFieldOf(index);
  let lower: string | undefined;
  let upper: string | undefined;
  const remaining: Clause[] = [];
  for (const clause of clauses) {
    const bounds = clause.field.name === fieldName ? boundsOf(clause) : undefined;
    if (!bounds) {
      remaining.push(clause);
      continue;
    }
    if (bounds.lower !== undefined && (lower === undefined || bounds.lower > lower)) lower = bounds.lower;
    if (bounds.upper !== undefined && (upper === undefined || bounds.upper < upper)) upper = bounds.upper;
  }
  if (lower === undefined && upper === undefined) return { remaining, empty: false };
  const range: KeyRange = { ...(lower !== undefined ? { lower } : {}), ...(upper !== undefined ? { upper } : {}) };
  return { range, remaining, empty: lower !== undefined && upper !== undefined && lower >= upper };
}

/**
 * Key bounds for one clause. Date keys are `<iso>#<createdAt>#<id>` (the created key itself
 * `<iso>#<id>`) and priority keys `<padded priority>#<createdAt>#<id>`: `#` sorts below every
 * character that follows it and `$` just above `#`. Title keys are
 * `<lower title>\u0001<createdAt>\u0001<id>`, with `\u0002` just above the separator.
 */
function boundsOf(clause: Clause): KeyRange | undefined {
  if (clause.type === 'integer' && clause.values.length === 1) {
    const v = priorityKeyPrefix(clause.values[0] as number);
    if (clause.op === '=') return { lower: `${v}#`, upper: `${v}$` };
    if (clause.op === '<') return { upper: `${v}#` };
    if (clause.op === '>') return { lower: `${v}$` };
  }
  if (clause.type === 'date' && clause.values.length === 1) {
    const [v] = clause.values as [(typeof clause.values)[number]];
    const start = v.kind === 'day' ? `${v.start}#` : `${v.at}#`;
    const end = v.kind === 'day' ? `${v.end}#` : `${v.at}$`;
    if (clause.op === '=') return { lower: start, upper: end };
    if (clause.op === '<') return { upper: start };
    if (clause.op === '>') return { lower: end };
  }
  if (clause.type === 'text' && clause.values.length === 1) {
    const [v] = clause.values as [string];
    // Titles cannot hold control characters; a value with one would break the key encoding.
    if (/[\u0000-\u001f]/.test(v)) return undefined;
    if (clause.op === '=') return { lower: v + TITLE_KEY_SEPARATOR, upper: v + TITLE_KEY_AFTER };
    if (clause.op === '<') return { upper: v + TITLE_KEY_SEPARATOR };
    if (clause.op === '>') return { lower: v + TITLE_KEY_AFTER };
  }
  return undefined;
}
