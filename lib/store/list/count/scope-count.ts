import { nowIso } from '../../../dates';
import type { Clause, ListQuery } from '../../../filter/query';
import { type Scope, scopeFields } from '../../../model/access';
import { type LocationField, locationFields } from '../../../model/action';
import { EMPTY_KEY } from '../../catalogue';
import { byOverdue, type CountedField, type CountStats, readCount, readStatusCounts } from '../../counters/counters';
import { hasOverdueDays, overdueByStatusOf, overdueDaysOf } from '../../counters/days';
import { prefixByOverdue, prefixCounter, prefixDepths, scopePrefix } from '../../counters/prefixes';
import { indexes } from '../../indexes';
import { queryInput } from '../../query/key-query';
import { queryPages } from '../../query/pager';
import { attr, filterKey, filterPath, locationKeys } from '../../table';
import { valueHolds } from '../plan/expression';
import { overdueByStatus, statusesHolding } from './by-status';
import { countOnDays } from './date-counts';
import {
  before,
  clausesSpans,
  complement,
  dayNumber,
  dayStart,
  inSpans,
  intersect,
  type Span,
  splitByDay,
  unboundedBelow,
} from './date-spans';

/**
 * The exact count of a scoped list's part for one scope, from the counters alone (contract
 * section 14, "Cost"): the scope's prefix counter, with no other filter; its items by status with
 * clauses on `status` (any operator); its overdue counter with `overdue`, and with both (the
 * overdue counter's items keep the status: `by-status.ts`); with `overdue=true` and `dueAt` before
 * some instant, that counter less the scope's recent overdue actions (`overdueDueBefore`: the
 * counts' oldest `overdueAge`, which reads only the recent ones). A location filter
 * the scope already fixes is no filter (or, naming another value, matches nothing); one on the
 * field right below it that a deeper prefix counter counts makes the scope deeper (`deepened`). A one-field
 * scope is a business unit, counted by the business unit's own counters. `undefined` for any
 * other shape, which the planner then counts.
 */
export async function scopeCount(list: ListQuery, scope: Scope, stats: CountStats): Promise<number | undefined> {
  const fixed = scopeFields(scope);
  const rest: Clause[] = [];
  for (const clause of list.filters) {
    const field = clause.field.name.startsWith('location.')
      ? (clause.field.name.slice('location.'.length) as LocationField)
      : undefined;
    if (field !== undefined && fixed.includes(field) && (clause.op === '=' || clause.op === '~')) {
      if (!(clause.values as unknown[]).includes(scope[field])) return 0;
      continue;
    }
    rest.push(clause);
  }
  const { scopes, others: deeper } = deepened(scope, rest);
  const counts = await Promise.all(scopes.map((part) => countIn(part, deeper, stats)));
  if (counts.some((count) => count === undefined)) return undefined;
  return (counts as number[]).reduce((sum, count) => sum + count, 0);
}

/** How many prefixes one scope may be split into by the clauses that deepen it (`deepened`). */
const MAX_PREFIXES = 100;

/**
 * A scope made deeper by the list's `=` and `~` clauses on the location fields right below it, as
 * long as a prefix counter counts the deeper prefixes (a site scope with `location.department=Lab`
 * is the prefix counted three fields deep; with `~Lab,Pit`, two of them, which hold disjoint
 * actions). The clauses used are taken out of `others`. Pure.
 */
export function deepened(scope: Scope, clauses: readonly Clause[]): { scopes: Scope[]; others: Clause[] } {
  let scopes = [scope];
  let others = [...clauses];
  for (;;) {
    // Every scope of the list names the same fields.
    const depth = scopeFields(scopes[0] ?? scope).length;
    const next = locationFields[depth];
    if (next === undefined || !(prefixDepths as readonly number[]).includes(depth + 1)) break;
    const on = others.filter((c) => c.field.name === `location.${next}`);
    const [clause] = on;
    if (on.length !== 1 || clause === undefined || (clause.op !== '=' && clause.op !== '~')) break;
    const values = [...new Set(clause.values as string[])];
    if (scopes.length * values.length > MAX_PREFIXES) break;
    scopes = scopes.flatMap((part) => values.map((value) => ({ ...part, [next]: value })));
    others = others.filter((c) => c !== clause);
  }
  return { scopes, others };
}

