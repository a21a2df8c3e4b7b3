import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as cursors from '../../lib/cursor';
import { ValidationError } from '../../lib/errors';

const { cursorKey, encodeCursor, openCursor } = cursors;

/** The one cursor format: whatever a cursor was made for comes back whole, and nothing else opens. */

/** The key every instance shares comes from the table (lib/store/cursor-key.ts); here, one of the test's own. */
const useKey = (key: Buffer) => (cursors as unknown as { useCursorKey(key: Buffer): void }).useCursorKey(key);
beforeAll(() => useKey(randomBytes(32)));

/** A cursor rewritten whole by someone without the key: new scope and key, digest recomputed as before issue 42. */
const forge = (scope: string, key: unknown) =>
  Buffer.from(
    JSON.stringify({
      s: scope,
      k: key,
      d: createHash('sha256')
        .update(JSON.stringify([scope, key]))
        .digest('base64url')
        .slice(0, 16),
    }),
  ).toString('base64url');

const key = fc.jsonValue().filter((k) => k !== null);
const isStringKey = (k: unknown): k is string => typeof k === 'string';

/** The error a cursor that is not ours gets: a 400 naming the `cursor` parameter. */
function refused(open: () => unknown) {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    expect((error as ValidationError).errors?.[0]?.parameter).toBe('cursor');
    return true;
  }
  return false;
}

describe('cursors', () => {
  it('open to the scope and key they were made with, for any JSON key', () => {
    fc.assert(
      fc.property(fc.string(), key, (scope, k) => {
        const cursor = encodeCursor(scope, k);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        // JSON does not keep -0; the key comes back as JSON carried it.
        expect(openCursor(cursor)).toEqual({ scope, key: JSON.parse(JSON.stringify(k)) });
      }),
      { numRuns: 200 },
    );
  });

  it('are base64url JSON of {s, k, d}, d an HMAC-SHA256 (43 characters)', () => {
    const body = JSON.parse(Buffer.from(encodeCursor('action#1', ['a', 2]), 'base64url').toString('utf8'));
    expect(body).toMatchObject({ s: 'action#1', k: ['a', 2] });
    expect(body.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuse any one character changed', () => {
    const cursor = encodeCursor('feed', { t: '2026-11-01T00:00:00.000Z', id: 'x' });
    fc.assert(
      fc.property(fc.nat(cursor.length - 1), fc.constantFrom(...'ABCabc019-_'), (at, c) => {
        fc.pre(cursor[at] !== c);
        const altered = cursor.slice(0, at) + c + cursor.slice(at + 1);
        // Base64 padding bits can change without changing the bytes; every other change is refused.
        if (Buffer.from(altered, 'base64url').equals(Buffer.from(cursor, 'base64url'))) return;
        expect(refused(() => openCursor(altered))).toBe(true);
      }),
    );
  });

  it('refuse truncation, garbage, other alphabets, a rewritten key, and the over-long', () => {
    const cursor = encodeCursor('list', 'k1');
    for (const bad of [
      '',
      cursor.slice(0, -1),
      cursor.slice(0, 10),
      `${cursor}=`,
      'not a cursor',
      Buffer.from('null').toString('base64url'),
      Buffer.from('[]').toString('base64url'),
      Buffer.from('{"s":"list","k":"k2","d":"x"}').toString('base64url'),
      Buffer.from(JSON.stringify({ s: 'list', d: 'x' })).toString('base64url'),
      'A'.repeat(200_001),
    ]) {
      expect(
        refused(() => openCursor(bad)),
        bad.slice(0, 40),
      ).toBe(true);
    }
  });

  it('refuse a cursor minted without the key (issue 42): rewritten whole, or made before the MAC had one', () => {
    expect(refused(() => openCursor(forge('list', 'k2')))).toBe(true);
    fc.assert(
      fc.property(fc.string(), key, (scope, k) => {
        expect(refused(() => openCursor(forge(scope, k)))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('made under one key do not open under another (another deployment, another table)', () => {
    const cursor = encodeCursor('list', 'k1');
    useKey(randomBytes(32));
    try {
      expect(refused(() => openCursor(cursor))).toBe(true);
    } finally {
      useKey(randomBytes(32));
    }
  });
});

describe('cursorKey', () => {
  it('gives the key of a cursor of its own scope, and refuses another scope or a key of the wrong shape', () => {
    expect(cursorKey(encodeCursor('thread#a', 'c5'), 'thread#a', isStringKey)).toBe('c5');
    expect(refused(() => cursorKey(encodeCursor('thread#b', 'c5'), 'thread#a', isStringKey))).toBe(true);
    expect(refused(() => cursorKey(encodeCursor('thread#a', 5), 'thread#a', isStringKey))).toBe(true);
  });
});
