import type { Clause, ListQuery } from '../../../filter/query';
import { type Scope, scopeFields } from '../../../model/access';
import { type LocationField, locationFields } from '../../../model/action';
import { byOverdue, type CountedField, type CountStats, readCount, readStatusCounts } from '../../counters/counters';
import { prefixByOverdue, prefixCounter, prefixDepths, scopePrefix } from '../../counters/prefixes';
import { overdueByStatus, statusesHolding } from './by-status';

/**
 * The exact count of a scoped list's part for one scope, from the counters alone (contract
 * section 14, "Cost"): the scope's prefix counter, with no other filter; its items by status with
 * clauses on `status` (any operator); its overdue counter with `overdue`, and with both (the
 * overdue counter's items keep the status: `by-status.ts`). A location filter
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
