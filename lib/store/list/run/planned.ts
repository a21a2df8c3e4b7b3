import { ValidationError } from '../../../errors';
import type { ListQuery } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { countedTotal, sizesFor } from '../count/counts';
import { orderedIndexes } from '../plan/index-holds';
import { DEFAULT_SORT, type IndexRead, type Plan, plan, type Sizes, sortBeatsWalk, type Walk } from '../plan/plan';
import { streamsOf } from '../plan/plan-types';
import { checkedPosition, comparePositions, keyAfter, positionOf } from '../plan/positions';
import type { ListContext, ListResult, Position, Row } from '../plan/result';
import { listByLocation, sortsByLocation } from './location-walk';
import { page, skipTooDeep } from './page';
import { fetchActions, readMatches } from './reads';
import { listByReference, sortsByReference } from './reference-walk';
import { listByValue } from './value-walk';
import { walkInOrder } from './walk';

/**
 * Every other shape, by the planner's choice (`plan.ts`): every match read and sorted in memory
 * when the counters show that fits the budget, else a walk of an index already in the list's
 * order, which stops when the page is full.
 */

/**
 * A sort on a field no index orders (a location, a producer) sorts every match in memory; when
 * there are more matches than the budget reads, no page of it can be exact. `status`, a site, a
 * business unit and a producer walk their value partitions instead (`value-walk.ts`), a location
 * field below the site its locations' sites (`location-walk.ts`), a reference the reference
 * order (`reference-walk.ts`): refused only when the values cannot be enumerated (a registry or
 * the locations' counters not proven complete).
 */
function unsortable(query: ListQuery, budget: number): ValidationError {
  const field = (query.sort ?? DEFAULT_SORT).field.name;
  return new ValidationError([
    {
      parameter: 'sort',
      message: `sorting by ${field} reads every match, more than the read budget of ${budget} index entries here; sort by ${orList(Object.keys(orderedIndexes))}, or narrow the filter`,
    },
  ]);
}

/** "a, b or c" */
const orList = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

/**
 * How a planned list finds its page, decided before it reads anything: `readAll`, every match
 * read and sorted in memory (with `readShare` entries of the budget when a read in the list's
 * order must still find the page after it; the whole budget when `readShare` is absent), or not;
 * and the read in the list's order that finds the page otherwise (`walk`, `byValue`,
 * `byLocation` or `byReference`, at most one of them; `ordered` when there is one). `window`:
 * the matches up to the page's end and one past it.
 */
export interface ReadOrWalk {
  walk?: Walk;
  byValue?: IndexRead;
  byLocation: boolean;
  byReference: boolean;
  ordered: boolean;
  readAll: boolean;
  readShare?: number;
  window: number;
}

/**
 * The choice between reading every match and walking, for the plan `chosen` with `available`
 * entries of the budget left, `counted` matches by the counters and `known` matches a scoped
 * list's part was given. Pure.
 */
export function readOrWalk(
  query: ListQuery,
  chosen: Plan,
  available: number,
  counted: number | undefined,
  known: number | undefined,
  toPage = false,
): ReadOrWalk {
  const walk = query.limit > 0 ? chosen.walk : undefined;
  // No walk keeps the list's order: the sort field's value partitions may (`value-walk.ts`), or,
  // for a location field below the site, the partitions of the places that hold each value (`location-walk.ts`).
  // A sort by reference walks the reference order (`reference-walk.ts`): no counter enumerates its values.
  const byReference = !walk && query.limit > 0 && sortsByReference(query);
  const byValue = walk || byReference ? undefined : chosen.byValue;
  const byLocation = !walk && !byValue && query.limit > 0 && sortsByLocation(query);
  // Every match, sorted in memory, when the counters show it fits the budget. When only a guess
  // knows its size, the read gets half the budget, so that a walk can still find the page.
  // A walk needs a round of every partition (and a fetching walk a run of actions) to get anywhere.
  const forWalk = walk
    ? Math.max(Math.ceil(available / 2), 4 * streamsOf(walk.read) + 2)
    : byValue || byLocation || byReference
      ? Math.ceil(available / 2)
      : 0;
  // One entry past the page says whether more follow.
  const window = query.skip + query.limit + 1;
  // A count the counters give (a scoped list's part, or `counted` here) leaves the walk to read
  // only the page, unless every match costs less to read than the walk does to find the page (a
  // walk of the whole table's index for a site's few matches). Without one, reading every match
  // is what makes the count exact, so it is read whenever it fits.
  const total = known ?? counted;
  const fits = chosen.entries <= available;
  // `toPage`: a search that found the walk cheaper than its postings (`searched.ts`) walks to its
  // page, and answers a lower bound where the walk stops short of the end.
  const sortAll =
    walk !== undefined && toPage
      ? false
      : walk !== undefined && total !== undefined
        ? fits && sortBeatsWalk(chosen, total, window)
        : // A scope's part (`known`) walks a value's partitions rather than read every match; the
          // reference order holds every action, so a part sorted by reference reads its matches first.
          (known === undefined || byReference) && (chosen.exact ? fits : available > forWalk);
  const ordered = Boolean(walk || byValue || byLocation || byReference);
  const readAll = !ordered || sortAll;
  return {
    ...(walk ? { walk } : {}),
    ...(byValue ? { byValue } : {}),
    byLocation,
    byReference,
    ordered,
    readAll,
    ...(readAll && !chosen.exact && ordered ? { readShare: available - forWalk } : {}),
    window,
  };
}

