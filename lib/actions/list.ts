import { badCursor, encodeCursor, openCursor } from '../cursor';
import { ValidationError } from '../errors';
import { type ListQuery, parseListQuery, parseListTerms } from '../filter/query';
import { logger } from '../logger';
import type { Viewer } from '../model/access';
import type { Person } from '../model/action';
import { toView } from '../model/view';
import { listVisible } from '../store/list/entry';
import type { Position } from '../store/list/plan/result';
import { requestBudget } from '../store/query/budget';
import type { Usage } from '../usage';

/**
 * `GET /api/actions` (contract sections 4 and 14): a page of what the caller sees, with its
 * sealed cursor. A module of its own, apart from the writes in `action-service.ts`, so that the
 * list function does not carry the create and patch validators (zod) it never calls.
 */

/** The most a list page may weigh; Lambda's response limit is 6 MB. */
const MAX_LIST_PAGE_BYTES = 5_500_000;

/** What a list cursor is bound to, beside its caller: its filters and sort travel inside it, sealed. */
const LIST_CURSOR = 'list';

/** Filters and sort as a cursor carries them: `[parameter, value]` pairs in a canonical order. */
const isTerms = (terms: unknown): terms is Array<[string, string]> =>
  Array.isArray(terms) &&
  terms.every((t) => Array.isArray(t) && t.length === 2 && t.every((v) => typeof v === 'string'));

/**
 * The query a cursor continues, and where: the request may repeat the cursor's filters and sort
 * exactly, or leave them out; any other filter or sort beside it is a 400 naming `cursor`. A
 * cursor opens only for the caller it was given to (lib/cursor.ts).
 */
function continued(
  query: ListQuery,
  cursor: string,
  callerId: string,
): { query: ListQuery; after: Position | undefined } {
  const { key, carried } = openCursor(cursor, { scope: LIST_CURSOR, caller: callerId });
  if (!isTerms(carried)) throw badCursor();
  // `null`: a cursor that starts the list again (one the budget stopped before its first sure match).
  const after = key === null ? undefined : (key as Position);
  if (query.terms.length > 0) {
    if (JSON.stringify(query.terms) !== JSON.stringify(carried))
      throw badCursor('belongs to another list: repeat its filters and sort exactly, or leave them out');
    return { query, after };
  }
  return { query: { ...parseListTerms([...carried, ['limit', String(query.limit)]], callerId), cursor }, after };
}

/**
 * A list for `caller`, who is `me` in its owner and assignee filters and the one its cursors are
 * bound to, of what `viewer` sees (section 14), read within the request's `usage` (none: a
 * script's, `LIST_READ_BUDGET`).
 */
export async function listActions(rawQueryString: string, caller: Pick<Person, 'id'>, viewer?: Viewer, usage?: Usage) {
  const parsed = parseListQuery(rawQueryString, caller.id);
  const { query, after } =
    parsed.cursor === undefined ? { query: parsed, after: undefined } : continued(parsed, parsed.cursor, caller.id);
  const result = await listVisible(query, after, viewer, requestBudget(usage));
  logger.info('list cost', {
    strategy: result.strategy,
    index: result.index,
    partitions: result.partitions,
    matched: result.totalCount,
    relation: result.totalCountRelation,
    ...result.stats,
  });
  // A list the budget (or the read quota) stopped before it was sure of any match still continues:
  // its cursor starts where this page began (`null`: the beginning), so no cut page ends a walk.
  const next = result.next ?? (result.cut && query.limit > 0 ? (after ?? null) : undefined);
  const page = {
    actions: result.actions.map(toView),
    totalCount: result.totalCount,
    totalCountRelation: result.totalCountRelation,
    ...(next !== undefined
      ? { nextCursor: encodeCursor({ scope: LIST_CURSOR, caller: caller.id }, next, query.terms) }
      : {}),
  };
  // Lambda answers at most 6 MB; a page of the largest actions can pass that, and is then refused.
  const bytes = Buffer.byteLength(JSON.stringify(page), 'utf8');
  if (bytes > MAX_LIST_PAGE_BYTES) {
    const fits = Math.max(1, Math.floor((query.limit * MAX_LIST_PAGE_BYTES) / bytes));
    throw new ValidationError([
      {
        parameter: 'limit',
        message: `this page would be ${bytes} bytes, more than a response can carry; use limit=${fits} or less`,
      },
    ]);
  }
  return page;
}
