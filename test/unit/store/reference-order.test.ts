import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareValues } from '../../../lib/store/list/plan/positions';
import {
  idOfReferenceKey,
  referenceEntry,
  referenceOrderKey,
  referenceOrderWrites,
  splitReferenceKey,
} from '../../../lib/store/reference-order';
import { attr } from '../../../lib/store/table';
import { anAction } from '../action-fixture';
import { stubConfigEnv } from '../config-env';

beforeAll(() => stubConfigEnv());

describe('the reference order', () => {
  it('keys an entry by reference, then created key, and reads both and the id back', () => {
    const action = anAction({ id: 'a-1', createdAt: '2026-01-02T03:04:05.000Z' });
    const key = referenceEntry({ ...action, actionProducer: { name: 'p', reference: 'INS-7' } })[
      attr.sortKey
    ] as string;
    expect(splitReferenceKey(key)).toEqual(['INS-7', '2026-01-02T03:04:05.000Z#a-1']);
    expect(idOfReferenceKey(key)).toBe('a-1');
    expect(
      splitReferenceKey(referenceEntry({ ...action, actionProducer: { name: 'p' } })[attr.sortKey] as string)[0],
    ).toBe('');
  });

  it("orders keys as the sort orders [reference, created key]: '' first, a reference before one it begins", () => {
    const text = fc.string({ unit: 'binary', maxLength: 6 }).filter((t) => !/[\u0000-\u001f]/.test(t));
    fc.assert(
      fc.property(text, text, text, text, (r1, c1, r2, c2) => {
        const keys = compareValues(referenceOrderKey(r1, `x${c1}`), referenceOrderKey(r2, `x${c2}`));
        const pairs = compareValues(r1, r2) || compareValues(`x${c1}`, `x${c2}`);
        expect(Math.sign(keys)).toBe(Math.sign(pairs));
      }),
    );
  });

  it('is written by a create and a delete, never by an edit', () => {
    const action = anAction();
    expect(referenceOrderWrites(undefined, action)).toMatchObject([{ Put: { Item: referenceEntry(action) } }]);
    expect(referenceOrderWrites(action, undefined)).toMatchObject([{ Delete: { Key: referenceEntry(action) } }]);
    expect(referenceOrderWrites(action, { ...action, title: 'other' })).toEqual([]);
  });
});
