import type { ListQuery } from '../../filter/query';
import { settleAll as all } from '../../flow/fan-out';
import { inScope, listScopes, type Scope, scopeFields, type Viewer } from '../../model/access';
import { type Location, locationFields } from '../../model/action';
import { foldForComparison } from '../../text';
import { type IndexDefinition, indexes } from '../indexes';
import { fromItem, type Item, toItem, valueAt } from '../item';
import { BudgetSpent, type ReadBudget, readsForPage, requestBudget } from '../query/budget';
import { queryInput } from '../query/key-query';
import { SharedReads, sharedRead } from '../shared-reads';
import { attr, locationKeys, lowerKey } from '../table';
import { sizesFor } from './count/counts';
import { scopeCount } from './count/scope-count';
import { clauseHolds } from './plan/expression';
import { DEFAULT_SORT } from './plan/plan';
import { comparePositions } from './plan/positions';
import { type ListContext, type ListResult, listStats, type Position } from './plan/result';
import { type Combined, combinedWalk, fetchingWalk, readCombined, readFetching } from './run/combined';
import { readPage } from './run/merge';
import { listWithin } from './run/open';
import { inParts, type Match, type Part, positionOfItem, scopeClauses } from './run/parts';
import { fetchActions } from './run/reads';
import { type KeptSearch, searchKept } from './run/searched';

/**
 * A scoped list (contract section 14): the caller sees the actions in any of their scopes
 * (location prefixes, `listScopes`) and their own (owned or assigned; the initiator is always
 * the owner here). The visible set is cut into disjoint parts: one list per scope, which is the
 * caller's query with the scope's fields added as equality filters (so the planner reads that
 * scope's partitions, counts them from the counters, and honours search and every sort), and the
 * caller's own actions outside every scope, read whole from their two partitions (a person's own
 * are few) and filtered in memory. Where every scope's part is counted by the counters and one
 * walk of the list's own index, filtered to the scopes, is expected to read less than the parts,
 * the scopes are read as that one part instead (`combined.ts`). The parts are merged in the list's
 * order by their positions, which are the same whichever index served a part (`Position`), so one
 * cursor continues them all.
 */

/** The counted fields a scope fixes, which its part's planner estimates instead of counting. */
const scopeCounters = locationFields.map((field) => `location.${field}`);

/**
 * Whether the list's filters on the fields a scope fixes leave the scope anything: every action in
 * it has the scope's value there, so a clause that value fails (a filter naming another site)
 * empties its part, which is then not read at all (it read the counters and an index before).
 */
export function scopeMayMatch(list: ListQuery, scope: Scope): boolean {
  const fixed = scopeFields(scope);
  // The scope's values as an item stores them: each as sent and, where folding changes it, its
  // folded copy, which `*` compares (without it `location.site=*pit` never matched `North Pit`).
  const item: Item = {
    [attr.filters]: Object.fromEntries(
      fixed.flatMap((f) => {
        const value = scope[f] as string;
        const folded = foldForComparison(value);
        return [[locationKeys[f], value], ...(folded !== value ? [[lowerKey(locationKeys[f]), folded]] : [])];
      }),
    ),
  };
  return list.filters.every((clause) => {
    const field = fixed.find((f) => clause.field.name === `location.${f}`);
    return field === undefined || clauseHolds(clause, item);
  });
}

/**
 * The scopes as one part (`combined.ts`): one walk of the list's own index filtered to the scopes
 * where that index holds their fields, else that walk fetching each entry's action to test it
 * (`fetchingWalk`), when expected to read less than a part a scope, or when the parts would be
 * `crowded` in what the budget has left (then even a scope the counters do not count: the one
 * walk is sure of every entry it reads, and so always moves a cursor on, where parts of a page
 * each might be sure of none). Counted as the sum of the scopes' counts where each is known,
 * else as a lower bound. `undefined` when the parts serve the list.
 */
