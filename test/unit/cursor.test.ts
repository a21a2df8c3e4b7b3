import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as cursors from '../../lib/cursor';
import { ValidationError } from '../../lib/errors';

const { cursorKey, encodeCursor, openCursor } = cursors;

/**
 * The one cursor format (issue 54): sealed with AES-256-GCM, bound to a scope and a caller.
 * Whatever a cursor was made for comes back whole, for that scope and caller only; nothing else
 * opens, and nothing in a cursor's bytes can be read.
 */

/** The key every instance shares comes from the table (lib/store/cursor-key.ts); here, one of the test's own. */
const useKey = (key: Buffer) => cursors.useCursorKey(key);
beforeAll(() => useKey(randomBytes(32)));

/** The format before issue 42: base64url JSON with an unkeyed checksum, which anyone could recompute. */
const unkeyed = (scope: string, key: unknown) =>
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

const ann = { scope: 'list', caller: 'u-ann' };
const key = fc.jsonValue().filter((k) => k !== null);
const binding = fc.record({ scope: fc.string(), caller: fc.string() });
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
  it('open to the key and what they carry, for the binding they were made with, for any JSON', () => {
    fc.assert(
      fc.property(binding, key, fc.option(key, { nil: undefined }), (b, k, carried) => {
        const cursor = encodeCursor(b, k, carried);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        // JSON does not keep -0; the key comes back as JSON carried it.
        expect(openCursor(cursor, b)).toEqual({
          key: JSON.parse(JSON.stringify(k)),
          ...(carried !== undefined ? { carried: JSON.parse(JSON.stringify(carried)) } : {}),
        });
      }),
      { numRuns: 200 },
    );
  });

  it('are opaque: no byte of the key, the carried filters, the scope or the caller shows, and no two are alike', () => {
    const secret = 'north pit gas leak#2026-11-01T00:00:00.000Z#3f2a';
    const made = Array.from({ length: 50 }, () => encodeCursor({ scope: 'changes', caller: 'u-ann' }, secret, ['t']));
    expect(new Set(made).size).toBe(made.length);
    for (const cursor of made) {
      const bytes = Buffer.from(cursor, 'base64url');
      for (const part of ['north', 'pit', '2026', '3f2a', 'changes', 'u-ann', '"t"'])
        expect(bytes.includes(Buffer.from(part)), part).toBe(false);
      expect(() => JSON.parse(bytes.toString('utf8'))).toThrow();
    }
  });

  it('hide how long the position is, up to a power of two, whatever the caller sends beside it', () => {
    const lengths = (position: string) =>
      [0, 1, 2, 3, 5, 8, 13, 40].map((n) => encodeCursor(ann, position, [['title', 'x'.repeat(n)]]).length);
    // Two positions within one power of two give cursors of the same lengths for every filter length.
    expect(lengths('a'.repeat(70))).toEqual(lengths('b'.repeat(120)));
    expect(lengths('a'.repeat(3))).toEqual(lengths('b'.repeat(60)));
  });

  it('stay compact: base64url of a 24-byte nonce, the padded position, a line break, the filters and a 16-byte tag', () => {
    const size = (bytes: number) => Math.ceil((bytes * 4) / 3);
    const feed = encodeCursor({ scope: 'changes', caller: 'u-ann' }, `2026-11-01T00:00:00.000Z#${'f'.repeat(36)}`);
    expect(feed.length).toBe(size(24 + 64 + 1 + 16));
    const terms = [['sort', 'title']];
    const list = encodeCursor(ann, `title#2026-11-01T00:00:00.000Z#${'f'.repeat(36)}`, terms);
    expect(list.length).toBe(size(24 + 128 + 1 + JSON.stringify(terms).length + 16));
  });

  it('refuse another caller, another scope, or both', () => {
    const cursor = encodeCursor(ann, 'k1', [['sort', 'title']]);
    expect(openCursor(cursor, ann).key).toBe('k1');
    expect(refused(() => openCursor(cursor, { ...ann, caller: 'u-bob' }))).toBe(true);
    expect(refused(() => openCursor(cursor, { ...ann, caller: 'u-ann ' }))).toBe(true);
    expect(refused(() => openCursor(cursor, { ...ann, scope: 'changes' }))).toBe(true);
    expect(refused(() => openCursor(cursor, { scope: 'changes', caller: 'u-bob' }))).toBe(true);
    fc.assert(
      fc.property(binding, binding, (made, asked) => {
        fc.pre(made.scope !== asked.scope || made.caller !== asked.caller);
        expect(refused(() => openCursor(encodeCursor(made, 'k'), asked))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('refuse any one character changed', () => {
    const cursor = encodeCursor({ scope: 'changes', caller: 'u-ann' }, '2026-11-01T00:00:00.000Z#x');
    fc.assert(
      fc.property(fc.nat(cursor.length - 1), fc.constantFrom(...'ABCabc019-_'), (at, c) => {
        fc.pre(cursor[at] !== c);
        const altered = cursor.slice(0, at) + c + cursor.slice(at + 1);
        expect(refused(() => openCursor(altered, { scope: 'changes', caller: 'u-ann' }))).toBe(true);
      }),
    );
  });

  it('refuse any one bit flipped, and bytes cut from either end or spliced from another cursor', () => {
    const cursor = encodeCursor(ann, 'k1', [['sort', 'title']]);
    const bytes = Buffer.from(cursor, 'base64url');
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (1 << (bit & 7));
      expect(refused(() => openCursor(flipped.toString('base64url'), ann))).toBe(true);
    }
    const other = Buffer.from(encodeCursor(ann, 'k2', [['sort', 'title']]), 'base64url');
    for (let n = 1; n < bytes.length; n++) {
      expect(refused(() => openCursor(bytes.subarray(n).toString('base64url'), ann))).toBe(true);
      expect(refused(() => openCursor(bytes.subarray(0, bytes.length - n).toString('base64url'), ann))).toBe(true);
      // Another cursor's nonce (or tag) with this one's body.
      const spliced = Buffer.concat([other.subarray(0, n), bytes.subarray(n)]);
      if (!spliced.equals(bytes)) expect(refused(() => openCursor(spliced.toString('base64url'), ann))).toBe(true);
    }
  });

  it('refuse truncation, garbage, other alphabets, the old JSON formats, and the over-long', () => {
    const cursor = encodeCursor(ann, 'k1');
    for (const bad of [
      '',
      cursor.slice(0, -1),
      cursor.slice(0, 10),
      `${cursor}=`,
      `${cursor}A`,
      'not a cursor',
      Buffer.from('null').toString('base64url'),
      Buffer.from('[]').toString('base64url'),
      Buffer.from('{"s":"list","k":"k2","d":"x"}').toString('base64url'),
      unkeyed('list', 'k2'),
      'A'.repeat(200_001),
    ]) {
      expect(
        refused(() => openCursor(bad, ann)),
        bad.slice(0, 40),
      ).toBe(true);
    }
    fc.assert(
      fc.property(fc.string(), key, (scope, k) => {
        expect(refused(() => openCursor(unkeyed(scope, k), { scope, caller: 'u-ann' }))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('made under one key do not open under another (another deployment, another table)', () => {
    const cursor = encodeCursor(ann, 'k1');
    useKey(randomBytes(32));
    try {
      expect(refused(() => openCursor(cursor, ann))).toBe(true);
    } finally {
      useKey(randomBytes(32));
    }
  });
});

describe('cursorKey', () => {
  it('gives the key of a cursor of its own binding, and refuses another binding or a key of the wrong shape', () => {
    const thread = { scope: 'thread:c#a', caller: 'u-ann' };
    expect(cursorKey(encodeCursor(thread, 'c5'), thread, isStringKey)).toBe('c5');
    expect(refused(() => cursorKey(encodeCursor({ ...thread, scope: 'thread:c#b' }, 'c5'), thread, isStringKey))).toBe(
      true,
    );
    expect(refused(() => cursorKey(encodeCursor({ ...thread, caller: 'u-bob' }, 'c5'), thread, isStringKey))).toBe(
      true,
    );
    expect(refused(() => cursorKey(encodeCursor(thread, 5), thread, isStringKey))).toBe(true);
  });
});
