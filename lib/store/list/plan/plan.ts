import { type FieldSpec, fieldsByName } from '../../../filter/fields';
import type { Clause, ListQuery, Sort } from '../../../filter/query';
import { UNASSIGNED } from '../../../model/action';
import { ReminderLevel } from '../../../model/reminders';
import { equalityFields, storedFieldList } from '../../catalogue';
import type { StoredClause } from '../../fields';
import { type IndexDefinition, indexes } from '../../indexes';
import { attr, everythingPartitions, reminderPartitions } from '../../table';
import { valueHolds } from './expression';
import { clauseIn, orderAttribute, orderedIndexes } from './index-holds';
import { boundsOf, keyRangeFor, orderedFieldOf } from './key-ranges';
import { type IndexRead, type KeyRange, type Plan, type Sizes, streamsOf, type Walk } from './plan-types';

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

export type { IndexRead, Plan, Sizes, Walk } from './plan-types';

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
    // An index whose own key is the list's order can be walked a page at a time (one range); so can
    // the title ranges of `title=~a,b` newest (or oldest) first, each range one title in created
    // order, merged by the created key: a title many actions share no longer needs every match read.
    const walkable = ranges ? sortAttribute === attr.createdKey : sortAttribute === index.sortKey.name;
    if (query.limit > 0 && walkable)
      alternatives.push({
        kind: 'walk',
        read,
        fetch: false,
        clauses: [],
        cost,
        entries,
        ...(ranges ? { mergeKey: attr.createdKey } : {}),
      });
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
  const overdueCount = sizes?.values.overdue?.true;
  const overdueShare =
    overdueCount !== undefined && sizes ? (sizes.total === 0 ? 0 : overdueCount / sizes.total) : OVERDUE_SHARE;
  if (overdue)
    consider(
      indexes.overdueByCreated,
      [...everythingPartitions],
      filters.filter((c) => c !== overdue),
      overdueShare,
      overdueCount !== undefined,
    );
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
  // every filter value projected), so a walk of its overdue levels filters each entry it reads
  // (`status=~1,2`, a business unit); it covers only the overdue actions, which the counter knows.
  if (
    overdue &&
    query.limit > 0 &&
    orderedIndexes[sort.field.name]?.sortKey.name === indexes.remindersByDue.sortKey.name
  )
    consider(indexes.remindersByDue, [...overdueByDuePartitions], filters, overdueShare, overdueCount !== undefined);
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
      ? {
          walk: {
            read: walk.read,
            fetch: walk.fetch,
            clauses: walk.clauses,
            cost: walk.cost,
            entries: walk.entries,
            ...(walk.mergeKey ? { mergeKey: walk.mergeKey } : {}),
          },
        }
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
  const needed = streamsOf(walk.read) + window;
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

/**
 * An empty read when the bounds on some ordered field, the values of an equality field, or the
 * values asked of a boolean (`overdue=true&overdue=false`, which the counts ask of their `none`
 * overdue-age group's overdue) cannot all hold.
 */
function contradiction(filters: Clause[]): IndexRead | undefined {
  const booleans = new Map<string, Set<boolean>>();
  for (const clause of filters)
    if (clause.type === 'boolean')
      booleans.set(clause.field.name, new Set([...(booleans.get(clause.field.name) ?? []), ...clause.values]));
  if ([...booleans.values()].some((values) => values.size > 1))
    return { index: indexes.allByCreated, partitions: [], filter: [] };
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
