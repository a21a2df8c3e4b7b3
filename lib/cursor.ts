import { createHash } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * The one cursor format of the API (threads, lists, the change feed): base64url of a small JSON
 * document that names what the cursor belongs to (`s`: an action, a list query, the feed) and
 * where the last page stopped (`k`), closed by a digest of both. A cursor that is truncated,
 * altered or made for something else fails the digest or the scope check: a 400 naming
 * `cursor`, never a 500 and never another list's data. The digest is a checksum, not a secret:
 * whoever rewrites a cursor whole can only ask for what they could ask without one.
 */

/** How many characters a cursor may have; a list cursor carries its query, so it can be long. */
const MAX_CURSOR_CHARS = 200_000;

const digest = (scope: string, key: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([scope, key]))
    .digest('base64url')
    .slice(0, 16);

export const badCursor = (message = 'is not a cursor this list gave out; start again without it') =>
  new ValidationError([{ parameter: 'cursor', message }]);

/** A cursor for `scope` that continues after `key`. */
export function encodeCursor(scope: string, key: unknown): string {
  return Buffer.from(JSON.stringify({ s: scope, k: key, d: digest(scope, key) }), 'utf8').toString('base64url');
}

/** What a cursor holds; a 400 naming `cursor` when it is not one this service made, whole. */
export function openCursor(cursor: string): { scope: string; key: unknown } {
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  let body: { s?: unknown; k?: unknown; d?: unknown };
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) ?? {};
  } catch {
    throw badCursor();
  }
  if (
    typeof body !== 'object' ||
    typeof body.s !== 'string' ||
    body.k === undefined ||
    body.d !== digest(body.s, body.k)
  )
    throw badCursor();
  return { scope: body.s, key: body.k };
}

/** The key of a cursor that must belong to `scope` and hold a key `valid` accepts. */
export function cursorKey<K>(cursor: string, scope: string, valid: (key: unknown) => key is K): K {
  const { scope: found, key } = openCursor(cursor);
  if (found !== scope || !valid(key)) throw badCursor();
  return key;
}
