import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WriteRequest } from '../../lib/store/batch';
import { CONTEXT, contexts, GRAM, indexedPart, probeGrams, RUN_SEPARATOR } from '../../lib/store/search/grams';
import { foldedTexts, indexedText, searchFields } from '../../lib/store/search/keys';
import { postingRequests } from '../../lib/store/search/postings';
import { foldForComparison } from '../../lib/text';
import { anAction } from './action-fixture';

/**
 * Issue 42 (High): what one action can cost the search index is bounded and counted in bytes,
 * and an edit writes only the postings that changed. A 200-emoji title with a reference of
 * expanding characters wrote 481 postings (some over 1 KB: 2 units each); a one-character change
 * to a 200-character title rewrote all 198 of its postings.
 */

const key = '2026-01-01T00:00:00.000Z#0b8e3a3e-7b54-4d8e-9a0c-4a8f4c1b2d01';
const textsOf = (title: string, reference: string) =>
  foldedTexts(indexedText(anAction({ title, actionProducer: { name: 'p', reference } })));

/** An item's size as DynamoDB bills it: attribute names and values in UTF-8. */
const itemBytes = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(String(v)), 0);

const puts = (requests: WriteRequest[]) => requests.flatMap((r) => (r.PutRequest ? [r.PutRequest.Item] : []));

const hostile = [
  ['🦺'.repeat(100), '\ufb2c'.repeat(200)],
  ['\u{1d160}'.repeat(75), 'ΐ'.repeat(200)],
  [Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x1f300 + i)).join(''), 'ﬃ'.repeat(200)],
  [
    Array.from({ length: 200 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(''),
    Array.from({ length: 200 }, (_, i) => String.fromCodePoint(0xac00 + i * 7)).join(''),
  ],
];

describe('the cost of one action to the index', () => {
  it('a create writes at most 200 title and 64 reference postings, each under 1 KB (one write unit), whatever the text', () => {
    for (const [title, reference] of hostile) {
      const requests = postingRequests(key, undefined, textsOf(title as string, reference as string));
      const byField = { t: 0, r: 0 };
      for (const item of puts(requests)) {
        expect(itemBytes(item as Record<string, unknown>)).toBeLessThanOrEqual(1024);
        byField[String(item?.id).slice(2, 3) as 't' | 'r']++;
      }
      expect(byField.t).toBeLessThanOrEqual(200);
      expect(byField.r).toBeLessThanOrEqual(64);
    }
  });

  it('a one-character change to a 200-character title writes only the postings near it', () => {
    const words = 'belt guard missing on tail pulley near the crusher conveyor return idler ';
    const title = words.repeat(3).slice(0, 200);
    const changed = `${title.slice(0, 100)}X${title.slice(101)}`;
    const requests = postingRequests(key, { t: foldForComparison(title) }, { t: foldForComparison(changed) });
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(2 * CONTEXT + 2 * GRAM);
    // An appended word touches only the end.
    const appended = postingRequests(
      key,
      { t: 'inspect the belt guard on the tail pulley' },
      { t: 'inspect the belt guard on the tail pulley now' },
    );
    expect(puts(appended).map((i) => i?.id)).not.toContain('g#t#ins');
  });

  it('a text that grows under folding is indexed to 202 code points and 600 bytes', () => {
    const part = indexedPart(foldForComparison('\ufb2c'.repeat(200)), searchFields.title.indexed);
    expect([...part].length).toBeLessThanOrEqual(202);
    expect(Buffer.byteLength(part)).toBeLessThanOrEqual(600);
    expect(indexedPart('x'.repeat(200), searchFields.title.indexed)).toBe('x'.repeat(200));
  });
});

describe('contexts verify a fragment exactly', () => {
  const alphabet = fc.constantFrom('a', 'b', 'c', ' ', 'é', '🦺');
  const textOf = (parts: string[]) => parts.join('');

  it('every verifiable probe of a fragment the text holds has a context that holds it; a context never holds what the text does not', () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }),
        fc.array(alphabet, { minLength: 3, maxLength: 2 * CONTEXT + GRAM }),
        fc.array(alphabet, { maxLength: 60 }),
        (before, middle, after) => {
          const text = textOf([...before, ...middle, ...after]);
          const fragment = textOf(middle);
          const posted = contexts(text);
          const { verifiable, grams } = probeGrams(fragment);
          expect(verifiable).toBe(true);
          for (const { gram } of grams) expect(posted.get(gram)).toContain(fragment);
          for (const [, context] of posted) for (const run of context.split(RUN_SEPARATOR)) expect(text).toContain(run);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a fragment longer than a context offers pieces its gram context holds, to check on the action', () => {
    const fragment = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghij';
    const { verifiable, grams } = probeGrams(fragment);
    expect(verifiable).toBe(false);
    const posted = contexts(`zz ${fragment} zz`);
    for (const { gram, piece } of grams) expect(posted.get(gram)).toContain(piece);
  });
});
