import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * The one cursor format of the API (lists, the change feed, grants, threads, webhook deliveries):
 * sealed, so a cursor is opaque and bound. Its bytes are a fresh random nonce, then AES-256-GCM of
 * where the last page stopped (`key`, with what the cursor carries for the caller: a list's
 * filters), then the tag. The associated data names what the cursor belongs to (`scope`: a list,
 * the feed, an action's thread, a subscription's log) and who received it (`caller`, the token's
 * `sub`), so a cursor opens only for the same scope and the same caller. No caller can read a
 * position (which may be the place of an action they do not see: a walk the read budget cut stops
 * wherever it is), mint one, alter one, or use another's: each is a 400 naming `cursor`, never a
 * 500 and never another query's data (issue 54).
 *
 * Keys: the deployment's 32-byte secret (kept in the table, lib/store/cursor-key.ts) gives a
 * sealing key by HKDF-SHA256; each cursor's own key is derived from that with the first 12 bytes
 * of its nonce as salt, and the other 12 are its GCM IV. A random 96-bit IV alone is safe for
 * about 2^32 cursors a key; with the salt, no key ever meets the same IV twice in practice.
 *
 * Length: the position is padded to a power of two bytes before sealing, apart from what the
 * caller sent (the filters), so no filter of the caller's choosing can move the padding boundary
 * to measure the position (which may hold an unseen action's folded title).
 */

/** How many characters a cursor may have; a list cursor carries its filters, so it can be long. */
const MAX_CURSOR_CHARS = 200_000;
const NONCE_BYTES = 24;
const SALT_BYTES = 12;
const TAG_BYTES = 16;
/** The smallest padded position: most positions (a date key and an id) fit in it. */
const MIN_PADDED = 64;
/** Names this format in the associated data and the key derivation: another format never opens as this one. */
const FORMAT = 'action-tracking cursor v2';

let sealKey: Buffer | undefined;

/** The deployment's cursor secret; the store reads it once per process (lib/store/cursor-key.ts). */
export function useCursorKey(secret: Buffer): void {
  sealKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), FORMAT, 32));
}

/** What a cursor is bound to: what it continues (`scope`) and who received it (`caller`, the token's `sub`). */
export interface CursorBinding {
  scope: string;
  caller: string;
}

function cursorCipherKey(salt: Buffer): Buffer {
  // A programming error, not a client's: the HTTP edge loads the key before any handler runs.
  if (!sealKey) throw new Error('the cursor key is not loaded: await loadCursorKey() (lib/store/cursor-key.ts) first');
  return Buffer.from(hkdfSync('sha256', sealKey, salt, 'cursor', 32));
}

const associatedData = (binding: CursorBinding) =>
  Buffer.from(JSON.stringify([FORMAT, binding.scope, binding.caller]), 'utf8');

export const badCursor = (message = 'is not a cursor this list gave out to you; start again without it') =>
  new ValidationError([{ parameter: 'cursor', message }]);

/**
 * The plaintext: the position's JSON padded with spaces to a power of two bytes, a line break
 * (JSON.stringify never writes one), and what the cursor carries for the caller, if anything.
 */
function plaintextOf(key: unknown, carried: unknown): Buffer {
  const position = Buffer.from(JSON.stringify(key), 'utf8');
  let padded = MIN_PADDED;
  while (padded < position.length) padded *= 2;
  const tail = carried === undefined ? '' : JSON.stringify(carried);
  return Buffer.concat([position, Buffer.alloc(padded - position.length, ' '), Buffer.from(`\n${tail}`, 'utf8')]);
}

/**
 * A cursor for `binding` that continues after `key`, sealed. `carried`: what the caller sent that
 * the cursor must bring back when they leave it out (a list's filters and sort); it is not padded.
 */
export function encodeCursor(binding: CursorBinding, key: unknown, carried?: unknown): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(
    'aes-256-gcm',
    cursorCipherKey(nonce.subarray(0, SALT_BYTES)),
    nonce.subarray(SALT_BYTES),
  );
  cipher.setAAD(associatedData(binding));
  const sealed = Buffer.concat([cipher.update(plaintextOf(key, carried)), cipher.final()]);
  return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** What a cursor holds, when it was sealed for exactly `binding`; a 400 naming `cursor` otherwise. */
export function openCursor(cursor: string, binding: CursorBinding): { key: unknown; carried?: unknown } {
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  const bytes = Buffer.from(cursor, 'base64url');
  // Base64 has spare bits in its last character; only the canonical spelling of the bytes is a cursor.
  if (bytes.length <= NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor) throw badCursor();
  const nonce = bytes.subarray(0, NONCE_BYTES);
  let plaintext: string;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      cursorCipherKey(nonce.subarray(0, SALT_BYTES)),
      nonce.subarray(SALT_BYTES),
    );
    decipher.setAAD(associatedData(binding));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    plaintext = Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw badCursor();
  }
  // Sealed by this service: the shape is ours, so a parse failure here is a broken invariant, not a client's.
  const line = plaintext.indexOf('\n');
  const tail = plaintext.slice(line + 1);
  return { key: JSON.parse(plaintext.slice(0, line)), ...(tail !== '' ? { carried: JSON.parse(tail) } : {}) };
}

/** The key of a cursor sealed for `binding` that holds a key `valid` accepts; else a 400 naming `cursor`. */
export function cursorKey<K>(cursor: string, binding: CursorBinding, valid: (key: unknown) => key is K): K {
  const { key } = openCursor(cursor, binding);
  if (!valid(key)) throw badCursor();
  return key;
}
