import { getReminderSettings } from '../../../config';
import { nowIso } from '../../../dates';
import type { Clause, ListQuery } from '../../../filter/query';
import { settleAll as all, inPool } from '../../../flow/fan-out';
import { type CountStats, readCount, readCounts, readStatusCounts } from '../../counters/counters';
import {
  DAY_COUNTERS,
  type DayField,
  dayCount,
  dayFields,
  dayOfItem,
  dueByStatusOf,
  overdueByStatusOf,
  readDays,
} from '../../counters/days';
import { type IndexDefinition, indexes } from '../../indexes';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import { queryInput } from '../../query/key-query';
import { queryPage } from '../../query/pager';
import { attr, everythingPartitions, filterKey } from '../../table';
import { valueHolds } from '../plan/expression';
import type { ReadStats } from '../plan/result';
import {
  clausesSpans,
  countOtherDays,
  type DayRange,
  dayNumber,
  dayReads,
  daysWithin,
  dayText,
  inDays,
  inSpans,
  MAX_DAY,
  MIN_DAY,
  otherDays,
  SMALL_READ_DAYS,
  type Span,
  splitByDay,
  turnPartialDays,
  upTo,
} from './date-spans';

/**
 * Exact counts of a list whose only filters are on one date field (`createdAt`, `updatedAt` or
 * `dueAt`: one clause, a range of two, any of them): the whole days it covers summed from the
 * day counters (`../counters/days.ts`), one strongly consistent Query a run of days, or the total
 * less the other days when those are fewer; and the days it covers in part (a bound that is an
 * instant inside a day, an instant in a `~`) counted by reading that part of the field's
 * all-actions index, charged to the list's budget (at most half of what is left, as the planner
 * reads the page with the rest). Read units go to the list's stats, as the counters' do.
 */

type DateClause = Clause & { type: 'date' };

/** The index whose sort key starts with each date field's instant (`closedAt` has none: its order is table items). */
const dateIndexes: Partial<Record<DayField, IndexDefinition>> = {
  createdAt: indexes.allByCreated,
  updatedAt: indexes.allByUpdated,
  dueAt: indexes.allByDue,
};

/** `overdue=true`: beside clauses on `dueAt`, the due days' overdue counts (`overdueByStatusOf`) count it. */
const isOverdue = (clause: Clause): boolean =>
  clause.field.name === 'overdue' && clause.op === '=' && clause.values[0] === true;

/** The clauses on the date itself: not those on `status`, nor `overdue=true`. */
const dateClauses = (clauses: readonly Clause[]) => clauses.filter((c) => c.field.name !== 'status' && !isOverdue(c));

/**
 * The date field a query filters on alone (every clause on it), if it does; or `dueAt` with
 * clauses on `status` beside it ("open, due within a week"), which the due day's counts by status
 * (`dueByStatusOf`) count, or with `overdue=true` ("overdue 8-30 days"), which its overdue counts
 * by status (`overdueByStatusOf`) count.
 */
export function onOneDate(query: ListQuery): DayField | undefined {
  const dates = dateClauses(query.filters);
  const [first] = dates;
  if (first?.type !== 'date' || !(first.field.name in dayFields)) return undefined;
  if (dates.length < query.filters.length && first.field.name !== 'dueAt') return undefined;
  return dates.every((c) => c.type === 'date' && c.field.name === first.field.name)
    ? (first.field.name as DayField)
    : undefined;
}

/** Which statuses the clauses on `status` hold for; `undefined` without such clauses (every action counts). */
function statusTest(clauses: readonly Clause[]): ((status: number) => boolean) | undefined {
  const onStatus = clauses.filter((c) => c.field.name === 'status');
  const [first] = onStatus;
  return first === undefined ? undefined : (status) => valueHolds(onStatus, first.field, status);
}

/** Days partly covered that one count reads at most: each is a Query of every shard of the index. */
const MAX_PARTIAL_DAYS = 16;

/**
 * The exact count of a list filtered on one date field alone (`onOneDate`), or `undefined` when
 * its partial days do not fit half the budget left (then the planner counts as before).
 */
export async function dateTotal(
  field: DayField,
  clauses: readonly Clause[],
  stats: ReadStats,
  budget: ReadBudget,
): Promise<number | undefined> {
  const narrow: Narrowing = { holds: statusTest(clauses), overdue: clauses.some(isOverdue) };
  const dates = dateClauses(clauses);
  const { days, pieces, less } = turnPartialDays(splitByDay(clausesSpans(dates as DateClause[])));
  const [whole, partial, left, unset] = await all<[number, number | undefined, number | undefined, number]>([
    wholeDays(field, days, stats, narrow),
    partialDays(field, pieces, stats, budget, narrow),
    partialDays(field, less, stats, budget, narrow),
    unsetMatching(field, dates, stats),
  ]);
  return partial === undefined || left === undefined ? undefined : whole + partial - left + unset;
}