/** The count of one scope (as deepened) under the clauses left: its counters, by status and overdue. */
async function countIn(scope: Scope, rest: readonly Clause[], stats: CountStats): Promise<number | undefined> {
  const counters = countersOf(scope);
  if (!counters) return undefined;
  const { total, overdue, value } = counters;
  const onStatus = rest.filter((c) => c.field.name === 'status');
  const others = rest.filter((c) => c.field.name !== 'status');
  const dues = others.filter((c): c is DateClause => c.type === 'date' && c.field.name === 'dueAt');
  if (dues.length > 0) {
    const [flag, ...more] = others.filter((c) => c.field.name !== 'dueAt');
    if (more.length > 0 || flag?.type !== 'boolean' || flag.field.name !== 'overdue' || flag.values[0] !== true)
      return undefined;
    return (
      (await overdueOnDays(scope, counters, dues, onStatus, stats)) ??
      overdueDueBefore(scope, counters, dues, onStatus, stats)
    );
  }
  if (others.length > 1) return undefined;
  const [other] = others;
  if (other === undefined) {
    if (onStatus.length === 0) return readCount(total, value, stats);
    return statusesHolding(onStatus, [await readStatusCounts(total, value, stats)]);
  }
  if (other.type !== 'boolean' || other.field.name !== 'overdue') return undefined;
  const late = other.values[0] === true;
  if (onStatus.length > 0)
    return overdueByStatus(onStatus, late, {
      overdue: async () => [await readStatusCounts(overdue, value, stats)],
      all: async () => [await readStatusCounts(total, value, stats)],
    });
  const [lateCount, all] = await Promise.all([
    readCount(overdue, value, stats),
    late ? Promise.resolve(0) : readCount(total, value, stats),
  ]);
  return late ? lateCount : all - lateCount;
}

type DateClause = Clause & { type: 'date' };

/**
 * A business unit's or a site scope's overdue actions due on whole days (`dueAt` clauses of days,
 * any operator, with or without clauses on status: every `overdueAge` bucket), summed from its
 * overdue due days (`overdueDaysOf` in `counters/days.ts`), one Query a run of days: a few small
 * items a day that has overdue actions, however many actions the scope holds; every day before
 * some day (the oldest bucket) as the scope's overdue counter less the days since, so not years of
 * days (`countOnDays`). `undefined` for a scope below the site (no days of its own) or a clause on
 * an instant inside a day.
 */
async function overdueOnDays(
  scope: Scope,
  counters: ScopeCounters,
  dues: readonly DateClause[],
  onStatus: Clause[],
  stats: CountStats,
): Promise<number | undefined> {
  const fields = scopeFields(scope);
  if (!hasOverdueDays(fields.length)) return undefined;
  const { days, pieces } = splitByDay(clausesSpans(dues));
  if (pieces.length > 0) return undefined;
  // No overdue action is due after today (tomorrow, for a clock a little ahead of the sweep's).
  return countOnDays(days, dayNumber(nowIso()) + 1, stats, {
    partition: overdueDaysOf(fields.map((field) => scope[field] as string)),
    countOf: (item) => statusesHolding(onStatus, [overdueByStatusOf(item)]),
    total: () => overdueTotal(counters, onStatus, stats),
  });
}

/** The most due-ordered entries `overdueDueBefore` reads for the recent days before the planner counts instead. */
const MAX_RECENT_ENTRIES = 2_000;

