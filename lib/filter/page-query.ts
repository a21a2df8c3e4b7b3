import { clip, type Problem, ValidationError } from '../errors';
import { splitQueryString } from './query';

/**
 * The query string of a paged read that is not the list (a thread, the change feed, a
 * subscription's deliveries): a page size and a cursor, and the few parameters a read adds. The
 * list's own paging (`skip`, `sort`) is part of its query language (`filter/query.ts`).
 */

/** A read's page size when none is asked for, and the largest it gives. */
export interface PageLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
}

export interface PageQuerySpec<Other extends string> {
  limits: PageLimits;
  /** What the read names its cursor (`cursor`; the change feed's is `after`). */
  cursor: string;
  /** The other parameters it takes. */
  others?: readonly Other[];
}

export interface PageQuery<Other extends string> {
  limit: number;
  cursor?: string;
  /** The other parameters given, by name. */
  others: Partial<Record<Other, string>>;
}

/**
 * `limit` (1 to `maxLimit`, `defaultLimit` when absent) and the cursor of `raw`. A parameter the
 * read does not take, one given twice, a limit that is not such an integer and an empty cursor
 * are each a problem; so is whatever `check` finds in what was given (a read's rules between its
 * parameters). Any problem is a 400 naming every one of them.
 */
export function parsePageQuery<Other extends string = never>(
  raw: string,
  spec: PageQuerySpec<Other>,
  check: (given: PageQuery<Other>) => Problem[] = () => [],
): PageQuery<Other> {
  const known = new Set<string>(['limit', spec.cursor, ...(spec.others ?? [])]);
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  for (const [name, value] of splitQueryString(raw)) {
    if (!known.has(name)) problems.push({ parameter: clip(name), message: 'is not a known parameter' });
    else if (seen.has(name)) problems.push({ parameter: name, message: 'may appear only once' });
    else seen.set(name, value);
  }
  const { defaultLimit, maxLimit } = spec.limits;
  const limitText = seen.get('limit');
  // No more digits than the largest limit has: a thousand-digit limit is refused before Number reads it.
  const digits = new RegExp(`^\\d{1,${String(maxLimit).length}}$`);
  const limit = limitText === undefined ? defaultLimit : digits.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= maxLimit))
    problems.push({ parameter: 'limit', message: `must be an integer from 1 to ${maxLimit}` });
  const cursor = seen.get(spec.cursor);
  if (cursor === '') problems.push({ parameter: spec.cursor, message: 'must not be empty' });
  const others: Partial<Record<Other, string>> = {};
  for (const name of spec.others ?? []) {
    const value = seen.get(name);
    if (value !== undefined) others[name] = value;
  }
  const query = { limit, ...(cursor !== undefined ? { cursor } : {}), others };
  problems.push(...check(query));
  if (problems.length > 0) throw new ValidationError(problems);
  return query;
}

/** The paging of one thread: an action's comments and its history, a subscription's deliveries. */
export const threadLimits = { defaultLimit: 50, maxLimit: 100 } as const;

/** `limit` (1-100, default 50) and `cursor` of a thread's query string; anything else is a 400. */
export function parseThreadQuery(raw: string): { limit: number; cursor?: string } {
  const { limit, cursor } = parsePageQuery(raw, { limits: threadLimits, cursor: 'cursor' });
  return { limit, ...(cursor !== undefined ? { cursor } : {}) };
}