/** What narrows the actions a date count counts: clauses on status (`holds`) and `overdue=true`. */
interface Narrowing {
  holds?: (status: number) => boolean;
  overdue: boolean;
}

/** Whether a narrowing narrows at all (else every action with the date counts). Pure. */
const narrows = ({ holds, overdue }: Narrowing): boolean => holds !== undefined || overdue;

/** The sum of counts by status over the statuses the narrowing's status clauses hold for. Pure. */
const holding = ({ holds }: Narrowing, counts: Iterable<[number, number]>): number =>
  [...counts].reduce((sum, [status, n]) => sum + (!holds || holds(status) ? n : 0), 0);

/**
 * The actions that have `field` and so can be on a day: every action, but for `closedAt` only the
 * closed ones (the counters of the closed statuses), since an open action's is `null`.
 */
const holdingField = async (field: DayField, stats: ReadStats, narrow: Narrowing): Promise<number> => {
  if (narrows(narrow)) {
    const { overdue } = narrow;
    return holding(narrow, await readStatusCounts(overdue ? 'overdue' : 'all', overdue ? 'true' : '', stats));
  }
  return field === 'closedAt'
    ? readCounts('status', getReminderSettings().closedStatuses, stats)
    : readCount('all', '', stats);
};

/**
 * The actions whose `field` is not set and that still match: an open action's `closedAt` is on no
 * day, so it matches a `!` and nothing else (`clauseHolds`); with every clause a `!`, the open
 * actions count (every action less the closed ones). Always 0 for the dates every action has.
 */
async function unsetMatching(field: DayField, clauses: readonly Clause[], stats: ReadStats): Promise<number> {
  if (field !== 'closedAt' || !clauses.every((c) => c.op === '!')) return 0;
  const [total, closed] = await all<[number, number]>([
    readCount('all', '', stats),
    holdingField(field, stats, { overdue: false }),
  ]);
  return total - closed;
}

/** How many actions were created on the whole UTC days of `range`: the day counters, as a `createdAt` count reads them. */
export const createdOnDays = (range: DayRange, stats: ReadStats): Promise<number> =>
  wholeDays('createdAt', [range], stats, { overdue: false });

/** How many actions have `field` on one of `days`: those days' counters, or those holding it less the other days'. */
function wholeDays(field: DayField, days: DayRange[], stats: ReadStats, narrow: Narrowing): Promise<number> {
  // With clauses on status or `overdue=true`, the due day's counts (of its overdue actions) by
  // status, of the statuses they hold for.
  const countOf = (item: Record<string, unknown>) =>
    narrows(narrow)
      ? holding(narrow, (narrow.overdue ? overdueByStatusOf : dueByStatusOf)(item))
      : dayCount(item, field);
  // An overdue action is due before the sweep that marked it (a new `dueAt` re-arms its
  // reminders), so no day after today holds one (tomorrow, for a clock a little ahead of the sweep's).
  return countOnDays(days, narrow.overdue ? dayNumber(nowIso()) + 1 : MAX_DAY, stats, {
    partition: DAY_COUNTERS,
    countOf,
    total: () => holdingField(field, stats, narrow),
    held: () => heldDays(stats),
  });
}

/** One partition of day counters and what `countOnDays` counts from it. */
export interface DayCounters {
  /** The partition of day items: the service's (`DAY_COUNTERS`), or a business unit's or site's overdue due days (`overdueDaysOf`). */
  partition: string;
  /** What one day item counts. */
  countOf: (item: Record<string, unknown>) => number;
  /** Every action the days count: what the other days are taken from. */
  total: () => Promise<number>;
  /** The first and last days the partition holds, when both sides are long enough to ask. */
  held?: () => Promise<DayRange | undefined>;
}

/**
 * How many actions are on one of the whole `days` up to the day `last`: those days' counts
 * summed, or the total less the other days' when those are fewer (`countOtherDays`, within the
 * days the partition holds when both sides are long, else up to `last`). The one choice for the
 * service's days and a business unit's or site's overdue due days (`scope-count.ts`), so the
 * oldest `overdueAge` bucket reads the recent days, not years of them.
 */
