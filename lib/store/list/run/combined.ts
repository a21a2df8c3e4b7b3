import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../../errors';
import type { Clause, ListQuery } from '../../../filter/query';
import type { Scope } from '../../../model/access';
import type { StoredClause } from '../../fields';
import type { Item } from '../../item';
import { attr } from '../../table';
import { expressionLimits, filterExpression, Placeholders } from '../plan/expression';
import { clauseIn } from '../plan/index-holds';
import { type Plan, plan, type Sizes, sortBytes, type Walk, walkBytes } from '../plan/plan';
import { keyAfter } from '../plan/positions';
import type { ListContext, Position } from '../plan/result';
import { mergeInOrder } from './merge';
import { keptShare, queryInput, walkPageSize } from './reads';
import { walkInOrder } from './walk';

/**
 * A scoped list's scopes read as one part (contract section 14, "Cost"): the walk the list takes
 * in open mode, in its order, whose filter also keeps only the actions in one of the scopes,
 * counted as the sum of the scopes' counts. Where many scopes hold a good share of that walk's
 * entries (20 sites' open actions by due time), one walk finds the page in a few of its entries,
 * where a part a scope would read each scope's partition whole to sort it. A scope with an empty
 * location value, which the location indexes leave out, is a filter here like any other.
 */

/** The least a query is billed: 4 KB, half a read unit. */
const QUERY_BYTES = 4_096;

/** A scope's fields as the equality clauses its part adds to the list. */
export type ScopeClauses = (scope: Scope) => Clause[];

/** The bytes a scope's part is expected to read: the cheaper of its sort and its walk, and a query at least. Pure. */
function partBytes(chosen: Plan, matches: number, window: number): number {
  if (chosen.empty || matches === 0) return 0;
  const walked = chosen.walk ? walkBytes(chosen.walk, matches, window) : Number.POSITIVE_INFINITY;
  return Math.max(QUERY_BYTES, Math.min(sortBytes(chosen), walked));
}

/**
 * The walk that serves every scope at once, when it is expected to read fewer bytes than the
 * scopes' parts: the list's own walk in open mode, not a fetching one, over an index whose
 * entries hold the scopes' fields. It reads what `walkBytes` says for all `counts` matches, and
 * a query a partition at least; each part, the cheaper of its own sort and walk for about its
 * share of the window (`window / scopes`, and the one that says more follow). Also whenever
 * `crowded`: the parts would not each get a page within what the budget has left, so they could
 * not be sure of any match (and a walk of pages that are never sure never ends), where the one
 * walk is sure of every entry it reads. `undefined` otherwise. Pure.
 */
export function combinedWalk(
  list: ListQuery,
  scopes: readonly Scope[],
  counts: readonly number[],
  clausesOf: ScopeClauses,
  sizes: Sizes,
  crowded = false,
): Walk | undefined {
  const window = list.skip + list.limit + 1;
  const matches = counts.reduce((a, b) => a + b, 0);
  const { walk } = plan(list, sizes);
  // A walk of title ranges (`Walk.mergeKey`) is a part's alone: the combined read queries partitions.
  if (!walk || walk.fetch || walk.read.ranges || matches === 0 || scopes.length < 2) return undefined;
  if (scopes.some((scope) => clausesOf(scope).some((c) => clauseIn(walk.read.index, c) === undefined)))
    return undefined;
  const combined = Math.max(walk.read.partitions.length * QUERY_BYTES, walkBytes(walk, matches, window));
  const share = Math.ceil(window / scopes.length) + 1;
  const parts = scopes.reduce((sum, scope, i) => {
    const chosen = plan({ ...list, filters: [...list.filters, ...clausesOf(scope)] }, sizes);
    return sum + partBytes(chosen, counts[i] as number, share);
  }, 0);
  return crowded || combined < parts ? walk : undefined;
}

/** What the combined part read: its first matches in order, each with its place, and how far it is sure. */
export interface Combined {
  matches: Array<{ at: Position; id: string }>;
  /** The budget cut the read short: every match up to `reached` is read (none when it is absent). */
  cut: boolean;
  reached?: Position;
}

/**
 * The first `window` matches of `walk` that lie in one of the scopes, after `after`: its
 * partitions merged in order, each query filtered by the walk's own clauses and the scopes'
 * (one group of clauses a scope, joined by OR). `matches` (the scopes' counts) sizes its pages.
 * `undefined` when that filter passes DynamoDB's limits on an expression: then each scope is
 * read as a part of its own.
 */
