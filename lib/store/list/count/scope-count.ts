import type { Clause, ListQuery } from '../../../filter/query';
import { type Scope, scopeFields } from '../../../model/access';
import type { LocationField } from '../../../model/action';
import { byOverdue, type CountedField, type CountStats, readCount, readStatusCounts } from '../../counters/counters';
import { prefixByOverdue, prefixCounter, scopePrefix } from '../../counters/prefixes';
import { overdueByStatus, statusesHolding } from './by-status';

/**
 * The exact count of a scoped list's part for one scope, from the counters alone (contract
 * section 14, "Cost"): the scope's prefix counter, with no other filter; its items by status with
 * clauses on `status` (any operator); its overdue counter with `overdue`, and with both (the
 * overdue counter's items keep the status: `by-status.ts`). A location filter
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
  if (!counters) return undefined;
  const { total, overdue, value } = counters;
  const onStatus = rest.filter((c) => c.field.name === 'status');
  const others = rest.filter((c) => c.field.name !== 'status');
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
      overdue: () => readStatusCounts(overdue, value, stats),
      all: () => readStatusCounts(total, value, stats),
    });
  const [lateCount, all] = await Promise.all([
    readCount(overdue, value, stats),
    late ? Promise.resolve(0) : readCount(total, value, stats),
  ]);
  return late ? lateCount : all - lateCount;
}

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
