import { settleAll } from '../../flow/fan-out';
import { postingsTableName } from '../client';
import type { Item } from '../item';
import { BudgetSpent } from '../query/budget';
import { type ExpressionPlaceholders, queryInput } from '../query/key-query';
import { type PageReader, QueryCursor, queryAll, queryPage } from '../query/pager';
import { attr, filterKey, itemKind, lowerKey } from '../table';
import { probeGrams, RUN_SEPARATOR, searchable } from './grams';
import { pendingPartitions, postingPartition, type SearchField, searchAttr, searchFields } from './keys';

/**
 * `*` on a searched field (`title`, `actionProducer.reference`) from the n-gram postings
 * (`postings.ts`): every match of a fragment holds every gram of it, so the postings of any one
 * gram list every match, in created order, and the rarest gram lists the fewest others. The
 * search probes the first page of a few of the fragment's grams, reads on in the one that is
 * rarest (a probe that ends is its whole list; otherwise the page that reaches furthest back in
 * time is the sparsest), keeps the postings whose text holds the whole fragment, and stops once
 * it holds the matches a page needs. So a fragment one action in ten million matches costs a few
 * small queries, and a common one costs its page, with a lower-bound count.
 *
 * Freshness: the pending marks of changes the stream has not indexed yet are read first, and for
 * those actions the mark decides, not the postings (which may still be missing or stale).
 *
 * Forgetting (issue 41 item 4): the marks are read before any posting, both strongly consistent.
 * The stream removes a change's mark only after that change's postings are written, so an action
 * with no mark when the marks were read has postings that already reflect every change committed
 * before that read; a change committed later may show half written in the postings, which shows
 * the action either as it was or as it became, both states it held during the search. Read side by
 * side, the postings could be read before a delete's stream removed them and the marks after it
 * removed the delete's mark: the deleted action was found.
 */

/** Reads one page of a query under the list's budget (`lib/store/list/run/merge.ts`), `BudgetSpent` when it is gone. */
export type { PageReader };

export interface SearchRequest {
  field: SearchField;
  /** The fragment, folded as the query language folds it. */
  fragment: string;
  descending: boolean;
  /** Matches wanted (a page's `skip + limit + 1`, so the last says whether more follow). */
  window: number;
  /** Continue after this created key (a cursor's position). */
  after?: string;
  /**
   * Keeps, of candidate ids that hold the fragment, those the other filters of the list match;
   * absent when the fragment is the only filter.
   */
  verify?: (ids: string[]) => Promise<Set<string>>;
  /**
   * Postings read at least, past the window, to count the matches (default `COUNT_READ`): a
   * search whose every candidate costs a fetch to verify (a scoped list's) reads only its window.
   */
  countRead?: number;
}

export interface Match {
  id: string;
  /** The action's created key: its place in the order, and a cursor's position. */
  key: string;
}

export interface SearchResult {
  /** The matches found, in the requested order. */
  matches: Match[];
  /** Every match (after `after`) is among them: the count is exact. */
  complete: boolean;
  /** Where the read of postings stopped, when it did not read them all: a cursor continues after it. */
  reached?: string;
  /** The gram whose postings were read, and how many postings were read in all. */
  gram: string;
  postings: number;
}

/** Grams probed at most: each probe is one query (half a read unit or more), so a few, spread over the fragment. */
const PROBES = 4;
/** Postings a probe reads: one small query. */
const PROBE_PAGE = 25;
/**
 * Postings read at most for the count once the page is full: past it the count is a lower
 * bound. 400 postings of ~130 bytes are about 13 read units.
 */
export const COUNT_READ = 400;
/** The largest page read from the chosen gram. */
const MAX_PAGE = 500;

/** Whether the search index can answer `*` with this (folded) fragment on this field. */
export const canSearch = (field: string, fragment: string): field is SearchField =>
  Object.hasOwn(searchFields, field) && searchable(fragment);

/** Up to `count` grams, spread evenly from the first to the last. */
function spread(grams: string[], count: number): string[] {
  if (grams.length <= count) return grams;
  return Array.from({ length: count }, (_, i) => grams[Math.round((i * (grams.length - 1)) / (count - 1))] as string);
}

interface Stream {
  gram: string;
  items: Item[];
  postings: QueryCursor;
}

/** The pending marks: action id -> the mark. Strongly consistent: see the module comment. */
async function readPending(read: PageReader): Promise<Map<string, Item>> {
  const marks = new Map<string, Item>();
  await settleAll(
    pendingPartitions.map(async (partition) => {
      const items = await queryAll(queryInput({ partition, consistent: true }), { read, want: MAX_PAGE });
      for (const item of items) marks.set(item[attr.sortKey] as string, item);
    }),
  );
  return marks;
}

