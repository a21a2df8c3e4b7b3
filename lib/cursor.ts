import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * The one cursor format of the API (threads, lists, the change feed): base64url of a small JSON
 * document that names what the cursor belongs to (`s`: an action, a list query, the feed) and
 * where the last page stopped (`k`), closed by an HMAC-SHA256 of both (`d`) under a key every
 * function instance shares and no client knows (made once, kept in the table:
 * lib/store/cursor-key.ts, which hands it to `useCursorKey` before a request is served). A cursor
 * that is truncated, altered, rewritten whole or made for something else fails the MAC or the
 * scope check: a 400 naming `cursor`, never a 500 and never another query's data. Cursors made
 * before the MAC had a key (an unkeyed checksum) fail it too.
 */

/** How many characters a cursor may have; a list cursor carries its query, so it can be long. */
const MAX_CURSOR_CHARS = 200_000;

let macKey: Buffer | undefined;

/** The key cursors are signed with; the store reads it once per process (lib/store/cursor-key.ts). */
export function useCursorKey(key: Buffer): void {
  macKey = key;
}

const digest = (scope: string, key: unknown) => {
  // A programming error, not a client's: the HTTP edge loads the key before any handler runs.
  if (!macKey) throw new Error('the cursor key is not loaded: await loadCursorKey() (lib/store/cursor-key.ts) first');
  return createHmac('sha256', macKey)
    .update(JSON.stringify([scope, key]))
    .digest('base64url');
};

/** Compares a cursor's MAC with the one it should carry, in constant time. */
function sameDigest(sent: string, expected: string): boolean {
  const a = Buffer.from(sent, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

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
    typeof body.d !== 'string' ||
    !sameDigest(body.d, digest(body.s, body.k))
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
