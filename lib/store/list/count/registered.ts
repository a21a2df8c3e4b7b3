import { settleAll as all, inPool } from '../../../flow/fan-out';
import { readCount } from '../../counters/counters';
import { type RegisteredField, readRegistry } from '../../registry';
import type { ReadStats } from '../plan/result';

/** A value some action has, and how many have it. */
export interface ValueCount {
  value: string;
  count: number;
}

/** Counter reads in flight at once. */
const WIDTH = 16;

/**
 * The most registered values a list proves by reading their counters: a field with more (people,
 * in a large deployment) costs a counter read each, so past this the list answers as it did
 * before the registry (a lower bound, or the sort refused past the budget).
 */
export const MAX_PROVEN_VALUES = 2_000;

/**
 * The values of a registered field that actions have, in value order ('' first when some action
 * has it, though '' is never registered), each with its count; `undefined` unless the registry is
 * proven complete: the counters of its values and of '' (each read strongly consistent, as the
 * counters are) sum to the total, so no action has a value the registry lacks (it lags the table
 * by the stream), and it holds at most `MAX_PROVEN_VALUES`. Values the registry holds that no action has any more are left out. Counter and
 * registry reads are not index entries: the budget is not charged for them (contract section 12).
 */
export async function registeredValues(field: RegisteredField, stats: ReadStats): Promise<ValueCount[] | undefined> {
  const [total, registered] = await all<[number, string[]]>([readCount('all', '', stats), readRegistry(field, stats)]);
  return provenRegistry(['', ...registered], total, (value) => readCount(field, value, stats));
}

/**
 * Registered `values` with their counts (`count`, `WIDTH` at a time), when there are at most
 * `MAX_PROVEN_VALUES` and the counts sum to `total` (`provenComplete`); else `undefined`. Any
 * registry kind: a field's values, or whole locations (`location-counts.ts`).
 */
export async function provenRegistry(
  values: readonly string[],
  total: number,
  count: (value: string) => Promise<number>,
): Promise<ValueCount[] | undefined> {
  if (values.length > MAX_PROVEN_VALUES) return undefined;
  const counts = new Map<string, number>();
  let next = 0;
  await inPool(
    WIDTH,
    () => (next < values.length ? next++ : undefined),
    async (i) => {
      const value = values[i] as string;
      counts.set(value, await count(value));
    },
  );
  return provenComplete(values, counts, total);
}

/** The values counted above 0, in the order given, when their counts sum to `total`; else `undefined`. Pure. */
export function provenComplete(
  values: readonly string[],
  counts: ReadonlyMap<string, number>,
  total: number,
): ValueCount[] | undefined {
  let sum = 0;
  const found: ValueCount[] = [];
  for (const value of values) {
    const count = counts.get(value) ?? 0;
    sum += count;
    if (count > 0) found.push({ value, count });
  }
  return sum === total ? found : undefined;
}
