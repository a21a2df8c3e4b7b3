import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredClause } from '../../../../lib/store/fields';
import { indexes } from '../../../../lib/store/indexes';
import type { IndexRead } from '../../../../lib/store/list/plan/plan';
import { keptShare, queryInput, walkPageSize } from '../../../../lib/store/list/run/reads';

/** The page a walk asks of each partition: the store's own, ten times the window's share, or what a known share needs. */

const read = (filtered: boolean): IndexRead => ({
  index: indexes.bySite,
  partitions: ['Cadia'],
  filter: filtered ? [{} as StoredClause] : [],
});

describe('walkPageSize', () => {
  it("leaves an unfiltered walk to the store's own page", () => {
    expect(walkPageSize(read(false), 11, 1)).toBeUndefined();
    expect(walkPageSize(read(false), 11, 1, 0.5)).toBeUndefined();
  });

  it('asks ten times the window, and at least 25 entries, when the share the filter keeps is unknown', () => {
    expect(walkPageSize(read(true), 11, 1)).toBe(111);
    expect(walkPageSize(read(true), 2, 1)).toBe(25);
    expect(walkPageSize(read(true), 11, 16)).toBe(25);
  });

  it("asks a quarter more than the entries that hold the window's share when the counters show the share", () => {
    // A quarter of the entries match: 11 x 1.25 / 0.25 = 55, and one more.
    expect(walkPageSize(read(true), 11, 1, 0.25)).toBe(56);
    // Every entry matches (a scope's business unit): the page is the window and a little, from a floor of 7 (one 4 KB read unit of entries).
    expect(walkPageSize(read(true), 3, 1, 1)).toBe(7);
    expect(walkPageSize(read(true), 11, 1, 1)).toBe(15);
  });

  it('never asks more than without the share', () => {
    expect(walkPageSize(read(true), 11, 1, 0.01)).toBe(111);
    expect(walkPageSize(read(true), 2, 1, 0.01)).toBe(25);
  });
});

describe('keptShare', () => {
  it('is the counted matches over the entries walked, and unknown without a count or entries', () => {
    expect(keptShare(25, 100)).toBe(0.25);
    expect(keptShare(0, 100)).toBe(0);
    expect(keptShare(undefined, 100)).toBeUndefined();
    expect(keptShare(5, 0)).toBeUndefined();
    expect(keptShare(5, -1)).toBeUndefined();
  });
});

describe('queryInput past a cursor', () => {
  beforeAll(() => {
    // The request names the table (the configuration's).
    for (const name of ['TABLE_NAME', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID']) vi.stubEnv(name, 'unit');
  });
  const due: IndexRead = {
    index: indexes.allByDue,
    partitions: [0],
    range: { lower: '2026-01-01T00:00:00.000Z#', upper: '2026-06-01T12:00:00.000Z#' },
    filter: [],
  };
  const key = '2026-02-03T04:05:06.000Z#2026-01-01T00:00:00.000Z#a1';
  const bounds = (forward: boolean) => {
    const input = queryInput(due, 0, undefined, forward, key);
    return Object.values(input.ExpressionAttributeValues ?? {}).slice(1);
  };

  it("forward within an upper bound, starts just after the cursor's key, so a page of one entry never reads it again", () => {
    // The least string greater than the key: nothing stored lies between them.
    expect(bounds(true)).toEqual([`${key}\u0000`, '2026-06-01T12:00:00.000Z#']);
    expect(`${key}\u0000` > key).toBe(true);
  });

  it('backward, ends at the cursor (the merge drops its key), and keeps the lower bound', () => {
    expect(bounds(false)).toEqual(['2026-01-01T00:00:00.000Z#', key]);
  });

  it('forward without an upper bound, reads strictly after the cursor', () => {
    const input = queryInput({ ...due, range: { lower: '2026-01-01T00:00:00.000Z#' } }, 0, undefined, true, key);
    expect(input.KeyConditionExpression).toMatch(/ > :/);
    expect(Object.values(input.ExpressionAttributeValues ?? {})).toContain(key);
  });
});