export async function countOnDays(
  days: readonly DayRange[],
  last: number,
  stats: CountStats,
  counters: DayCounters,
): Promise<number> {
  const asked = upTo(days, last);
  if (asked.length === 0) return 0;
  const others = upTo(otherDays(asked), last);
  const span = { first: MIN_DAY, last };
  const few = Math.min(daysWithin(asked, span), daysWithin(others, span)) <= SMALL_READ_DAYS;
  // Only when both sides are long is it worth asking where the counters' days begin and end.
  const held = few || counters.held === undefined ? undefined : await counters.held();
  const within = held ? { first: held.first, last: Math.min(held.last, last) } : span;
  if (!countOtherDays(asked, within)) return sumDays(asked, stats, counters);
  const [total, other] = await all<[number, number]>([counters.total(), sumDays(others, stats, counters)]);
  return total - other;
}

/** The sum of the counts over the days of `ranges`, a Query per run of nearby days. */
async function sumDays(ranges: DayRange[], stats: CountStats, { partition, countOf }: DayCounters): Promise<number> {
  const sums = await all<number[]>(
    dayReads(ranges).map(async ({ first, last }) => {
      const items = await readDays(
        first <= MIN_DAY ? undefined : dayText(first),
        last >= MAX_DAY ? undefined : dayText(last),
        stats,
        partition,
      );
      return items.reduce((sum, item) => sum + (inDays(ranges, dayNumber(dayOfItem(item))) ? countOf(item) : 0), 0);
    }),
  );
  return sums.reduce((a, b) => a + b, 0);
}

/** The first and last days the day counters hold: two one-item Queries, for choosing what to read. */
async function heldDays(stats: ReadStats): Promise<DayRange | undefined> {
  const end = async (forward: boolean) => {
    const page = await queryPage(queryInput({ partition: DAY_COUNTERS, descending: !forward }), { stats }, 1);
    const item = page.Items?.[0];
    return item === undefined ? undefined : dayNumber(dayOfItem(item));
  };
  const [first, last] = await all<[number | undefined, number | undefined]>([end(true), end(false)]);
  return first === undefined || last === undefined ? undefined : { first, last };
}

/**
 * How many actions have `field` in one of `pieces` (parts of days): each day's part read from the
 * field's index, every shard from the piece's first instant to its last, only the keys. Within
 * half the budget left; `undefined` past it, or past `MAX_PARTIAL_DAYS`.
 */
async function partialDays(
  field: DayField,
  pieces: Span[],
  stats: ReadStats,
  budget: ReadBudget,
  { holds, overdue }: Narrowing,
): Promise<number | undefined> {
  if (pieces.length === 0) return 0;
  const byDay = new Map<number, Span[]>();
  for (const piece of pieces) byDay.set(dayNumber(piece.from), [...(byDay.get(dayNumber(piece.from)) ?? []), piece]);
  const index = dateIndexes[field];
  if (byDay.size > MAX_PARTIAL_DAYS || index === undefined) return undefined;
  const reads = [...byDay.values()].flatMap((inDay) => everythingPartitions.map((partition) => ({ inDay, partition })));
  const allowed = Math.floor(budget.available / 2);
  let read = 0;
  let count = 0;
  let over = false;
  await inPool(
    8,
    () => (over ? undefined : reads.pop()),
    async ({ inDay, partition }) => {
      // BETWEEN takes its upper bound too, but no key equals it: every key goes on past the instant.
      // With clauses on status, each entry's status too, and with `overdue=true` its overdue flag
      // (the index projects the filter map).
      const input = queryInput({
        index,
        partition,
        sort: { op: 'between', from: (inDay[0] as Span).from, to: (inDay[inDay.length - 1] as Span).to },
        projection: [
          index.sortKey.name,
          ...(holds ? [`${attr.filters}.${filterKey.status}`] : []),
          ...(overdue ? [`${attr.filters}.${filterKey.overdue}`] : []),
        ],
      });
      let startKey: Record<string, unknown> | undefined;
      do {
        if (read >= allowed || over) {
          over = true;
          return;
        }
        const page = await queryPage({ ...input, ExclusiveStartKey: startKey }, { budget, stats }, allowed - read);
        read += page.ScannedCount ?? 0;
        for (const item of page.Items ?? []) {
          const key = String(item[index.sortKey.name]);
          const filters = item[attr.filters] as Record<string, unknown> | undefined;
          const kept =
            (!holds || holds(Number(filters?.[filterKey.status]))) &&
            (!overdue || filters?.[filterKey.overdue] !== undefined);
          if (kept && inSpans(inDay, key.slice(0, key.indexOf('#')))) count++;
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    },
  ).catch((error: unknown) => {
    if (!(error instanceof BudgetSpent)) throw error;
    over = true;
  });
  return over ? undefined : count;
}
