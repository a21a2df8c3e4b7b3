import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SORT_KEY_BYTES } from '../../lib/store/client';
import { NAME_KEY_BYTES, nameKey, priorityKeyPrefix } from '../../lib/store/table';

/**
 * The ordered indexes are only as good as their sort keys: DynamoDB orders a key by its UTF-8
 * bytes, and the list promises an order by (value, createdAt, id). These properties hold the keys to that.
 */

const RUNS = { numRuns: 1000 };
/** DynamoDB's order: UTF-8 bytes, which is code point order. */
const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
const byTriple = (a: string[], b: string[]) =>
  byBytes(a[0] as string, b[0] as string) ||
  byBytes(a[1] as string, b[1] as string) ||
  byBytes(a[2] as string, b[2] as string);

/** Names as a token may carry them: control characters, astral characters, prefixes of each other. */
const name = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u0002', 'a', 'A', ' ', 'é', '😀'), maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 5 }),
);
const id = fc.uuid();
/** Creation times as the service stamps them: canonical ISO strings of one length. */
const created = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

describe('name keys order as (name, createdAt, id)', () => {
  it('for any two names, times and ids, including control characters and prefixes', () => {
    fc.assert(
      fc.property(name, created, id, name, created, id, (n1, c1, i1, n2, c2, i2) => {
        expect(byBytes(nameKey(n1, c1, i1), nameKey(n2, c2, i2))).toBe(byTriple([n1, c1, i1], [n2, c2, i2]));
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
      expect(
        byBytes(
          nameKey(shorter, '2099-01-01T00:00:00.000Z', 'ffffffff'),
          nameKey(longer, '2000-01-01T00:00:00.000Z', '00000000'),
        ),
      ).toBe(-1);
    }
  });

  it('a name too long for a key is cut, so the key stays a valid DynamoDB sort key', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\u0001', 'é', '😀'), minLength: 200, maxLength: 2048 }),
        created,
        id,
        (n, c, i) => {
          const key = nameKey(n, c, i);
          expect(Buffer.byteLength(key, 'utf8')).toBeLessThanOrEqual(MAX_SORT_KEY_BYTES);
          expect(key.endsWith(`\u0001\u0001${c}#${i}`)).toBe(true);
          // The cut never leaves half an escape, which would read as the end mark.
          expect(key.slice(0, -(c.length + i.length + 3)).endsWith('\u0001')).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
    expect(Buffer.byteLength(nameKey('a'.repeat(NAME_KEY_BYTES), 'c', 'x'), 'utf8')).toBe(NAME_KEY_BYTES + 5);
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
