import type { Clause } from '../../../filter/query';
import { valueHolds } from '../plan/expression';

/** Counts by status, as `readStatusCounts` reads them from a counter kept by status. */
export type StatusCounts = Map<number, number>;

/** The sum of the counts of the statuses every clause on `status` holds for (any operator). Pure. */
export function statusesHolding(onStatus: Clause[], counts: StatusCounts[]): number {
  const [first] = onStatus;
  if (first === undefined)
    return counts.reduce((sum, byStatus) => sum + [...byStatus.values()].reduce((a, b) => a + b, 0), 0);
  return counts.reduce(
    (sum, byStatus) =>
      [...byStatus].reduce((n, [status, c]) => n + (valueHolds(onStatus, first.field, status) ? c : 0), sum),
    0,
  );
}

/**
 * Clauses on `status` with `overdue`, from counters kept by status (one value's, or several whose
 * actions are disjoint, summed): an overdue counter keeps the status in its items, so the overdue
 * actions of the statuses the clauses hold for are one read a value (`overdue`); not overdue, those
 * statuses' count (`all`) less them. The total's and a paired value's (`counts.ts`) and a scope's
 * (`scope-count.ts`) alike.
 */
export async function overdueByStatus(
  onStatus: Clause[],
  late: boolean,
  read: { overdue: () => Promise<StatusCounts[]>; all: () => Promise<StatusCounts[]> },
): Promise<number> {
  if (late) return statusesHolding(onStatus, await read.overdue());
  const [overdue, all] = await Promise.all([read.overdue(), read.all()]);
  return statusesHolding(onStatus, all) - statusesHolding(onStatus, overdue);
}
