import { nowIso } from '../../../dates';
import type { Clause, ListQuery } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { isCounted, readCount, readCounts } from '../../counters/counters';
import type { StoredClause } from '../../fields';
import { fromItem, type Item, isTombstone } from '../../item';
import { BudgetSpent, type ReadBudget } from '../../query/budget';
import { queryInput } from '../../query/key-query';
import {
  COUNT_READ,
  canSearch,
  type PageReader,
  type ProbeSample,
  probe,
  readProbed,
  type SearchRequest,
  sample,
  search,
} from '../../search/search';
import { attr, itemKind } from '../../table';
import { createdOnDays } from '../count/date-counts';
import { type DayRange, dayNumber, MIN_DAY } from '../count/date-spans';
import { clauseHolds, filterExpression, Placeholders } from '../plan/expression';
import { DEFAULT_SORT, equalityIndexes, MAX_MERGED_VALUES } from '../plan/plan';
import { keyAfter } from '../plan/positions';
import type { ListContext, ListResult, Position, ReadStats } from '../plan/result';
import { readPage } from './merge';
import { listPlanned } from './planned';
import { fetchActions, fetchItems } from './reads';

/** Search: `*` on title or producer reference, from the n-gram postings (lib/store/search/). */

/**
 * What one entry of a counted value's partition costs to read: its index items carry the filter
 * map, a few hundred bytes (a site's 298 entries cost 24 read units at 10,000 actions).
 */
const ENTRY_READ_UNITS = 1 / 12;
/** What verifying one candidate of the postings costs: a query of its item, half a read unit at least. */
const CANDIDATE_READ_UNITS = 0.5;

/**
 * Whether a counted value's partition (`entries` actions, of `total` in the table) is cheaper to
 * read whole, filtered, for an exact count, than the postings are to search: the postings list
 * the fragment's matches in the whole table, so about `total / entries` candidates are verified
 * on their items for each match inside the partition, and a page wants `window` matches (a count
 * alone is costed as one). So on a page of 10 a partition is read whole up to about 810 actions
 * of 10,000 and 2,570 of 100,000 (`bench:scoped`, one site scope of 296 at 10,000: 24 read units
 * and an exact count, where the search cost 143.5). The estimate leaves out the postings the
 * search reads on for its count (`COUNT_READ` in `search.ts`), which a fragment's matches
 * decide: it leans to the search, which a rare fragment answers in a few small queries.
 */
export const partitionCheaper = (entries: number, total: number, window: number): boolean =>
  entries * ENTRY_READ_UNITS <= CANDIDATE_READ_UNITS * Math.max(window, 1) * (total / Math.max(entries, 1));

/**
 * Whether walking a counted value's partition in creation order (`entries` actions of `total`)
 * until the page's `window` matches are found costs less than the search, judged from the search's
 * probe (`sample`): of the chosen gram's first postings, `held` hold the fragment, among the
 * `spanned` actions created over the days they span, so about `held / spanned` of all actions
 * match (`share`). The walk reads about `window / share` entries of the partition; the search
 * verifies about `window x total / entries` candidates (each match of the partition comes with
 * `total / entries` outside it), or every match when fewer. Never when the gram's postings ended
 * or are few enough to read whole (`COUNT_READ`: the search then counts exactly), nor when the
 * partition holds few more matches than the page (the walk would read most of it). One site of
 * 2,976 among 100,000 actions and a fragment one action in 100 holds: the walk about 92 read
 * units, the search about 185 (`bench/results/scoped-100000.md`).
 */
export function walkCheaper(
  probed: ProbeSample,
  spanned: number,
  entries: number,
  total: number,
  window: number,
): boolean {
  // Fewer actions on those days than postings read: the day counters do not know them (yet), so no estimate.
  if (probed.ended || window === 0 || spanned < Math.max(probed.read, 1)) return false;
  if ((probed.read / spanned) * total <= COUNT_READ) return false;
  const share = probed.held / spanned;
  if (share * entries <= 2 * window) return false;
  const walk = ENTRY_READ_UNITS * Math.min(entries, window / share);
  const searched = CANDIDATE_READ_UNITS * Math.min(share * total, (window * total) / Math.max(entries, 1));
  return walk < searched;
}

