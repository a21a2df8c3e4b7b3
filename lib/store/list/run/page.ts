import { ValidationError } from '../../../errors';
import type { ListQuery } from '../../../filter/query';
import type { IndexDefinition } from '../../indexes';
import type { Item } from '../../item';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import type { CountRelation, ListContext, ListResult, Position, Rows } from '../plan/result';
import { fetchActions } from './reads';

/**
 * A page of entries read in order, and the refusal of a `skip` past the budget: one of the lists
 * refused for their cost (the others: a sort no index or value partition can serve,
 * `planned.ts`; a page over 5.5 MB, `lib/actions/action-service.ts`).
 */

/**
 * The page of entries read in order. When the budget cut the read short, the page holds the
 * matches found and the cursor continues from where the read was sure of every match; a `skip`
 * the read did not get past is the one thing this function refuses.
 */
export async function page(
  read: Rows,
  query: ListQuery,
  totalCount: number,
  relation: CountRelation,
  index: IndexDefinition,
  partitions: number,
  { budget, stats, positionsOnly }: ListContext,
  after: Position | undefined,
  fetched?: ReadonlyMap<string, Item>,
): Promise<ListResult> {
  const { rows } = read;
  if (read.cut && query.skip > 0 && rows.length <= query.skip) throw skipTooDeep(budget, false);
  const shown = rows.slice(query.skip, query.skip + query.limit);
  const more = rows.length > query.skip + query.limit;
  const placesOnly = positionsOnly === true;
  const actions = placesOnly
    ? []
    : await fetchActions(
        shown.map((r) => r.id),
        stats,
        fetched,
      );
  const last = shown[shown.length - 1];
  // Cut short: continue after the last key the read was sure of (or, if it got nowhere, where it began).
  const next = more ? (last?.value as Position | undefined) : read.cut ? (read.reached ?? after) : undefined;
  return {
    actions,
    ...(placesOnly ? { positions: shown.map((r) => ({ id: r.id, at: r.value as Position })) } : {}),
    totalCount,
    totalCountRelation: relation,
    strategy: 'counted',
    index: index.name,
    partitions,
    stats,
    ...(next !== undefined ? { next } : {}),
    ...(read.cut ? { cut: true } : {}),
  };
}

/**
 * The refusal of a `skip` past what the budget can read (the counted path, the planner
 * and each walk throw it). When the caller's
 * read quota stopped the read short of the skip, it is the quota's 429 instead (`BudgetSpent` at
 * the edge): the same list answers once the window refills.
 */
export function skipTooDeep(budget: ReadBudget, named = true): Error {
  if (budget.quotaStopped) return new BudgetSpent(named ? budget.limit : 0);
  const within = named ? `the read budget of ${budget.limit} index entries` : 'the read budget';
  return new ValidationError([
    { parameter: 'skip', message: `skips past what ${within} can reach; page with cursor (nextCursor) instead` },
  ]);
}
