import type { Clause } from '../../../filter/query';
import { isRegistered } from '../../registry';
import { valueHolds } from '../plan/expression';
import type { ReadStats } from '../plan/result';
import { registeredValues } from './registered';

/** Whether a clause is one `registryTotal` counts: a `<`, `>` or `*` on a registered field. Pure. */
export const byRegistry = (clause: Clause): boolean =>
  isRegistered(clause.field.name) && (clause.op === '<' || clause.op === '>' || clause.op === '*');

/**
 * Exact counts of one `<`, `>` or `*` on a counted string field (a person by id, a site, a
 * business unit, a producer), from the counters alone: the counts of the registered values the
 * clause holds for (judged as the filter judges an action, `valueHolds`), '' among them. Only
 * when the registry is proven complete (`registeredValues`); `undefined` otherwise, and for any
 * other clause, so the list counts as it did (a lower bound when the budget runs out).
 */
export async function registryTotal(clause: Clause, stats: ReadStats): Promise<number | undefined> {
  const field = clause.field.name;
  if (!byRegistry(clause) || !isRegistered(field)) return undefined;
  const values = await registeredValues(field, stats);
  if (values === undefined) return undefined;
  return values.filter((v) => valueHolds([clause], clause.field, v.value)).reduce((sum, v) => sum + v.count, 0);
}