export async function readCombined(
  walk: Walk,
  scopes: readonly Scope[],
  clausesOf: ScopeClauses,
  window: number,
  forward: boolean,
  matches: number,
  { budget, stats }: ListContext,
  after?: Position,
): Promise<Combined | undefined> {
  const { read } = walk;
  const from = keyAfter(after);
  const sortKey = read.index.sortKey.name;
  const stored = (scope: Scope) => clausesOf(scope).map((c) => clauseIn(read.index, c) as StoredClause);
  const scoped = (partition: string | number) => {
    const p = new Placeholders();
    const input = queryInput(read, partition, p, forward, from);
    const groups = scopes.map((scope) => `(${filterExpression(stored(scope), p)})`);
    const any = p.op(groups.length - 1, `(${groups.join(' OR ')})`);
    const own = input.FilterExpression;
    const filter = own === undefined ? any : p.op(1, `(${own}) AND ${any}`);
    return { input: { ...input, FilterExpression: filter } as QueryCommandInput, p };
  };
  let sample: ReturnType<typeof scoped>;
  try {
    sample = scoped(read.partitions[0] as string | number);
  } catch (error) {
    // Too many scopes for one expression (`filterExpression` refuses it): a part each, then.
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
  const length = sample.input.FilterExpression?.length ?? 0;
  if (length > expressionLimits.maxLength || sample.p.operators > expressionLimits.maxOperators) return undefined;
  // The share of the walk's entries in the scopes, for its pages; its filter is its own and a scope's.
  const kept = keptShare(matches, walk.entries);
  const filtered = { ...read, filter: [...read.filter, ...stored(scopes[0] as Scope)] };
  const pageSize = walkPageSize(filtered, window, read.partitions.length, kept);
  const merged = await mergeInOrder(
    read.partitions,
    (partition) => scoped(partition).input,
    sortKey,
    forward,
    window,
    budget,
    stats,
    pageSize,
    from,
  );
  return {
    matches: merged.items.map((item) => ({ at: item[sortKey] as string, id: item[attr.id] as string })),
    cut: merged.cut,
    ...(merged.reached !== undefined ? { reached: merged.reached } : {}),
  };
}

/**
 * What a fetching walk reads for an action it fetches, as billed: a fetched item costs half a
 * read unit however small (4 KB), beside its key entry.
 */
const FETCHED_BYTES = 4_196;

/**
 * The walk that serves every scope at once by fetching, where the list's own walk in open mode
 * is over an index that does not hold the scopes' fields (`sort=title`, the default order): its
 * entries in the list's order, a run at a time, each one's action fetched and kept when it lies in
 * a scope. It reads about `window / share` entries and actions, `share` being the scopes' part of
 * the entries it walks (from their counts); each scope's part would read its own partition whole
 * to sort it. Chosen when cheaper than the parts, or when `crowded` (see `combinedWalk`): then it
 * is sure of every entry it reads, where the parts may be sure of none. With unknown `counts`
 * (a scope the counters do not count) only when crowded. Pure.
 */
export function fetchingWalk(
  list: ListQuery,
  scopes: readonly Scope[],
  counts: ReadonlyArray<number | undefined>,
  clausesOf: ScopeClauses,
  sizes: Sizes,
  crowded = false,
): { walk: Walk; share: number } | undefined {
  const window = list.skip + list.limit + 1;
  const { walk } = plan(list, sizes);
  if (!walk || walk.fetch || walk.read.ranges || list.limit === 0 || scopes.length < 2) return undefined;
  const known = counts.every((c) => c !== undefined) ? (counts as number[]) : undefined;
  const matches = known?.reduce((a, b) => a + b, 0);
  if (matches === 0) return undefined;
  const share = matches === undefined ? 0.5 : Math.min(1, matches / Math.max(1, walk.entries));
  const fetched = { ...walk, fetch: true, clauses: [] };
  if (crowded) return { walk: fetched, share };
  if (known === undefined) return undefined;
  const examined = Math.min(walk.entries, Math.ceil(window / share) + walk.read.partitions.length);
  const bytes = examined * FETCHED_BYTES + walk.read.partitions.length * QUERY_BYTES;
  const shareOf = Math.ceil(window / scopes.length) + 1;
  const parts = scopes.reduce((sum, scope, i) => {
    const chosen = plan({ ...list, filters: [...list.filters, ...clausesOf(scope)] }, sizes);
    return sum + partBytes(chosen, known[i] as number, shareOf);
  }, 0);
  return bytes < parts ? { walk: fetched, share } : undefined;
}

/**
 * The first `window` matches of a fetching walk (`fetchingWalk`) that lie in one of the scopes,
 * after `after`, with the actions it fetched; how far it is sure, as `readCombined` says.
 */
export async function readFetching(
  chosen: { walk: Walk; share: number },
  inScopes: (item: Item) => boolean,
  window: number,
  forward: boolean,
  { budget, stats }: ListContext,
  after?: Position,
): Promise<Combined & { fetched: Map<string, Item> }> {
  const walked = await walkInOrder(chosen.walk, forward, window, budget, stats, keyAfter(after), undefined, {
    keep: inScopes,
    share: chosen.share,
  });
  return {
    matches: walked.rows.map((row) => ({ at: row.value as string, id: row.id })),
    cut: walked.cut,
    ...(walked.reached !== undefined ? { reached: walked.reached } : {}),
    fetched: walked.fetched ?? new Map(),
  };
}
