import { describe, expect, it } from 'vitest';
import { type FieldSpec, fieldsByName } from '../../../../lib/filter/fields';
import { parseListQuery } from '../../../../lib/filter/query';
import { holdingCount, probeValues } from '../../../../lib/store/list/count/counted-integers';

/**
 * The values of a counted integer field, from its counters: what a sort by status walks and what
 * a `<` or `>` on status or priority sums for an exact count.
 */

/** A counter reader over fixed counts, which notes the values it was asked. */
function counters(counts: Record<number, number>) {
  const asked: number[] = [];
  const count = async (value: number) => {
    asked.push(value);
    return counts[value] ?? 0;
  };
  return { asked, count };
}

describe('probeValues', () => {
  it('finds the values some action has, ascending, and stops at the round whose sum is the total', async () => {
    const { asked, count } = counters({ 1: 10, 2: 5, 5: 3 });
    expect(await probeValues(18, count)).toEqual([
      { value: 1, count: 10 },
      { value: 2, count: 5 },
      { value: 5, count: 3 },
    ]);
    expect(asked).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reads on a round at a time for a value past the first round', async () => {
    const { asked, count } = counters({ 3: 2, 12: 1 });
    expect(await probeValues(3, count)).toEqual([
      { value: 3, count: 2 },
      { value: 12, count: 1 },
    ]);
    expect(asked).toHaveLength(16);
  });

  it('gives up when the first 64 values do not account for every action', async () => {
    const { asked, count } = counters({ 1: 2 });
    expect(await probeValues(3, count)).toBeUndefined();
    expect(asked).toHaveLength(64);
  });

  it('reads no counter for an empty store', async () => {
    const { asked, count } = counters({});
    expect(await probeValues(0, count)).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('holdingCount', () => {
  const values = [
    { value: 1, count: 10 },
    { value: 2, count: 5 },
    { value: 5, count: 3 },
  ];
  const count = (query: string, field: string) =>
    holdingCount(values, parseListQuery(query).filters, fieldsByName.get(field) as FieldSpec);

  it('sums the counts of the values a `<` or `>` holds for, the bound itself left out', () => {
    expect(count('status=<2', 'status')).toBe(10);
    expect(count('status=>2', 'status')).toBe(3);
    expect(count('priority=>1', 'priority')).toBe(8);
    expect(count('priority=<1', 'priority')).toBe(0);
  });

  it('keeps only the values every clause on the field holds for, and asks no other field', () => {
    expect(count('status=>1&status=<5', 'status')).toBe(5);
    expect(count('status=>1&priority=>4', 'status')).toBe(8);
  });
});