async function asOne(
  list: ListQuery,
  scopes: readonly Scope[],
  counts: ReadonlyArray<number | undefined>,
  window: number,
  context: ListContext,
  after?: Position,
): Promise<Part | undefined> {
  const { budget } = context;
  // Each part reads about a page a shard of its share of the window (`readsForPage`).
  const crowded = scopes.length * readsForPage(Math.ceil(window / scopes.length) + 1) > budget.available;
  const unknown = counts.some((c) => c === undefined);
  if (unknown && !crowded) return undefined;
  const known = counts.map((c) => c ?? 1);
  const total = counts.reduce<number>((a, b) => a + (b ?? 0), 0);
  const sizes = await sizesFor(list, context, true);
  const forward = !(list.sort ?? DEFAULT_SORT).descending;
  // One more than the window says whether more follow.
  const walk = combinedWalk(list, scopes, known, scopeClauses, sizes, crowded);
  const read = walk
    ? await readCombined(walk, scopes, scopeClauses, window + 1, forward, total, context, after)
    : undefined;
  const fetching = read ? undefined : fetchingWalk(list, scopes, counts, scopeClauses, sizes, crowded);
  const fetched = fetching
    ? await readFetching(
        fetching,
        (item) => scopes.some((scope) => inScope(locationOf(item), scope)),
        window + 1,
        forward,
        context,
        after,
      )
    : undefined;
  const one = read ?? fetched;
  if (!one) return undefined;
  return walkedAsPart(one, fetched?.fetched, window, unknown ? undefined : total, after);
}

/**
 * The scopes' one walk (`asOne`) as a part: the `window` matches it read and one more, which says
 * whether more follow, each with its action where the walk fetched it (`fetched`). Counted by
 * `total` (the scopes' counts summed, when the counters knew each); else by the matches read,
 * exactly only when the walk read to the end of its index from the start (then it found every
 * match). Pure.
 */
export function walkedAsPart(
  one: Combined,
  fetched: ReadonlyMap<string, Item> | undefined,
  window: number,
  total: number | undefined,
  after?: Position,
): Part {
  const more = one.matches.length > window;
  const matches: Match[] = one.matches.map((m) => {
    const item = fetched?.get(m.id);
    return { ...m, ...(item ? { action: fromItem(item) } : {}) };
  });
  // A walk that read to the end of its index found every match: then it counted them too.
  const whole = total !== undefined || (!one.cut && !more && after === undefined);
  return {
    matches,
    totalCount: total ?? matches.length,
    exact: whole,
    more,
    cut: one.cut,
    ...(one.reached !== undefined ? { reached: one.reached } : {}),
  };
}

/**
 * The scopes' part of a title search (`*`), when the list has one the postings serve: the postings
 * read once, each candidate kept when it lies in a scope (`searchKept`), where a part a scope
 * would read them and verify their candidates once a scope. `undefined` otherwise.
 */
async function searchedPart(
  list: ListQuery,
  scopes: readonly Scope[],
  window: number,
  context: ListContext,
  after?: Position,
): Promise<Part | undefined> {
  const found = await searchKept(
    list,
    (item) => scopes.some((scope) => inScope(locationOf(item), scope)),
    context,
    after,
  );
  return found && keptAsPart(found, window, after);
}

/**
 * The scopes' search (`searchedPart`) as a part: the matches `searchKept` kept, with their actions.
 * It stops once it holds the window and one more; short of that without reading every posting, the
 * budget stopped it (`cut`, sure of every match up to `reached`). Counted as the matches found,
 * exactly only when it read every posting from the start. Pure.
 */
export function keptAsPart(found: KeptSearch, window: number, after?: Position): Part {
  const matches: Match[] = found.matches.map((m) => ({ at: m.key, id: m.id, action: m.action }));
  const full = matches.length > window;
  const cut = !found.complete && !full;
  return {
    matches,
    totalCount: matches.length,
    exact: found.complete && after === undefined,
    more: !found.complete || full,
    cut,
    ...(cut && found.reached !== undefined ? { reached: found.reached } : {}),
  };
}

/** Every entry of one partition of an index of a person (`by-owner`, `by-assignee`). */
async function readPerson(index: IndexDefinition, personId: string, { budget, stats }: ListContext): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const input = queryInput({ index, partition: personId, ...(startKey ? { startKey } : {}) });
    const page = await readPage(input, 1000, budget, stats);
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The location an index entry holds (its `f` map). */
const locationOf = (item: Item): Location =>
  Object.fromEntries(
    Object.entries(locationKeys).map(([field, key]) => [field, String(valueAt(item, `${attr.filters}.${key}`) ?? '')]),
  ) as Location;

