import type { ListQuery } from '../../../filter/query';
import { readCount } from '../../counters/counters';
import type { IndexDefinition } from '../../indexes';
import { idOfReferenceKey, referenceOrderKey, referencePartitions, splitReferenceKey } from '../../reference-order';
import { attr } from '../../table';
import { DEFAULT_SORT, type IndexRead, type Walk } from '../plan/plan';
import { checkedPosition } from '../plan/positions';
import type { ListResult } from '../plan/result';
import { skipTooDeep } from './page';
import { type SortWalk, valuePage } from './value-walk';
import { walkInOrder } from './walk';

/**
 * A sort by producer reference past what the budget can sort in memory (contract section 4:
 * every sort answers): a walk of the reference order (`../reference-order.ts`), its partitions
 * merged by sort key, which is the list's order (reference, then `createdAt`, then id; '' first).
 * With no filter every entry is a match; with filters the walk fetches each entry's action and
 * keeps the matches (the budget bounds the fetches, as any fetching walk's). Positions are
 * `[reference, <createdAt>#<id>]`, as when every match is sorted in memory, so a cursor from
 * either continues in the other.
 */

/** The reference order's entries read as an index: the table itself (no index name). */
const referenceOrder: IndexDefinition = {
  name: '',
  partitionKey: { name: attr.id, type: 'S' },
  sortKey: { name: attr.sortKey, type: 'S' },
  projection: 'keys',
};

/** How the list response names what was walked. */
const WALKED = 'reference-order';

/** Whether a list is sorted by producer reference. Pure. */
export const sortsByReference = (query: ListQuery): boolean =>
  (query.sort ?? DEFAULT_SORT).field.name === 'actionProducer.reference';

/** A position before every entry in each direction: after no key going up, above every key going down (U+10FFFF). */
const orderStart = (forward: boolean): [string, string] => (forward ? ['', ''] : ['\u{10ffff}', '']);

/**
 * The page of a list sorted by reference, walked from the reference order. `counted`: the
 * counters' exact count of the list, if they have one; `found`: matches an earlier read
 * counted, a lower bound.
 */
export async function listByReference(sorted: SortWalk): Promise<ListResult> {
  const { query, descending, context, after, counted, found } = sorted;
  const { budget, stats } = context;
  const forward = !descending;
  const field = (query.sort ?? DEFAULT_SORT).field;
  const from = after === undefined ? undefined : (checkedPosition(field, after) as [string | null, string]);
  const key = from && referenceOrderKey(String(from[0] ?? ''), from[1]);
  const window = query.skip + query.limit + 1;
  if (query.skip > 0 && query.skip >= budget.available) throw skipTooDeep(budget);
  // With no filter every action matches: the total counter is the count.
  const total = counted ?? (query.filters.length === 0 ? await readCount('all', '', stats) : undefined);
  const read: IndexRead = { index: referenceOrder, partitions: [...referencePartitions], filter: [] };
  const walk: Walk = {
    read,
    fetch: query.filters.length > 0,
    clauses: query.filters,
    cost: 0,
    entries: total ?? 0,
    idOf: (entry) => idOfReferenceKey(entry[attr.sortKey] as string),
  };
  const walked = await walkInOrder(walk, forward, window, budget, stats, key, total);
  const rows = walked.rows.map((row) => ({ id: row.id, value: splitReferenceKey(row.value as string) }));
  const cutAt = walked.reached ?? key;
  const reached = walked.cut
    ? cutAt === undefined
      ? orderStart(forward)
      : splitReferenceKey(cutAt as string)
    : undefined;
  const result = await valuePage(
    { rows, reached, ...(walked.fetched ? { fetched: walked.fetched } : {}) },
    query,
    { window, from, total, found, after },
    referenceOrder,
    read.partitions.length,
    context,
  );
  return { ...result, index: WALKED };
}
