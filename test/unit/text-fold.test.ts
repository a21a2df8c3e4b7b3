import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../lib/filter/query';
import { toItem } from '../../lib/store/item';
import { gramsOf } from '../../lib/store/search/grams';
import { attr } from '../../lib/store/table';
import { foldForComparison } from '../../lib/text';
import { anAction } from './action-fixture';

/**
 * Issue 42 (Low): case-insensitive comparison is Unicode full case folding on both sides, one
 * function (`foldForComparison`), not `toLowerCase`, which keeps the final sigma apart.
 */

const holds = (text: string, fragment: string) => foldForComparison(text).includes(foldForComparison(fragment));

describe('foldForComparison', () => {
  it('ΠΡΟΣ is found in ΠΡΟΣΟΧΗ (the final sigma folds to σ), and in προσοχή written in any case', () => {
    expect(holds('ΠΡΟΣΟΧΗ', 'ΠΡΟΣ')).toBe(true);
    expect(holds('προσοχη', 'προς')).toBe(true);
    expect(foldForComparison('ΟΔΟΣ')).toBe(foldForComparison('οδος'));
    expect(foldForComparison('οδος')).toBe(foldForComparison('οδοσ'));
  });

  it('full folding: ß, ẞ and SS meet; ligatures open; Cherokee small letters meet their capitals; the Kelvin sign is k', () => {
    expect(foldForComparison('Straße')).toBe('strasse');
    expect(foldForComparison('STRAẞE')).toBe('strasse');
    expect(holds('ﬃ', 'ffi')).toBe(true);
    expect(foldForComparison('\uab70')).toBe(foldForComparison('\u13a0'));
    expect(foldForComparison('\u212a')).toBe('k');
  });

  it('keeps canonical equivalence: Cafe\\u0301, CAFÉ and café are one text; ᾳ written either way folds alike', () => {
    expect(foldForComparison('Cafe\u0301')).toBe(foldForComparison('CAFÉ'));
    expect(foldForComparison('\u1fb3')).toBe(foldForComparison('\u03b1\u0345'));
    expect(foldForComparison('\u1fbc')).toBe(foldForComparison('\u1fb3'));
  });

  it('is idempotent and NFC, and equal for canonically equivalent texts', () => {
    const letters = fc.constantFrom(
      'Σ',
      'ς',
      'σ',
      'ß',
      'ẞ',
      'İ',
      'ı',
      'i',
      'e',
      '\u0301',
      '\u0345',
      'ᾳ',
      'ﬃ',
      'Ꭰ',
      'ꭰ',
      'K',
      'ŉ',
      'ΐ',
      'A',
    );
    fc.assert(
      fc.property(fc.array(letters, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const folded = foldForComparison(text);
        expect(foldForComparison(folded)).toBe(folded);
        expect(folded.normalize('NFC')).toBe(folded);
        expect(foldForComparison(text.normalize('NFD'))).toBe(folded);
      }),
      { numRuns: 500 },
    );
  });

  it('is the one fold of the filter value, the stored copies and title key, and the search grams', () => {
    const query = parseListQuery(`title=${encodeURIComponent('*ΠΡΟΣ')}`);
    expect(query.filters[0]?.values).toEqual(['προσ']);
    const item = toItem(anAction({ title: 'ΠΡΟΣ' }));
    expect(item[attr.titleLower]).toBe('προσ');
    expect(String(item[attr.titleKey]).startsWith('προσ\u0001')).toBe(true);
    expect(gramsOf('ΠΡΟΣΟΧΗ')).toEqual(expect.arrayContaining(gramsOf('ΠΡΟΣ')));
  });
});
