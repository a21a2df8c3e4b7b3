import { describe, expect, it } from 'vitest';
import { AGAIN, backoffDelay, type RetryOptions, retry } from '../../lib/flow/retry';

/**
 * The one retry loop (`lib/flow/retry.ts`), on a clock of its own: the pauses only move that clock,
 * so no test waits, and each pause is recorded with the random draw that made it.
 */
function fakeTime(random = () => 1) {
  let now = 1_000;
  const pauses: number[] = [];
  const timing = {
    now: () => now,
    sleep: async (ms: number) => {
      pauses.push(ms);
      now += ms;
    },
    random,
  } satisfies Partial<RetryOptions<unknown>>;
  return { timing, pauses, advance: (ms: number) => (now += ms) };
}

describe('retry', () => {
  it('answers the first result that is not AGAIN, with no pause when it is the first round', async () => {
    const { timing, pauses } = fakeTime();
    expect(await retry(async () => 'done', { attempts: 3, ...timing })).toBe('done');
    expect(pauses).toEqual([]);
  });

  it('runs at most `attempts` rounds, the first included, then asks `exhausted`', async () => {
    const { timing, pauses } = fakeTime();
    const rounds: number[] = [];
    const answer = await retry(
      async (round) => {
        rounds.push(round);
        return AGAIN;
      },
      { attempts: 4, exhausted: () => 'gave up', ...timing },
    );
    expect(answer).toBe('gave up');
    expect(rounds).toEqual([0, 1, 2, 3]);
    // A pause before each later round, its ceiling doubling from 10 ms: 2^round * 10.
    expect(pauses).toEqual([20, 40, 80]);
  });

  it('stops when a later round succeeds', async () => {
    const { timing } = fakeTime();
    let calls = 0;
    const answer = await retry(async () => (++calls < 3 ? AGAIN : calls), { attempts: 5, ...timing });
    expect(answer).toBe(3);
  });

  it('starts rounds while the time budget lasts, counted from `startedAt`, and always the first', async () => {
    const { timing, advance } = fakeTime();
    const started = timing.now();
    let rounds = 0;
    const work = async () => {
      rounds++;
      advance(100); // each round takes 100 ms of the fake clock
      return AGAIN;
    };
    await expect(retry(work, { budgetMs: 1_000, capMs: 0, ...timing })).rejects.toThrow(/every round/);
    // Rounds start at 0, 100, ..., 900 ms: ten of them; at 1,000 ms the budget is spent.
    expect(rounds).toBe(10);

    rounds = 0;
    // A budget that ran out before the call (a wait in a queue) still gets its first round.
    await expect(
      retry(work, { budgetMs: 50, startedAt: started - 60, capMs: 0, ...timing }).catch(() => 'spent'),
    ).resolves.toBe('spent');
    expect(rounds).toBe(1);
  });

  it('counts the pauses against the budget', async () => {
    const { timing, pauses } = fakeTime();
    await retry(async () => AGAIN, { budgetMs: 500, capMs: 200, exhausted: () => undefined, ...timing });
    // 20 + 40 + 80 + 160 = 300 ms, then 200 (capped) = 500: the budget is spent, no sixth round.
    expect(pauses).toEqual([20, 40, 80, 160, 200]);
  });

  it('retries only the errors `retryable` accepts, and throws the last one when rounds run out', async () => {
    const { timing } = fakeTime();
    const busy = new Error('busy');
    const wrong = new Error('wrong');
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls < 3) throw busy;
      return 'served';
    };
    expect(await retry(flaky, { attempts: 3, retryable: (e) => e === busy, ...timing })).toBe('served');

    calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw wrong;
        },
        { attempts: 3, retryable: (e) => e === busy, ...timing },
      ),
    ).rejects.toBe(wrong);
    expect(calls).toBe(1);

    await expect(
      retry(
        async () => {
          throw busy;
        },
        { attempts: 2, retryable: () => true, ...timing },
      ),
    ).rejects.toBe(busy);
  });

  it('throws nothing retryable by default', async () => {
    const { timing } = fakeTime();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('no');
    };
    await expect(retry(failing, { attempts: 5, ...timing })).rejects.toThrow('no');
    expect(calls).toBe(1);
  });

  it('lets `exhausted` throw the caller’s own error', async () => {
    const { timing } = fakeTime();
    const unavailable = new Error('503');
    await expect(
      retry(async () => AGAIN, {
        attempts: 2,
        exhausted: () => {
          throw unavailable;
        },
        ...timing,
      }),
    ).rejects.toBe(unavailable);
  });
});

describe('backoffDelay', () => {
  it('is full jitter: anywhere from 0 up to the ceiling, as the random draw says', () => {
    expect(backoffDelay(3, 1_000, 10, () => 0)).toBe(0);
    expect(backoffDelay(3, 1_000, 10, () => 0.5)).toBe(40);
    expect(backoffDelay(3, 1_000, 10, () => 0.999)).toBeCloseTo(79.92);
  });

  it('never passes the cap, however many rounds', () => {
    for (const round of [6, 7, 10, 30, 1_000]) {
      expect(backoffDelay(round, 1_000, 10, () => 0.999_999)).toBeLessThan(1_000);
      expect(backoffDelay(round, 2_000, 10, () => 0.999_999)).toBeLessThanOrEqual(2_000);
    }
    expect(backoffDelay(1_000, 250, 100, () => 1)).toBe(250);
  });

  it('draws each pause afresh, so contenders spread out', async () => {
    const draws = [0.1, 0.9, 0.5];
    const { timing, pauses } = fakeTime(() => draws.shift() ?? 0);
    await retry(async () => AGAIN, { attempts: 4, capMs: 1_000, exhausted: () => undefined, ...timing });
    expect(pauses).toEqual([0.1 * 20, 0.9 * 40, 0.5 * 80]);
  });
});