/**
 * A scope's overdue actions due before some instant, with or without clauses on status
 * ("overdue 91+ days", the counts' oldest `overdueAge`): its overdue counter (kept by status) less
 * its overdue actions due since, which are few and recent: an overdue action is due before the
 * sweep that marked it (a new `dueAt` re-arms its reminders), so they lie between that instant and
 * tomorrow. Those are read from the scope's site's due order (`by-site-by-due`), only their keys,
 * status, overdue flag and location. A backlog of old overdue actions then costs no read at all.
 * `undefined` (the planner counts) for date clauses with a lower bound, whose range the planner
 * reads already, for a business unit scope (no due order of its own), or past
 * `MAX_RECENT_ENTRIES` entries.
 */
async function overdueDueBefore(
  scope: Scope,
  counters: ScopeCounters,
  dues: readonly DateClause[],
  onStatus: Clause[],
  stats: CountStats,
): Promise<number | undefined> {
  const asked = clausesSpans(dues);
  if (asked.length === 0) return 0;
  if (!unboundedBelow(asked) || scope.site === undefined) return undefined;
  const tomorrowEnds = dayStart(dayNumber(nowIso()) + 2);
  const since = intersect(complement(asked), before(tomorrowEnds));
  const [total, recent] = await Promise.all([
    overdueTotal(counters, onStatus, stats),
    overdueIn(scope, since, onStatus, stats),
  ]);
  return recent === undefined ? undefined : total - recent;
}

/** The scope's overdue actions due within `spans` whose status the clauses hold for, read from its site's due order. */
async function overdueIn(
  scope: Scope,
  spans: readonly Span[],
  onStatus: Clause[],
  stats: CountStats,
): Promise<number | undefined> {
  const index = indexes.bySiteByDue;
  const fields = scopeFields(scope);
  const site = scope.site ?? '';
  const [first] = onStatus;
  let read = 0;
  let count = 0;
  for (const span of spans) {
    const input = queryInput({
      index,
      partition: site === '' ? EMPTY_KEY : site,
      sort: { op: 'between', from: span.from, to: span.to },
      projection: [
        index.sortKey.name,
        filterPath(filterKey.overdue),
        filterPath(filterKey.status),
        ...fields.map((f) => filterPath(locationKeys[f])),
      ],
    });
    for await (const page of queryPages(input, { stats, maxItems: MAX_RECENT_ENTRIES + 1 - read })) {
      read += page.Items?.length ?? 0;
      if (read > MAX_RECENT_ENTRIES) return undefined;
      for (const item of page.Items ?? []) {
        const key = String(item[index.sortKey.name]);
        const f = (item[attr.filters] ?? {}) as Record<string, unknown>;
        if (
          f[filterKey.overdue] !== undefined &&
          inSpans(spans, key.slice(0, key.indexOf('#'))) &&
          fields.every((field) => (f[locationKeys[field]] ?? '') === scope[field]) &&
          (first === undefined || valueHolds(onStatus, first.field, Number(f[filterKey.status])))
        )
          count++;
      }
    }
  }
  return count;
}

/** A scope's overdue actions of the statuses the clauses on status hold for (all without any): its overdue counter. */
const overdueTotal = ({ overdue, value }: ScopeCounters, onStatus: Clause[], stats: CountStats): Promise<number> =>
  onStatus.length > 0
    ? readStatusCounts(overdue, value, stats).then((counts) => statusesHolding(onStatus, [counts]))
    : readCount(overdue, value, stats);

/** A scope's counters, both kept by status (`counters.ts`): its total and its overdue, and the value they count it under. */
interface ScopeCounters {
  total: CountedField;
  overdue: CountedField;
  value: string;
}

/** The counters of a scope: its total and overdue, and the value they count it under. */
function countersOf(scope: Scope): ScopeCounters | undefined {
  const prefix = scopePrefix(scope);
  if (prefix) {
    const { depth, value } = prefix;
    return { total: prefixCounter(depth), overdue: prefixByOverdue(depth), value };
  }
  const unit = scope.businessUnit;
  if (unit === undefined || scopeFields(scope).length !== 1) return undefined;
  const field = 'location.businessUnit';
  return { total: field, overdue: byOverdue(field), value: unit };
}
