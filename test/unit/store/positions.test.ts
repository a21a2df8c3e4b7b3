import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/errors';
import { type FieldSpec, fieldsByName } from '../../../lib/filter/fields';
import { MAX_SORT_KEY_BYTES } from '../../../lib/store/client';
import { orderKeys } from '../../../lib/store/item';
import { orderedIndexes } from '../../../lib/store/list/plan/index-holds';
import { checkedPosition, comparePositions, keyAfter, positionOf } from '../../../lib/store/list/plan/positions';
import type { Position } from '../../../lib/store/list/plan/result';

/**
 * Issue 40: the pure core of a list's places (lib/store/list/plan/positions.ts): where a match stands
 * in the list's order, how two places compare, and which places a cursor may bring back.
 */

const field = (name: string) => fieldsByName.get(name) as FieldSpec;
const titleKey = orderedIndexes.title?.sortKey.name as string;

describe('list positions', () => {
  it('a field an index orders stands at that index’s sort key; any other at its value and created key', () => {
    const row = { id: 'a1', value: 'Guard', created: '2026-11-25T00:00:00.000Z#a1' };
    // Read from the title index itself: the key as read.
    expect(positionOf(field('title'), titleKey, { id: 'a1', value: 'Guard\u0001k\u0001a1' })).toBe(
      'Guard\u0001k\u0001a1',
    );
    // Read from another index: the title index's key, built from the value, the creation time and the id.
    expect(positionOf(field('title'), 'f.title', row)).toBe(
      (orderKeys[titleKey] as (v: unknown, c: string, id: string) => string)('Guard', '2026-11-25T00:00:00.000Z', 'a1'),
    );
    expect(positionOf(field('status'), 'f.status', { ...row, value: 2 })).toEqual([2, row.created]);
    // No value and no created key: null, then the id.
    expect(positionOf(field('status'), 'f.status', { id: 'a2', value: undefined })).toEqual([null, 'a2']);
  });

  it('compares by value, then by the tie (created key, id); strings by code point, numbers as numbers', () => {
    const sorted: Position[] = [
      [null, 'z'],
      [2, 'b'],
      [10, 'a'],
      [10, 'b'],
    ];
    const shuffled = [sorted[3], sorted[0], sorted[2], sorted[1]] as Position[];
    expect(shuffled.sort(comparePositions)).toEqual(sorted);
    // U+FF5E is below U+1F6A7 by code point (and by UTF-8 bytes, as DynamoDB orders), above it in UTF-16 units.
    expect(comparePositions('\uff5e', '\u{1f6a7}')).toBeLessThan(0);
    expect(comparePositions(['\uff5e', 'a'], ['\u{1f6a7}', 'a'])).toBeLessThan(0);
    expect(comparePositions(['same', 'a'], ['same', 'a'])).toBe(0);
  });

  it('takes back only places of the sort’s own shape, as a 400 naming the cursor', () => {
    expect(checkedPosition(field('title'), 'Guard\u0001k\u0001a1')).toBe('Guard\u0001k\u0001a1');
    expect(checkedPosition(field('status'), [2, 'k#a1'])).toEqual([2, 'k#a1']);
    expect(checkedPosition(field('status'), [null, 'k#a1'])).toEqual([null, 'k#a1']);
    const refused: Array<[string, unknown]> = [
      ['title', ['Guard', 'a1']],
      ['title', ''],
      ['title', 'x'.repeat(MAX_SORT_KEY_BYTES + 1)],
      ['status', 'a key'],
      ['status', [2]],
      ['status', [2, 3]],
      ['status', [{}, 'a1']],
      ['status', [true, 'a1']],
    ];
    for (const [name, after] of refused) {
      let error: unknown;
      try {
        checkedPosition(field(name), after as Position);
      } catch (caught) {
        error = caught;
      }
      expect(error, `${name} ${JSON.stringify(after)}`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors?.[0]).toMatchObject({ parameter: 'cursor' });
    }
    expect(keyAfter(undefined)).toBeUndefined();
    expect(keyAfter('k')).toBe('k');
  });
});