/** The days a probe's postings span: from where the read began (a cursor's place, today or the first day) to the last one read. */
function probedDays(probed: ProbeSample, descending: boolean, after: string | undefined): DayRange | undefined {
  if (probed.reached === undefined) return undefined;
  const reached = dayNumber(probed.reached);
  // Today, or the posting's day if its clock ran ahead of this one's.
  const began =
    after === undefined ? (descending ? Math.max(dayNumber(nowIso()), reached) : MIN_DAY) : dayNumber(after);
  return descending ? { first: reached, last: began } : { first: began, last: reached };
}

/**
 * The `*` clause the search index serves, when the list is in creation order (the postings'
 * order) or only counts: a fragment of 3 or more characters on `title` or
 * `actionProducer.reference`. Shorter fragments, and other sorts, go to the planner.
 */
export function searchClause(list: ListQuery): Clause | undefined {
  if (list.limit !== 0 && (list.sort ?? DEFAULT_SORT).field.name !== 'createdAt') return undefined;
  return list.filters.find((c) => c.op === '*' && canSearch(c.field.name, String(c.values[0])));
}

/**
 * Which of `ids` the live actions match `clauses` for: one item query each, filtered by the
 * same expression any index read uses, each charged to the budget as one entry.
 */
async function matchingIds(ids: string[], clauses: Clause[], budget: ReadBudget, stats: ReadStats) {
  const kept = new Set<string>();
  await all(
    ids.map(async (id) => {
      const input = queryInput(
        {
          partition: id,
          sort: { op: '=', value: itemKind.action },
          filter: (p) => filterExpression(clauses as StoredClause[], p as Placeholders),
          projection: [attr.id],
        },
        new Placeholders(),
      );
      if ((await readPage(input, 1, budget, stats)).Items?.length) kept.add(id);
    }),
  );
  return kept;
}

/**
 * A list with a `*` the search index serves: its matches in creation order from the rarest gram's
 * postings (`lib/store/search/search.ts`), every other filter verified on the candidates. The
 * count is exact when every posting of that gram was read, else a lower bound.
 */
export async function listSearched(
  list: ListQuery,
  context: ListContext,
  after?: Position,
): Promise<ListResult | undefined> {
  const { budget, stats } = context;
  const clause = searchClause(list);
  if (!clause) return undefined;
  const others = list.filters.filter((c) => c !== clause);
  // The cheaper side: a counted value's partition read whole (`partitionCheaper`), or postings
  // whose candidates are each verified on their item.
  let total: number | undefined;
  // The smallest such partition: what a walk in creation order would read (`walkCheaper`).
  let smallest: number | undefined;
  const window = searchWindow(list);
  for (const other of others) {
    if (!isCounted(other.field.name) || (other.op !== '=' && other.op !== '~') || other.type === 'boolean') continue;
    // Counted, but no index keeps its partition (the deeper location fields): nothing to read whole.
    if (equalityIndexes[other.field.name] === undefined) continue;
    const values = [...new Set((other.values as Array<string | number>).map(String))];
    if (values.includes('') || values.length > MAX_MERGED_VALUES) continue;
    const entries = await readCounts(other.field.name, values, stats);
    total ??= await readCount('all', '', stats);
    if (partitionCheaper(entries, total, window)) return undefined;
    smallest = Math.min(smallest ?? entries, entries);
  }
  const { request, read } = searchFor(clause, list, after, budget, stats, {
    ...(others.length > 0 ? { verify: (ids: string[]) => matchingIds(ids, others, budget, stats) } : {}),
  });
  const probed = await probe(request, read);
  if (probed && smallest !== undefined && total !== undefined) {
    const probedSample = sample(probed);
    const days = probedDays(probedSample, request.descending, request.after);
    const spanned = days === undefined ? 0 : await createdOnDays(days, stats);
    // A `skip` the walk cannot read past (`skipTooDeep`) stays with the search, which answers it cut short.
    if (list.skip < budget.available && walkCheaper(probedSample, spanned, smallest, total, window))
      return listPlanned(list, context, after, undefined, true);
  }
  const found = await readProbed(request, read, probed);
  const shown = found.matches.slice(list.skip, list.skip + list.limit);
  const more = found.matches.length > list.skip + list.limit;
  const actions = await fetchActions(
    shown.map((m) => m.id),
    stats,
  );
  // A page the budget cut short continues after the last posting read.
  const next = more ? shown[shown.length - 1]?.key : list.limit > 0 ? found.reached : undefined;
  return {
    actions,
    totalCount: found.matches.length,
    totalCountRelation: found.complete && after === undefined ? 'eq' : 'gte',
    strategy: 'searched',
    index: `search postings of '${found.gram}'`,
    partitions: 1,
    stats,
    ...(next !== undefined ? { next } : {}),
    ...(found.complete ? {} : { cut: true }),
  };
}