/**
 * What a search's probe found (`probe`): the pending marks, the first postings of a few of the
 * fragment's grams, and the gram chosen to read on, with what its first postings say about how
 * common the fragment is (`sample`).
 */
export interface Probe {
  pending: Map<string, Item>;
  probes: Stream[];
  chosen: Stream;
  /** What a posting's context must hold: the whole fragment, or the piece of a long one around its gram. */
  piece: string;
  verifiable: boolean;
}

/** What the chosen gram's first postings say, before any candidate is verified. */
export interface ProbeSample {
  /** Every posting of the gram was read: the search costs no more than these. */
  ended: boolean;
  /** Postings read of the gram, and how many of them hold the fragment (and are not pending). */
  read: number;
  held: number;
  /** The created key of the last posting read: the postings span from the read's start to it. */
  reached?: string;
}

/**
 * The candidate a posting names, when its text holds the probe's piece and its action has no
 * pending mark (the mark decides for that one): its action's id and created key.
 */
function candidateOf(item: Item, { pending, piece }: Probe): Match | undefined {
  const key = item[attr.sortKey] as string;
  // The posting's key is the created key, `<createdAt>#<id>`: the id follows the last `#`.
  const id = key.slice(key.lastIndexOf('#') + 1);
  return !pending.has(id) && String(item[searchAttr.text] ?? '').includes(piece) ? { id, key } : undefined;
}

export function sample(probed: Probe): ProbeSample {
  const { chosen } = probed;
  const held = chosen.items.filter((item) => candidateOf(item, probed) !== undefined).length;
  const last = chosen.items[chosen.items.length - 1]?.[attr.sortKey] as string | undefined;
  return { ended: chosen.postings.done, read: chosen.items.length, held, ...(last ? { reached: last } : {}) };
}

const readOn = async (stream: Stream, want: number) => {
  const page = await stream.postings.next(want);
  stream.items.push(...(page.Items ?? []));
};

const lastKey = (s: Stream) => (s.items[s.items.length - 1]?.[attr.sortKey] as string | undefined) ?? '';

/**
 * The first step of a search: the pending marks, then the first page of a few of the fragment's
 * grams, and the rarest of them chosen (`undefined` when the fragment has no gram to search: it
 * matches nothing). A few small queries, so a list can weigh the search against another read.
 */
export async function probe(request: SearchRequest, read: PageReader): Promise<Probe | undefined> {
  const { field, fragment, descending, after } = request;
  const postingsOf = (gram: string) =>
    new QueryCursor(
      queryInput({
        table: postingsTableName(),
        partition: postingPartition(field, gram),
        ...(after === undefined ? {} : { sort: { op: descending ? '<' : '>', value: after } }),
        descending,
        consistent: true,
      }),
      { read },
    );
  // No stored text holds the separator of a posting's runs: a fragment with it matches nothing.
  const { verifiable, grams } = probeGrams(fragment.includes(RUN_SEPARATOR) ? '' : fragment);
  if (grams.length === 0) return undefined;
  const pieces = new Map(grams.map((g) => [g.gram, g.piece]));
  const probes: Stream[] = spread(
    grams.map((g) => g.gram),
    PROBES,
  ).map((gram) => ({ gram, items: [], postings: postingsOf(gram) }));
  // Marks first, then postings: never side by side (see the module comment). A budget too small
  // for the marks and the probes leaves nothing to answer: `BudgetSpent` (a 429 at the edge).
  const pending = await readPending(read);
  await settleAll(probes.map((p) => readOn(p, PROBE_PAGE)));
  const ended = probes.filter((p) => p.postings.done).sort((a, b) => a.items.length - b.items.length);
  // Not ended: the page that reaches furthest in the read's direction spans the most time, so its gram is the sparsest.
  const furthest = [...probes].sort((a, b) => (descending ? 1 : -1) * (lastKey(a) < lastKey(b) ? -1 : 1));
  const chosen = (ended[0] ?? furthest[0]) as Stream;
  return { pending, probes, chosen, piece: verifiable ? fragment : (pieces.get(chosen.gram) as string), verifiable };
}

/** Finds the matches of a fragment; see the module comment. */
export async function search(request: SearchRequest, read: PageReader): Promise<SearchResult> {
  return readProbed(request, read, await probe(request, read));
}

/**
 * A search after its probe: reads on in the chosen gram's postings until the window (and the
 * count's read) is found; no match for a fragment with no gram to search (`probe`'s `undefined`).
 */
