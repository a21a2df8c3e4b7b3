import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gramsOf, gramsOfFolded, searchable } from '../../lib/store/search/grams';
import { postingRequests } from '../../lib/store/search/postings';
import { foldForComparison } from '../../lib/text';

/** Issue 31 item 3: the grams of the search index follow the service's comparison rules (NFC, then lower case). */

describe('grams', () => {
  it('are every run of three code points, distinct, in order', () => {
    expect(gramsOfFolded('abcab')).toEqual(['abc', 'bca', 'cab']);
    expect(gramsOfFolded('aaaa')).toEqual(['aaa']);
    expect(gramsOfFolded('ab')).toEqual([]);
  });

  it('fold case and canonical equivalence: Cafe\\u0301 and CAFÉ have the same grams', () => {
    expect(gramsOf('Cafe\u0301')).toEqual(gramsOf('CAFÉ'));
    expect(gramsOf('CAFÉ')).toEqual(['caf', 'afé']);
  });

  it('never split an astral character (one code point, two UTF-16 units)', () => {
    expect(gramsOfFolded('a😀bc')).toEqual(['a😀b', '😀bc']);
  });

  it('a fragment needs three code points', () => {
    expect(searchable('ab')).toBe(false);
    expect(searchable('a😀')).toBe(false);
    expect(searchable('abc')).toBe(true);
  });

  it('every gram of a fragment is a gram of any text that holds it (so one gram lists every match)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 3 }), fc.string(), (before, fragment, after) => {
        const text = foldForComparison(before + fragment + after);
        const folded = foldForComparison(fragment);
        fc.pre(text.includes(folded));
        const grams = new Set(gramsOfFolded(text));
        for (const gram of gramsOfFolded(folded)) expect(grams.has(gram)).toBe(true);
      }),
    );
  });
});

describe('posting writes', () => {
  const key = '2026-01-01T00:00:00.000Z#id-1';
  const texts = (t: string, r = '') => ({ t, r });

  it('a create puts one posting per gram of each field, carrying the folded text', () => {
    const requests = postingRequests(key, undefined, texts('pump 4', 'ins-1'));
    const puts = requests.map((r) => r.PutRequest?.Item);
    expect(puts.map((i) => i?.id)).toEqual([
      'g#t#pum',
      'g#t#ump',
      'g#t#mp ',
      'g#t#p 4',
      'g#r#ins',
      'g#r#ns-',
      'g#r#s-1',
    ]);
    expect(puts.every((i) => i?.sk === key)).toBe(true);
    expect(puts[0]?.x).toBe('pump 4');
  });

  it('a title edit deletes the grams no longer present and puts every gram of the new title', () => {
    const requests = postingRequests(key, { t: 'abcd' }, { t: 'bcde' });
    expect(requests.flatMap((r) => (r.DeleteRequest ? [r.DeleteRequest.Key?.id] : []))).toEqual(['g#t#abc']);
    expect(requests.flatMap((r) => (r.PutRequest ? [r.PutRequest.Item?.id] : []))).toEqual(['g#t#bcd', 'g#t#cde']);
  });

  it('a delete removes every posting, and an unchanged text writes nothing', () => {
    const requests = postingRequests(key, texts('abcd', 'xyz'), undefined);
    expect(requests.map((r) => r.DeleteRequest?.Key?.id)).toEqual(['g#t#abc', 'g#t#bcd', 'g#r#xyz']);
    expect(postingRequests(key, texts('same', 'ref'), texts('same', 'ref'))).toEqual([]);
  });
});
