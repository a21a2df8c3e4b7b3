import type { FieldSpec } from '../../../filter/fields';
import type { Clause } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { type CountedField, readCount } from '../../counters/counters';
import { valueHolds } from '../plan/expression';
import type { ReadStats } from '../plan/result';

/**
 * The values an integer counted field (`status`, `priority`) holds, enumerated from its counters:
 * what a sort by it walks (`value-walk.ts`) and what a `<` or `>` on it sums (`counts.ts`).
 */

/** Values probed from the counters in one round, and in all: a value past them leaves the field unenumerated. */
const PROBE_ROUND = 8;
const PROBE_LIMIT = 64;

export interface CountedInteger {
  value: number;
  count: number;
}

/**
 * The values some action has, ascending, with their counts: the counts of 0, 1, 2... (`count`)
 * asked a round at a time until their sum is `total` (so no other value has an action; integers
 * are never negative). `undefined` when the first `PROBE_LIMIT` values do not account for every
 * action (a status of 1,000 exists): they cannot be enumerated cheaply.
 */
export async function probeValues(
  total: number,
  count: (value: number) => Promise<number>,
): Promise<CountedInteger[] | undefined> {
  const found: CountedInteger[] = [];
  let sum = 0;
  for (let start = 0; start < PROBE_LIMIT && sum < total; start += PROBE_ROUND) {
    const values = Array.from({ length: PROBE_ROUND }, (_, i) => start + i);
    const counts = await all<number[]>(values.map(count));
    counts.forEach((n, i) => {
      if (n > 0) found.push({ value: values[i] as number, count: n });
      sum += Math.max(0, n);
    });
  }
  return sum === total ? found : undefined;
}

/** The values of an integer counted field that some action has, from its counters (see `probeValues`). */
export async function countedIntegers(field: string, stats: ReadStats): Promise<CountedInteger[] | undefined> {
  return probeValues(await readCount('all', '', stats), (value) => readCount(field as CountedField, value, stats));
}

/** How many actions have a value every clause on `field` holds for. Pure. */
export const holdingCount = (values: CountedInteger[], clauses: Clause[], field: FieldSpec): number =>
  values.reduce((sum, v) => sum + (valueHolds(clauses, field, v.value) ? v.count : 0), 0);