/**
 * The caller's own part from the entries of their two partitions (`by-owner`, `by-assignee`): each
 * action once, none in a scope (a scope's part holds it), those the list's filters keep, in the
 * list's order, after `after`; counted whole, before `after`. Pure.
 */
export function ownMatches(list: ListQuery, scopes: readonly Scope[], items: readonly Item[], after?: Position): Part {
  const field = (list.sort ?? DEFAULT_SORT).field;
  const direction = (list.sort ?? DEFAULT_SORT).descending ? -1 : 1;
  const seen = new Set<string>();
  const matches: Part['matches'] = [];
  for (const item of items) {
    const id = item[attr.id] as string;
    if (seen.has(id)) continue;
    seen.add(id);
    if (scopes.some((scope) => inScope(locationOf(item), scope))) continue;
    if (!list.filters.every((clause) => clauseHolds(clause, item))) continue;
    matches.push({ at: positionOfItem(field, item), id });
  }
  matches.sort((a, b) => direction * comparePositions(a.at, b.at));
  const total = matches.length;
  const rest = after === undefined ? matches : matches.filter((m) => direction * comparePositions(m.at, after) > 0);
  return { matches: rest, totalCount: total, exact: true, more: false, cut: false };
}

/** The caller's own actions outside every scope that match the list, in its order, after `after`. */
async function ownPart(
  list: ListQuery,
  scopes: readonly Scope[],
  personId: string,
  context: ListContext,
  after?: Position,
): Promise<Part> {
  let entries: Item[][];
  try {
    // The lists of one counts request read them once (`context.stats.shared`).
    const shared = context.stats.shared;
    entries = await all([
      sharedRead(shared, `own#${indexes.byOwner.name}#${personId}`, () =>
        readPerson(indexes.byOwner, personId, context),
      ),
      sharedRead(shared, `own#${indexes.byAssignee.name}#${personId}`, () =>
        readPerson(indexes.byAssignee, personId, context),
      ),
    ]);
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    return { matches: [], totalCount: 0, exact: false, more: false, cut: true };
  }
  return ownMatches(list, scopes, entries.flat(), after);
}

/** A scoped list's page from its parts (`mergeParts`): the matches shown, before their actions are fetched. */
export interface MergedPage {
  shown: Match[];
  totalCount: number;
  totalCountRelation: ListResult['totalCountRelation'];
  /** Where the next page begins, when one may follow or a part was cut. */
  next?: Position;
  /** A part was cut short by the budget. */
  cut: boolean;
}

/**
 * The parts of a scoped list (each read after `after`, where the page begins) merged into its page,
 * in the list's order (`sort`, `skip`, `limit`). Where the budget cut a part short, the page stops
 * at the nearest place every cut part is sure of (`reached`), and is empty when a cut part is sure
 * of none; a page not full then continues from that place (or from `after`), so no match is
 * skipped. Counted as the sum of the parts, exact (`eq`) only when every part is and none was cut. Pure.
 */
export function mergeParts(
  parts: readonly Part[],
  list: Pick<ListQuery, 'skip' | 'limit' | 'sort'>,
  after?: Position,
): MergedPage {
  const direction = (list.sort ?? DEFAULT_SORT).descending ? -1 : 1;
  // Where every cut part is sure of its matches: the merged page stops at the nearest such place.
  const cuts = parts.filter((p) => p.cut);
  const unsure = cuts.some((p) => p.reached === undefined);
  const bound = unsure
    ? undefined
    : cuts
        .map((p) => p.reached as Position)
        .reduce<Position | undefined>(
          (a, b) => (a === undefined || direction * comparePositions(b, a) < 0 ? b : a),
          undefined,
        );
  const merged = parts
    .flatMap((p) => p.matches)
    .filter((m) => !unsure && (bound === undefined || direction * comparePositions(m.at, bound) <= 0))
    .sort((a, b) => direction * comparePositions(a.at, b.at));
  const shown = merged.slice(list.skip, list.skip + list.limit);
  const more = merged.length > list.skip + list.limit || parts.some((p) => p.more && !p.cut);
  const last = shown[shown.length - 1];
  const full = list.limit > 0 && shown.length === list.limit;
  const next =
    full && (more || cuts.length > 0) ? last?.at : cuts.length > 0 && list.limit > 0 ? (bound ?? after) : undefined;
  return {
    shown,
    totalCount: parts.reduce((sum, p) => sum + p.totalCount, 0),
    totalCountRelation: parts.every((p) => p.exact) && cuts.length === 0 ? 'eq' : 'gte',
    ...(next !== undefined ? { next } : {}),
    cut: cuts.length > 0,
  };
}

