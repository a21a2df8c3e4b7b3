import { beforeAll, describe, expect, it } from 'vitest';
import { indexes } from '../../../../lib/store/indexes';
import { fetchRun, rangeStreams } from '../../../../lib/store/list/run/walk';
import { attr } from '../../../../lib/store/table';
import { stubConfigEnv } from '../../config-env';

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

describe('rangeStreams (title=~a,b walked in created order)', () => {
  beforeAll(() => stubConfigEnv());
  const read = {
    index: indexes.allByTitle,
    partitions: ['A#0', 'A#1', 'A#2'],
    ranges: [
      { lower: 'fix pump\u0001', upper: 'fix pump\u0002' },
      { lower: 'check guard\u0001', upper: 'check guard\u0002' },
    ],
    filter: [],
  };
  const walk = { read, fetch: false, clauses: [], cost: 180, entries: 60, mergeKey: attr.createdKey };
  const cursor = '2026-11-28T18:40:19.304Z#5f1d55aa';

  it('is one stream a (range, partition) pair, each querying its title from past the cursor', () => {
    const { streams, input } = rangeStreams(walk, read.ranges, false, 5, cursor);
    expect(streams).toHaveLength(6);
    const last = input(5);
    expect(last.ExpressionAttributeValues).toMatchObject({
      ':v0': 'A#2',
      ':v1': 'check guard\u0001',
      ':v2': 'check guard\u00012026-11-28T18:40:19.304Z\u00015f1d55aa',
    });
    expect(last.KeyConditionExpression).toContain('BETWEEN');
  });

  it('merges by the created key a title key (and so a LastEvaluatedKey) holds', () => {
    const { key } = rangeStreams(walk, read.ranges, true, 5, undefined);
    expect(typeof key).toBe('function');
    const created = (key as (item: Record<string, unknown>) => unknown)({
      [attr.titleKey]: 'fix pump\u00012026-01-01T00:00:00.000Z\u0001id-1',
    });
    expect(created).toBe('2026-01-01T00:00:00.000Z#id-1');
  });

  it("asks each stream its share of the counted entries, up to a read unit's worth", () => {
    // 30 entries over 6 streams: 6 each; a window of 5 alone would ask 2.
    expect(rangeStreams({ ...walk, entries: 30 }, read.ranges, true, 5, undefined).pageSize).toBe(6);
    // 6,000 entries: capped at the entries one 4 KB unit holds (all-by-title's, with the map of
    // filter values, about 500 bytes).
    expect(rangeStreams({ ...walk, entries: 6000 }, read.ranges, true, 5, undefined).pageSize).toBe(8);
  });
});
