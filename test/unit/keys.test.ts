import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SORT_KEY_BYTES } from '../../lib/store/client';
import { NAME_KEY_BYTES, nameKey, priorityKeyPrefix } from '../../lib/store/table';

/**
 * The ordered indexes are only as good as their sort keys: DynamoDB orders a key by its UTF-8
 * bytes, and the list promises an order by (value, id). These properties hold the keys to that.
 */

const RUNS = { numRuns: 1000 };
/** DynamoDB's order: UTF-8 bytes, which is code point order. */
const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
const byPair = (a: [string, string], b: [string, string]) => byBytes(a[0], b[0]) || byBytes(a[1], b[1]);

/** Names as a token may carry them: control characters, astral characters, prefixes of each other. */
const name = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u0002', 'a', 'A', ' ', 'é', '😀'), maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 5 }),
);
const id = fc.uuid();

describe('name keys order as (name, id)', () => {
  it('for any two names and ids, including control characters and prefixes', () => {
    fc.assert(
      fc.property(name, id, name, id, (n1, i1, n2, i2) => {
        expect(byBytes(nameKey(n1, i1), nameKey(n2, i2))).toBe(byPair([n1, i1], [n2, i2]));
      }),
      RUNS,
    );
  });

  it('a name sorts before every longer name it begins, whatever the ids', () => {
    for (const [shorter, longer] of [
      ['Ann', 'Anna'],
      ['Ann', 'Ann\u0000'],
      ['Ann', 'Ann\u0001'],
      ['', '\u0000'],
    ] as const) {
      expect(byBytes(nameKey(shorter, 'ffffffff'), nameKey(longer, '00000000'))).toBe(-1);
    }
  });

  it('a name too long for a key is cut, so the key stays a valid DynamoDB sort key', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\u0001', 'é', '😀'), minLength: 200, maxLength: 2048 }),
        id,
        (n, i) => {
          const key = nameKey(n, i);
          expect(Buffer.byteLength(key, 'utf8')).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(key.endsWith(`\u0001\u0001${i}`)).toBe(true);
          // The cut never leaves half an escape, which would read as the end mark.
          expect(key.slice(0, -(i.length + 2)).endsWith('\u0001')).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
    expect(Buffer.byteLength(nameKey('a'.repeat(NAME_KEY_BYTES), 'x'), 'utf8')).toBe(NAME_KEY_BYTES + 3);
  });
});

describe('priority keys order as numbers', () => {
  it('for any two integers a filter can name (up to 15 digits)', () => {
    const priority = fc.integer({ min: 0, max: 999_999_999_999_999 });
    fc.assert(
      fc.property(priority, priority, (a, b) => {
        expect(byBytes(priorityKeyPrefix(a), priorityKeyPrefix(b))).toBe(Math.sign(a - b));
      }),
      RUNS,
    );
  });
});
