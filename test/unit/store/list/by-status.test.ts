import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import { overdueByStatus, statusesHolding } from '../../../../lib/store/list/count/by-status';

/**
 * Counts by status from counters kept by status (contract section 4, "exact counts"): the total's
 * and a scope's, alone or with `overdue`, for any operator on `status`.
 */

const all = new Map([
  [1, 40],
  [2, 25],
  [3, 30],
  [4, 5],
]);
const overdue = new Map([
  [1, 7],
  [2, 3],
]);
const onStatus = (query: string) => parseListQuery(query).filters.filter((c) => c.field.name === 'status');

describe('statusesHolding', () => {
  it('sums the statuses every status clause holds for', () => {
    expect(statusesHolding(onStatus('status=1'), [all])).toBe(40);
    expect(statusesHolding(onStatus('status=~1,2'), [all])).toBe(65);
    expect(statusesHolding(onStatus('status=!3'), [all])).toBe(70);
    expect(statusesHolding(onStatus('status=>1&status=<4'), [all])).toBe(55);
    expect(statusesHolding(onStatus('status=9'), [all])).toBe(0);
  });

  it('sums several values\u2019 counts, and with no status clause counts every status', () => {
    expect(statusesHolding(onStatus('status=~1,4'), [all, overdue])).toBe(52);
    expect(statusesHolding([], [all, overdue])).toBe(110);
  });
});

describe('overdueByStatus', () => {
  const read = () => {
    const reads: string[] = [];
    return {
      reads,
      counters: {
        overdue: async () => {
          reads.push('overdue');
          return [overdue];
        },
        all: async () => {
          reads.push('all');
          return [all];
        },
      },
    };
  };

  it('counts the overdue ones of the statuses from the overdue counter alone', async () => {
    const { reads, counters } = read();
    expect(await overdueByStatus(onStatus('status=!3'), true, counters)).toBe(10);
    expect(reads).toEqual(['overdue']);
  });

  it('counts the ones not overdue as the statuses\u2019 count less their overdue ones', async () => {
    const { reads, counters } = read();
    expect(await overdueByStatus(onStatus('status=~1,3'), false, counters)).toBe(70 - 7);
    expect(reads.sort()).toEqual(['all', 'overdue']);
  });
  it('sums the counters of several values (a set of sites), overdue and not alike', async () => {
    const counters = { overdue: async () => [overdue, overdue], all: async () => [all, all] };
    expect(await overdueByStatus(onStatus('status=!3'), true, counters)).toBe(20);
    expect(await overdueByStatus(onStatus('status=~1,3'), false, counters)).toBe(2 * (70 - 7));
  });
});
