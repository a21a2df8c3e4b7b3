import type { Clause, ListQuery } from '../../../filter/query';
import { type Scope, scopeFields } from '../../../model/access';
import type { LocationField } from '../../../model/action';
import {
  byOverdue,
  byStatus,
  type CountedField,
  type CountStats,
  readCount,
  readCounts,
  readStatusCounts,
} from '../../counters/counters';
import { prefixByOverdue, prefixByStatus, prefixCounter, scopePrefix } from '../../counters/prefixes';

/**
 * The exact count of a scoped list's part for one scope, from the counters alone (contract
 * section 14, "Cost"): the scope's prefix counter, with no other filter; its (status, prefix)
 * counters with one `=`/`~` on `status`; its overdue counter with `overdue`, and with both (the
 * overdue counter's items keep the status). A location filter
 * the scope already fixes is no filter (or, naming another value, matches nothing). A one-field
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
  const counters = countersOf(scope);
  if (!counters || rest.length > 2) return undefined;
  const { total, status, overdue, value } = counters;
  if (rest.length === 2) return statusAndOverdue(rest as [Clause, Clause], counters, stats);
  const [clause] = rest;
  if (clause === undefined) return readCount(total, value, stats);
  if (clause.field.name === 'status' && (clause.op === '=' || clause.op === '~'))
    return readCounts(
      status,
      (clause.values as number[]).map((s) => `${s}#${value}`),
      stats,
    );
  if (clause.type !== 'boolean' || clause.field.name !== 'overdue') return undefined;
  const late = await readCount(overdue, value, stats);
  return clause.values[0] ? late : (await readCount(total, value, stats)) - late;
}

/** A scope's counters: its total, by status and overdue, and the value they count it under. */
interface ScopeCounters {
  total: CountedField;
  status: CountedField;
  overdue: CountedField;
  value: string;
}

/**
 * One `=`/`~` on `status` with `overdue`: the scope's overdue counter keeps the status in its
 * items, so its overdue actions of those statuses are one read; not overdue, the statuses' count
 * less them. `undefined` for any other pair.
 */
async function statusAndOverdue(
  [a, b]: [Clause, Clause],
  { status, overdue, value }: ScopeCounters,
  stats: CountStats,
): Promise<number | undefined> {
  const byStatus = a.field.name === 'status' ? a : b;
  const late = byStatus === a ? b : a;
  if (byStatus.field.name !== 'status' || (byStatus.op !== '=' && byStatus.op !== '~')) return undefined;
  if (late.type !== 'boolean' || late.field.name !== 'overdue') return undefined;
  const statuses = [...new Set(byStatus.values as number[])];
  const lateByStatus = await readStatusCounts(overdue, value, stats);
  const overdueCount = statuses.reduce((sum, s) => sum + (lateByStatus.get(s) ?? 0), 0);
  if (late.values[0]) return overdueCount;
  const all = await readCounts(
    status,
    statuses.map((s) => `${s}#${value}`),
    stats,
  );
  return all - overdueCount;
}

/** The counters of a scope: its total, by status and overdue, and the value they count it under. */
function countersOf(scope: Scope): ScopeCounters | undefined {
  const prefix = scopePrefix(scope);
  if (prefix) {
    const { depth, value } = prefix;
    return { total: prefixCounter(depth), status: prefixByStatus(depth), overdue: prefixByOverdue(depth), value };
  }
  const unit = scope.businessUnit;
  if (unit === undefined || scopeFields(scope).length !== 1) return undefined;
  const field = 'location.businessUnit';
  return { total: field, status: byStatus(field), overdue: byOverdue(field), value: unit };
}
