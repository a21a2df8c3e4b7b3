import type { ListQuery } from '../../../filter/query';
import { requestBudget } from '../../query/budget';
import { type ListContext, type ListResult, listStats, type Position } from '../plan/result';
import { listCounted } from './counted';
import { listPlanned } from './planned';
import { listSearched } from './searched';

/**
 * List execution. The common shapes (no filter in an order an all-actions index keeps; one
 * value, or a `~` of a few, of one counted field, by creation time) take `totalCount` from the
 * counters and read the page in order: a streaming merge of the index partitions that reads
 * about `skip + limit` entries plus one page per partition. Every other shape goes to the
 * planner: every match read and sorted in memory when the counters show that fits the budget,
 * else a walk of an index already in the list's order, which stops when the page is full.
 *
 * Whatever the shape, a list reads at most `LIST_READ_BUDGET` index entries in all: skipped
 * entries, entries its filter drops and the merge's read-ahead all count. When the budget runs
 * out a list answers the matches found, in order, with a cursor that continues the search and,
 * where it could not count every match, a lower bound (`gte`) (contract section 12). Two lists
 * are refused here for their cost, each a 400 naming its parameter: a `skip` past what the budget
 * reaches (`page.ts`, pointing to the cursor), and a sort on a field no index orders when it has
 * more matches than the budget reads and neither an index walk nor its value partitions
 * (`value-walk.ts`: `status`, and a site, business unit or producer while the value registry is
 * proven complete; `location-walk.ts`: a location field below the site while the locations'
 * counters are proven) can serve it (`planned.ts`, `unsortable`). A sort by reference always has
 * its order (`reference-walk.ts`). Above the store, a page heavier than a Lambda response can
 * carry is refused too, naming `limit` (`lib/actions/action-service.ts`), and a read the caller's
 * quota stops is its 429.
 *
 * The parts: `searched.ts`, `counted.ts` and `planned.ts` (the three ways a list is served, tried
 * in that order), `counts.ts` (counter arithmetic), `merge.ts` (the budgeted page read and the
 * partition merge), `reads.ts` (key conditions, every match, the fetch of actions), `page.ts`,
 * `positions.ts` (cursor places), `value-walk.ts` (a sort by status or a registered string
 * field, one value partition after another; `walk.ts` the walk in the list's order, `registered.ts`
 * the registry proven, `registry-counts.ts` its exact counts; `location-counts.ts` and
 * `location-walk.ts` the same for location fields; `reference-walk.ts` the reference order) and `result.ts` (what a list answers); `entry.ts` runs a scoped list as its scopes' parts
 * (or, `combined.ts`, as one walk filtered to its scopes).
 */

/**
 * Lists actions: a title search (`*`) through its postings first (`searched.ts`, unless a counted
 * value in the filter is cheaper to read whole: `partitionCheaper`), else the counted path for
 * the common shapes (`counted.ts`), else the cheapest plan within budget (`planned.ts`). `after`
 * continues after a position an earlier page ended on (`ListResult.next`).
 */
export const listActions = (query: ListQuery, after?: Position): Promise<ListResult> =>
  listWithin(query, { budget: requestBudget(), stats: listStats() }, after);

/**
 * A list within its context (budget and stats, which a scoped list shares among its parts,
 * `entry.ts`, which also knows some counts). A counter every step reads (the total's: four times for
 * `status=~1,2,5` with a due range, by the strategies that decline and the one that serves) is
 * read once: the context's stats carry the reads the list shares (`listStats`), and a scoped
 * list's parts share its context.
 */
export async function listWithin(
  query: ListQuery,
  context: ListContext,
  after?: Position,
  known?: number,
): Promise<ListResult> {
  return (
    (await listSearched(query, context, after)) ??
    (await listCounted(query, context, after, known)) ??
    (await listPlanned(query, context, after, known))
  );
}
