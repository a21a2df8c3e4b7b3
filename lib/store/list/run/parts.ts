import { type FieldSpec, fieldsByName } from '../../../filter/fields';
import type { Clause, ListQuery } from '../../../filter/query';
import { type Scope, scopeFields } from '../../../model/access';
import type { Action } from '../../../model/action';
import { sortAttributeOf } from '../../fields';
import { type Item, toItem, valueAt } from '../../item';
import { BudgetSpent } from '../../query/budget';
import { attr } from '../../table';
import { DEFAULT_SORT } from '../plan/plan';
import { comparePositions, positionOf } from '../plan/positions';
import type { ListContext, Position } from '../plan/result';
import { listWithin } from './open';

/**
 * A scoped list's parts read a scope at a time (contract section 14, `entry.ts`): each scope's
 * part is the caller's query with the scope's fields added as equality filters, read a page at a
 * time, and the parts merged in the list's order until the merge is sure of its window.
 */

/** A match of a part: its place in the list's order, and the action where the part's read fetched it. */
export interface Match {
  at: Position;
  action?: Action;
  id: string;
}

/** One part's matches in order, each with its position, and how far the part is sure of them. */
export interface Part {
  matches: Match[];
  totalCount: number;
  exact: boolean;
  /** More matches follow the ones read. */
  more: boolean;
  /** The budget cut the part short: every match up to `reached` is read (none when `reached` is absent). */
  cut: boolean;
  reached?: Position;
}

/** A scope's fields as equality filters, each value taken exactly as it is. */
export function scopeClauses(scope: Scope): Clause[] {
  return scopeFields(scope).map((field) => ({
    field: fieldsByName.get(`location.${field}`) as FieldSpec,
    type: 'string',
    op: '=',
    values: [scope[field] as string],
  }));
}

/** Where an action stands in the list's order (see `Position`), from its stored form. */
export function positionOfItem(field: FieldSpec, item: Item): Position {
  const sortAttribute = sortAttributeOf(field);
  return positionOf(field, sortAttribute, {
    id: item[attr.id] as string,
    value: valueAt(item, sortAttribute),
    created: item[attr.createdKey] as string,
  });
}

/** One scope's part as the merge reads it: a page at a time, each after the last. */
interface Stream {
  scope: Scope;
  part: Part;
  /** How many of the part's matches the merge has taken. */
  taken: number;
  /** Where the part's next page starts: its last page's cursor (at first, the list's). */
  next?: Position;
  /** The part's count from the counters, where they count its shape: then no page counts again. */
  known?: number;
  /** The length of its last page; the next is up to twice it. */
  size: number;
}

/**
 * Reads the next `size` matches of a stream's part (places only, where the part's read can give
 * them: the merged page is fetched once, not once a part), and adds them to it.
 */
async function readOn(list: ListQuery, stream: Stream, size: number, context: ListContext) {
  const field = (list.sort ?? DEFAULT_SORT).field;
  const began = stream.next;
  const result = await listWithin(
    { ...list, filters: [...list.filters, ...scopeClauses(stream.scope)], skip: 0, limit: size },
    { ...context, positionsOnly: true },
    stream.next,
    stream.known,
  );
  const matches: Part['matches'] =
    result.positions ??
    result.actions.map((action) => ({ at: positionOfItem(field, toItem(action)), action, id: action.id }));
  stream.part.matches.push(...matches);
  stream.size = size;
  stream.next = result.next;
  stream.part.more = result.next !== undefined;
  // A page shorter than asked with a cursor stopped where the budget did (or an action was deleted
  // since its entry was read): either way it is sure only up to its cursor.
  if (size > 0 && result.next !== undefined && matches.length < size) {
    stream.part.cut = true;
    stream.part.reached = result.next;
  } else if (result.cut && result.next === undefined) {
    // Stopped before it was sure of any match: nothing past where it began is sure.
    stream.next = began;
    stream.part.more = true;
    stream.part.cut = true;
    if (began !== undefined) stream.part.reached = began;
  }
  return result;
}

/** One scope's part, counted (`known`, from the counters, where they count its shape), with its first page of `size` matches after `after` read. */
async function openScope(
  list: ListQuery,
  scope: Scope,
  known: number | undefined,
  size: number,
  context: ListContext,
  after?: Position,
): Promise<Stream> {
  const part: Part = { matches: [], totalCount: known ?? 0, exact: known !== undefined, more: false, cut: false };
  const stream: Stream = { scope, part, taken: 0, ...(after !== undefined ? { next: after } : {}), known, size };
  // A part the counters count empty reads nothing (a walk would read its index to the end to find nothing).
  if (known !== undefined && (size === 0 || known === 0)) return stream;
  const result = await readOn(list, stream, size, context);
  if (known === undefined) {
    part.totalCount = result.totalCount;
    part.exact = result.totalCountRelation === 'eq';
  }
  return stream;
}

/**
 * Reads the scopes' parts on, a page at a time, until the merge of them (and the caller's own) is
 * sure of its first `want` matches: a part whose matches read the merge has all taken is read on
 * (up to twice its last page, never more than the merge still wants) before anything after it is
 * taken, so k scopes read about the window and a page of each, not k windows. Where a part the
 * budget cut has no more to give, nothing past it is sure: every part is then sure only up to
 * where it read.
 */
async function readInOrder(
  list: ListQuery,
  own: Part,
  streams: Stream[],
  want: number,
  context: ListContext,
): Promise<void> {
  const direction = (list.sort ?? DEFAULT_SORT).descending ? -1 : 1;
  const mine = { part: own, taken: 0 };
  const left = (s: { part: Part; taken: number }) => s.part.matches.length - s.taken;
  let stuck = false;
  for (let taken = 0; taken < want; taken++) {
    for (const stream of streams.filter((s) => left(s) === 0 && s.part.more && !s.part.cut)) {
      try {
        await readOn(list, stream, Math.max(1, Math.min(want - taken, 2 * stream.size)), context);
      } catch (error) {
        if (!(error instanceof BudgetSpent)) throw error;
        stream.part.cut = true;
        stream.part.reached = stream.next;
      }
    }
    stuck = streams.some((s) => left(s) === 0 && s.part.cut);
    if (stuck) break;
    let next: { part: Part; taken: number } | undefined;
    for (const s of [mine, ...streams]) {
      const head = s.part.matches[s.taken];
      if (head && (!next || direction * comparePositions(head.at, (next.part.matches[next.taken] as Match).at) < 0))
        next = s;
    }
    if (!next) break;
    next.taken++;
  }
  if (!stuck) return;
  for (const stream of streams) {
    if (stream.part.cut || !stream.part.more) continue;
    stream.part.cut = true;
    stream.part.reached = stream.next;
  }
}

/** Each scope as a part of its own, read on in order until the merge is sure of the window (`readInOrder`). */
export async function inParts(
  list: ListQuery,
  own: Part,
  scopes: readonly Scope[],
  counts: ReadonlyArray<number | undefined>,
  window: number,
  context: ListContext,
  after?: Position,
): Promise<Part[]> {
  // A first page of each scope's part sized so that together they hold about the window.
  const first = window === 0 ? 0 : Math.min(window, Math.ceil(window / Math.max(1, scopes.length)) + 1);
  const streams: Stream[] = [];
  for (const [i, scope] of scopes.entries())
    streams.push(await openScope(list, scope, counts[i], first, context, after));
  // The merge takes the window's matches; whether more follow, each part's last page says.
  if (window > 0) await readInOrder(list, own, streams, window, context);
  return streams.map((s) => s.part);
}