export async function listPlanned(
  query: ListQuery,
  context: ListContext,
  after?: Position,
  known?: number,
  toPage = false,
): Promise<ListResult> {
  const { budget, stats } = context;
  const [sizes, counted] = await all<[Sizes, number | undefined]>([
    sizesFor(query, context, known !== undefined),
    known === undefined ? countedTotal(query, stats, budget) : Promise.resolve(known),
  ]);
  const chosen = plan(query, sizes, counted);
  const base = { strategy: 'planned' as const, plan: chosen, index: chosen.read.index.name };
  if (chosen.empty) return { ...base, actions: [], totalCount: 0, totalCountRelation: 'eq', partitions: 0, stats };
  if (counted !== undefined && query.limit === 0)
    return { ...base, actions: [], totalCount: counted, totalCountRelation: 'eq', partitions: 0, stats };
  const choice = readOrWalk(query, chosen, budget.available, counted, known, toPage);
  const { walk, byValue, byLocation, byReference, window } = choice;
  let found = 0;
  if (choice.readAll) {
    const share = choice.readShare === undefined ? budget : budget.share(choice.readShare);
    const every = await readMatches(chosen.read, chosen.sortAttribute, share, stats);
    if (share !== budget) budget.charge(share.spent);
    if (!every.cut) return sortedPage(query, chosen, every.rows, context, after);
    if (query.limit === 0)
      return { ...base, actions: [], totalCount: every.rows.length, totalCountRelation: 'gte', partitions: 0, stats };
    if (!choice.ordered) throw unsortable(query, budget.limit);
    found = every.rows.length;
  }
  const sorted = { query, descending: chosen.descending, context, after, counted, found };
  if (byReference) return { ...(await listByReference(sorted)), plan: chosen };
  if (byLocation) {
    const located = await listByLocation(sorted);
    if (located === undefined) throw unsortable(query, budget.limit);
    return { ...located, plan: chosen };
  }
  if (!walk) {
    const sort = query.sort ?? DEFAULT_SORT;
    const valued = await listByValue(sorted, sort.field, byValue as IndexRead);
    if (valued === undefined) throw unsortable(query, budget.limit);
    return { ...valued, plan: chosen };
  }
  // Too many matches to sort: walk an index already in the list's order for the page.
  const from = after === undefined ? undefined : keyAfter(after);
  if (query.skip > 0 && query.skip >= budget.available) throw skipTooDeep(budget);
  const walked = await walkInOrder(walk, !chosen.descending, window, budget, stats, from, counted);
  // Read to its end from the start, the walk has seen every match; otherwise it has a lower bound.
  const whole = !walked.cut && walked.rows.length < window && from === undefined;
  const result = await page(
    walked,
    query,
    counted ?? Math.max(found, walked.rows.length),
    whole || counted !== undefined ? 'eq' : 'gte',
    walk.read.index,
    streamsOf(walk.read),
    context,
    from,
    walked.fetched,
  );
  return { ...result, ...base, index: walk.read.index.name };
}

/** Every match read and sorted in memory: the page at `skip` or after the cursor, and the exact count. */
async function sortedPage(
  query: ListQuery,
  chosen: Plan,
  rows: Row[],
  { stats, positionsOnly }: ListContext,
  after: Position | undefined,
): Promise<ListResult> {
  const direction = chosen.descending ? -1 : 1;
  const field = (query.sort ?? DEFAULT_SORT).field;
  const positions = rows.map((row) => ({ id: row.id, at: positionOf(field, chosen.sortAttribute, row) }));
  positions.sort((a, b) => direction * comparePositions(a.at, b.at));
  // The planner reads every match for its count anyway, so a page past a cursor costs what the first does.
  let start = query.skip;
  if (after !== undefined) {
    const from = checkedPosition(field, after);
    start = positions.findIndex((p) => direction * comparePositions(p.at, from) > 0);
    if (start < 0) start = positions.length;
  }
  const base = {
    strategy: 'planned',
    plan: chosen,
    index: chosen.read.index.name,
    totalCount: rows.length,
    totalCountRelation: 'eq',
    partitions: streamsOf(chosen.read),
    stats,
  } as const;
  // Places only (a scoped list's part): every place after the page's start, read anyway, so the
  // merge never sorts the part again for its next page.
  if (positionsOnly && query.limit > 0) return { ...base, actions: [], positions: positions.slice(start) };
  const shown = positions.slice(start, start + query.limit);
  const more = query.limit > 0 && start + query.limit < positions.length;
  const actions = await fetchActions(
    shown.map((p) => p.id),
    stats,
  );
  const last = shown[shown.length - 1];
  return {
    ...base,
    actions,
    ...(more && last ? { next: last.at } : {}),
  };
}
