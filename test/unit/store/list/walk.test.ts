import { describe, expect, it } from 'vitest';
import { fetchRun } from '../../../../lib/store/list/run/walk';

/** The run of keys a fetching walk reads before fetching their actions. */

describe('fetchRun', () => {
  it('reads four times the rest, and at least 100 keys, when no share is known', () => {
    expect(fetchRun(11, 10_000, 1)).toBe(100);
    expect(fetchRun(40, 10_000, 1)).toBe(160);
  });

  it("reads the keys that hold the rest at the caller's share, and one more", () => {
    // A scope keeps a fifth of the walk's actions: 11 / 0.2 = 55, and one more.
    expect(fetchRun(11, 10_000, 1, 0.2)).toBe(56);
    // Every action kept: the rest and one more, below the blind floor of 100.
    expect(fetchRun(11, 10_000, 1, 1)).toBe(12);
    // A share of nothing is read as 1%, not as an endless run.
    expect(fetchRun(2, 10_000, 1, 0)).toBe(201);
  });

  it("reads a quarter more than the keys that hold the rest at the counters' share", () => {
    // A quarter of the entries match: 11 x 1.25 / 0.25 = 55, and one more.
    expect(fetchRun(11, 10_000, 1, undefined, 0.25)).toBe(56);
    // A share above 1 (counters ahead of the walk's entries) is read as every entry.
    expect(fetchRun(11, 10_000, 1, undefined, 3)).toBe(Math.ceil(11 * 1.25) + 1);
    // No match counted: the share says nothing, so the walk reads blind.
    expect(fetchRun(11, 10_000, 1, undefined, 0)).toBe(100);
  });

  it("prefers the caller's share to the counters'", () => {
    expect(fetchRun(11, 10_000, 1, 0.2, 0.25)).toBe(56);
    expect(fetchRun(11, 10_000, 1, 1, 0.01)).toBe(12);
  });

  it('reads at most 1,000 keys a run', () => {
    expect(fetchRun(500, 100_000, 1)).toBe(1000);
    expect(fetchRun(11, 100_000, 1, 0.001)).toBe(1000);
  });

  it("reads at most half the budget left, less the merge's read-ahead of 2 entries a partition", () => {
    // 300 left over 4 partitions: (300 - 8) / 2 = 146.
    expect(fetchRun(100, 300, 4)).toBe(146);
    expect(fetchRun(11, 301, 4)).toBe(100);
    expect(fetchRun(11, 199, 4)).toBe(95);
  });

  it('answers less than one, so the walk stops cut, when the budget left is below a round of the partitions', () => {
    // 16 partitions need 32 entries of read-ahead and 2 for a key and its action.
    expect(fetchRun(11, 34, 16)).toBe(1);
    expect(fetchRun(11, 33, 16)).toBe(0);
    expect(fetchRun(11, 20, 16)).toBeLessThan(1);
    expect(fetchRun(11, 0, 1)).toBeLessThan(1);
  });
});