export async function readProbed(
  request: SearchRequest,
  read: PageReader,
  probed: Probe | undefined,
): Promise<SearchResult> {
  if (probed === undefined) return { matches: [], complete: true, gram: '', postings: 0 };
  const { field, fragment, descending, window, after, verify } = request;
  const countRead = request.countRead ?? COUNT_READ;
  const code = searchFields[field].code;
  const { pending, probes, chosen, verifiable } = probed;

  const matches: Match[] = [];
  let used = 0;
  let postings = probes.reduce((n, p) => n + p.items.length, 0);
  let complete = false;
  const take = async () => {
    const fresh = chosen.items.slice(used);
    const from = used;
    used = chosen.items.length;
    let candidates = fresh.flatMap((item) => candidateOf(item, probed) ?? []);
    let kept: Set<string> | undefined;
    try {
      if (!verifiable && candidates.length > 0) {
        const holding = await holdFragment(
          candidates.map((c) => c.id),
          field,
          fragment,
          read,
        );
        candidates = candidates.filter((c) => holding.has(c.id));
      }
      kept = verify && candidates.length > 0 ? await verify(candidates.map((c) => c.id)) : undefined;
    } catch (error) {
      // Postings the budget left unverified are unread: the search reached only the ones before them.
      chosen.items.length = from;
      throw error;
    }
    matches.push(...(kept ? candidates.filter((c) => kept.has(c.id)) : candidates));
  };
  try {
    await take();
    while (!chosen.postings.done && (matches.length < window || postings < countRead)) {
      const want = Math.min(MAX_PAGE, Math.max(PROBE_PAGE, window - matches.length, postings));
      const before = chosen.items.length;
      await readOn(chosen, want);
      postings += chosen.items.length - before;
      await take();
    }
    complete = chosen.postings.done;
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
  }

  // The pending marks that hold the fragment, within what the postings covered.
  const reached = complete ? undefined : lastKey(chosen);
  const beyond = (key: string) =>
    (after !== undefined && (descending ? key >= after : key <= after)) ||
    (reached !== undefined && (descending ? key < reached : key > reached));
  const marked = [...pending.values()].flatMap((mark) => {
    const key = mark[searchAttr.createdKey] as string;
    const text = mark[code];
    if (mark[searchAttr.deleted] !== undefined || typeof text !== 'string' || !text.includes(fragment)) return [];
    return beyond(key) ? [] : [{ id: mark[attr.sortKey] as string, key }];
  });
  // Marks the budget left no read to verify are left out, as a posting past `reached` would be.
  const keptMarks = verify && marked.length > 0 ? await verify(marked.map((m) => m.id)).catch(spentAsNone) : undefined;
  matches.push(...(keptMarks ? marked.filter((m) => keptMarks.has(m.id)) : marked));
  matches.sort((a, b) => (descending ? -1 : 1) * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { matches, complete, ...(reached ? { reached } : {}), gram: chosen.gram, postings };
}

/** Where each searched field keeps its whole folded text on the action item, as a condition that it holds `fragment`. */
const holdsCondition: Record<SearchField, (p: ExpressionPlaceholders, fragment: string) => string> = {
  title: (p, fragment) => `contains(${p.name(attr.titleLower)}, ${p.value(fragment)})`,
  // The reference's folded copy is kept only where folding changed it; else the reference is its own.
  'actionProducer.reference': (p, fragment) => {
    const folded = p.name(`${attr.filters}.${lowerKey(filterKey.producerReference)}`);
    const reference = p.name(`${attr.filters}.${filterKey.producerReference}`);
    const f = p.value(fragment);
    return `(attribute_exists(${folded}) AND contains(${folded}, ${f})) OR (attribute_not_exists(${folded}) AND contains(${reference}, ${f}))`;
  },
};

/**
 * Which of `ids` hold a fragment too long for a posting's context, on the action itself: one item
 * query each, charged to the list's budget as one entry, as the other filters' checks are.
 */
async function holdFragment(ids: string[], field: SearchField, fragment: string, read: PageReader) {
  const held = new Set<string>();
  await settleAll(
    ids.map(async (id) => {
      const action = queryInput({
        partition: id,
        sort: { op: '=', value: itemKind.action },
        filter: (p) => holdsCondition[field](p, fragment),
        projection: [attr.id],
        consistent: true,
      });
      const page = await queryPage(action, { read }, 1);
      if (page.Items?.length) held.add(id);
    }),
  );
  return held;
}

/** A verification the budget stopped keeps nothing (the count is then a lower bound anyway). */
function spentAsNone(error: unknown): Set<string> {
  if (error instanceof BudgetSpent) return new Set();
  throw error;
}
