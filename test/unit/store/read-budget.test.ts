import { describe, expect, it } from 'vitest';
import { ReadBudget, requestBudget } from '../../../lib/store/query/budget';
import { meterOf, newUsage, type Usage } from '../../../lib/usage';

/**
 * Issue 42 (Low): each list reserved its whole budget of the caller's read quota at admission, so
 * 15 concurrent `limit=1` lists met 429s. A budget's grants are now covered by the quota a slice
 * at a time (the meter the budget is given, `meterOf`); a quota of `left` entries stands in for
 * the table's window here.
 */
function metered(slice: number, left: number, allowance = Number.POSITIVE_INFINITY) {
  const asked: number[] = [];
  let remaining = left - slice;
  let covered = slice;
  let cut = false;
  const usage: Usage = { indexEntries: 0 };
  usage.quota = {
    get covered() {
      return covered;
    },
    get exhausted() {
      return cut;
    },
    step: slice,
    promised: 0,
    // As `reserveMore` does: never past the request's allowance; the quota's shortfall is the cut.
    more: async (want) => {
      asked.push(want);
      await new Promise((r) => setTimeout(r, 1));
      const ask = Math.max(0, Math.min(want, allowance - covered));
      const got = Math.min(ask, remaining);
      if (got < ask) cut = true;
      remaining -= got;
      covered += got;
      return got;
    },
  };
  return { asked, quota: usage.quota, remaining: () => remaining, meter: meterOf(usage), usage };
}

describe('a read budget within a metered request', () => {
  it('reserves no more of the quota than its queries are granted, what is short and at least a step', async () => {
    const { asked, quota, meter } = metered(40, 1_000_000);
    const budget = new ReadBudget(200_000, meter);
    expect(await budget.take(10)).toBe(10);
    budget.settle(10, 3);
    expect(asked).toEqual([]);
    // 100 at once: 40 held, 3 read; the 63 short are asked for (at least a step, 40).
    expect(await budget.take(100)).toBe(100);
    expect(asked).toEqual([63]);
    budget.settle(100, 100);
    expect(await budget.take(500)).toBe(500);
    expect(asked).toEqual([63, 500]);
    expect(quota.covered).toBe(603);
  });

  it('concurrent queries reserve one at a time, each what it is short, and all of it is used', async () => {
    const { asked, quota, meter } = metered(10, 1_000_000);
    const budget = new ReadBudget(1_000, meter);
    const grants = await Promise.all(Array.from({ length: 8 }, () => budget.take(25)));
    expect(grants).toEqual(Array(8).fill(25));
    expect(quota.promised).toBe(200);
    expect(quota.covered).toBeGreaterThanOrEqual(200);
    expect(asked).toEqual([15, 25, 25, 25, 25, 25, 25, 25]);
    expect(quota.covered).toBe(200);
  });

  it('ends at what the quota gave: a short grant, then 0 once its queries are settled', async () => {
    const { quota, meter } = metered(10, 60);
    const budget = new ReadBudget(1_000, meter);
    expect(await budget.take(30)).toBe(30);
    expect(await budget.take(50)).toBe(30);
    expect(quota.exhausted).toBe(true);
    expect(budget.limit).toBe(60);
    budget.settle(30, 30);
    budget.settle(30, 30);
    expect(await budget.take(5)).toBe(0);
  });

  it('a list that reads up to its own allowance is not cut by the quota (its skip stays a 400, not a 429)', async () => {
    // The last slice asked for (a step, 40) passes the allowance's last 20: the allowance, not
    // the quota, gave less. Counting that as the quota's cut made a skip past the budget a 429.
    const { asked, quota, meter } = metered(40, 1_000_000, 100);
    const budget = new ReadBudget(100, meter);
    expect(await budget.take(30)).toBe(30);
    expect(await budget.take(50)).toBe(50);
    expect(await budget.take(20)).toBe(20);
    expect(asked).toEqual([40, 40]);
    expect(quota.covered).toBe(100);
    expect(quota.exhausted).toBe(false);
    budget.settle(30, 30);
    budget.settle(50, 50);
    budget.settle(20, 20);
    expect(await budget.take(5)).toBe(0);
  });

  it('gives back what a query did not read, for the next one', async () => {
    const { quota, meter } = metered(10, 50);
    const budget = new ReadBudget(1_000, meter);
    expect(await budget.take(50)).toBe(50);
    budget.settle(50, 5);
    expect(quota.promised).toBe(5);
    expect(await budget.take(45)).toBe(45);
  });

  it('outside a request (a script, a sweep) grants within its limit alone', async () => {
    const budget = new ReadBudget(100);
    expect(await budget.take(60)).toBe(60);
    expect(await budget.take(60)).toBe(40);
    expect(budget.quotaStopped).toBe(false);
  });

  it('counts what its queries read toward the request, a share of it too, and says when the quota stopped it', async () => {
    const { meter, usage } = metered(10, 30);
    const budget = new ReadBudget(1_000, meter);
    expect(await budget.take(20)).toBe(20);
    budget.settle(20, 7);
    const part = budget.share(100);
    expect(await part.take(5)).toBe(5);
    part.settle(5, 5);
    budget.charge(part.spent);
    expect(usage.indexEntries).toBe(12);
    expect(budget.spent).toBe(12);
    expect(budget.quotaStopped).toBe(false);
    // 30 entries in all: asking past them cuts the quota, and the budget says so.
    await budget.take(100);
    expect(budget.quotaStopped).toBe(true);
    expect(part.quotaStopped).toBe(true);
  });

  it("is made for a request from its usage: its allowance, a share of it, and its quota's meter", async () => {
    const usage = newUsage();
    usage.allowance = 321;
    const budget = requestBudget(usage);
    expect(budget.limit).toBe(321);
    expect(await budget.take(10)).toBe(10);
    budget.settle(10, 4);
    expect(usage.indexEntries).toBe(4);
    // One of 8 lists at once: an eighth of the allowance, what it reads counted toward the same usage.
    const share = requestBudget(usage, 8);
    expect(share.limit).toBe(40);
    expect(await share.take(10)).toBe(10);
    share.settle(10, 10);
    expect(usage.indexEntries).toBe(14);
    // Entries read beside the queries, by key, count too.
    share.record(3);
    expect(usage.indexEntries).toBe(17);
  });
});