/**
 * The list `list` as a caller with `scopes` (from `listScopes`) sees it: every part read with one
 * context (its budget), merged in order, counted as the sum of the parts (exact when every part is).
 */
async function listScoped(
  list: ListQuery,
  scopes: readonly Scope[],
  personId: string,
  context: ListContext,
  after?: Position,
): Promise<ListResult> {
  const { stats } = context;
  // Each part's first `skip + limit` matches hold the merged page's; one more says whether more follow.
  const window = list.limit === 0 ? 0 : list.skip + list.limit;
  // The caller's own first: they are few, and a list must never lose them to a budget its scopes spent.
  const own = await ownPart(list, scopes, personId, context, after);
  const live = scopes.filter((s) => scopeMayMatch(list, s));
  // The counters count most shapes of a part exactly; then a count reads nothing, and a page only its page.
  const counts = await all(live.map((scope) => scopeCount(list, scope, stats)));
  const one =
    window === 0
      ? undefined
      : ((live.length > 1 ? await searchedPart(list, live, window, context, after) : undefined) ??
        (await asOne(list, live, counts, window, context, after)));
  const parts = one ? [own, one] : [own, ...(await inParts(list, own, live, counts, window, context, after))];
  const { shown, ...page } = mergeParts(parts, list, after);
  const known = new Map(shown.flatMap((m) => (m.action ? [[m.id, toItem(m.action)] as const] : [])));
  const actions = await fetchActions(
    shown.map((m) => m.id),
    stats,
    known,
  );
  return {
    actions,
    totalCount: page.totalCount,
    totalCountRelation: page.totalCountRelation,
    strategy: 'scoped',
    index: `${scopes.length} scope(s) and the caller's own`,
    partitions: parts.length,
    stats,
    ...(page.next !== undefined ? { next: page.next } : {}),
    ...(page.cut ? { cut: true } : {}),
  };
}

/**
 * Whether every match of the list is the caller's own (`owner=me` or `assignee=me`, also as a `~`
 * of only `me`): then a scoped list is the open list, whatever the scopes.
 */
export const onlyOwn = (list: ListQuery, personId: string): boolean =>
  list.filters.some(
    (c) =>
      (c.field.name === 'owner' || c.field.name === 'assignee') &&
      (c.op === '=' || c.op === '~') &&
      c.values.length > 0 &&
      c.values.every((v) => v === personId),
  );

/**
 * The list as `viewer` sees it: in open mode, or when a scope of theirs is everything, or when the
 * list asks only for their own actions, the open list; otherwise the scoped parts merged. It reads
 * within `budget`: a request's list is given one made from the request's usage (`requestBudget`);
 * without one, `LIST_READ_BUDGET`. The lists of one request that may share reads are given one
 * `shared` (`lib/store/shared-reads.ts`); without one, the list's steps and parts share its own.
 */
export async function listVisible(
  list: ListQuery,
  after: Position | undefined,
  viewer?: Viewer,
  budget: ReadBudget = requestBudget(),
  shared = new SharedReads(),
): Promise<ListResult> {
  const context: ListContext = { budget, stats: listStats(shared) };
  const scopes = viewer === undefined ? undefined : listScopes(viewer);
  if (viewer === undefined || scopes === undefined || onlyOwn(list, viewer.person.id))
    return listWithin(list, context, after);
  // The parts plan with the same counters (the total, the list's own values), and a counter
  // partition the planner and a part's count both read (the total's, a status's) is read once
  // for all of them (the context's `stats.shared`): unshared, 20 scopes' open actions by due date
  // read `all`'s four times. A part the counters count estimates the location values
  // (`estimated`): it reads its scope's partitions whatever they hold.
  const scoped = { ...context, estimated: new Set(scopeCounters) };
  return listScoped(list, scopes, viewer.person.id, scoped, after);
}