/** A scoped search's matches (`searchKept`): in creation order, each with its fetched action. */
export interface KeptSearch {
  matches: Array<{ id: string; key: string; action: ReturnType<typeof fromItem> }>;
  /** Every posting of the chosen gram was read: the matches are all of them (after `after`). */
  complete: boolean;
  reached?: string;
}

/** The matches a search of `list` looks for: its page and one more (none for a count alone). */
const searchWindow = (list: ListQuery): number => (list.limit === 0 ? 0 : list.skip + list.limit + 1);

/** The search of a list's `*` clause, its window and order the list's, and its reader, under the list's budget. */
function searchFor(
  clause: Clause,
  list: ListQuery,
  after: Position | undefined,
  budget: ReadBudget,
  stats: ReadStats,
  extra: Partial<Pick<SearchRequest, 'verify' | 'countRead'>>,
): { request: SearchRequest; read: PageReader } {
  return {
    request: {
      field: clause.field.name as 'title',
      fragment: String(clause.values[0]),
      descending: (list.sort ?? DEFAULT_SORT).descending,
      window: searchWindow(list),
      ...(after === undefined ? {} : { after: keyAfter(after) }),
      ...extra,
    },
    read: (input, want) => readPage(input, want, budget, stats),
  };
}

/**
 * A scoped list's search (contract section 14, "Cost"; `entry.ts`): the postings read once for
 * every scope, not once a scope, each candidate's action fetched (charged to the budget as an
 * entry, as a fetching walk's) and kept when the list's other filters and `keep` (in one of the
 * caller's scopes) hold on it. It reads postings only until the window is found, as a fetch a
 * candidate makes counting past it cost a read per match: the count is then a lower bound, which
 * a `*` on free text may answer (section 4). `undefined` when the list has no such search.
 */
export async function searchKept(
  list: ListQuery,
  keep: (item: Item) => boolean,
  { budget, stats }: ListContext,
  after?: Position,
): Promise<KeptSearch | undefined> {
  const clause = searchClause(list);
  if (!clause) return undefined;
  const others = list.filters.filter((c) => c !== clause);
  const fetched = new Map<string, Item>();
  const verify = async (ids: string[]) => {
    const granted = await budget.take(ids.length);
    budget.settle(granted, granted);
    if (granted < ids.length) throw new BudgetSpent(budget.limit);
    const items = await fetchItems(ids, stats);
    const kept = new Set<string>();
    for (const [id, item] of items) {
      if (isTombstone(item) || !others.every((c) => clauseHolds(c, item)) || !keep(item)) continue;
      kept.add(id);
      fetched.set(id, item);
    }
    return kept;
  };
  const { request, read } = searchFor(clause, list, after, budget, stats, { verify, countRead: 0 });
  const found = await search(request, read);
  return {
    matches: found.matches.flatMap((m) => {
      const item = fetched.get(m.id);
      return item ? [{ id: m.id, key: m.key, action: fromItem(item) }] : [];
    }),
    complete: found.complete,
    ...(found.reached !== undefined ? { reached: found.reached } : {}),
  };
}
