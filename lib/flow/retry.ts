/**
 * The retry loop (../shared/style.md, habit 18): what tries again after a failure (a write that
 * lost a race, a batch DynamoDB left part of, a key claim that vanished, a local store still
 * starting) runs its rounds through `retry`, or pauses with `backoff`, capped full-jitter backoff,
 * so contenders stop colliding in lockstep. One loop still writes its own pause:
 * `infra/local/stream-reader.ts` restarts its read after an error with a fixed 2 s wait (its
 * records that fail do go through `backoff`); polls on an interval (the stream reader, the
 * webhook sweeper) are waits, not retries. It sits at the top of lib/ so the store, the use cases
 * and the local stack can all call it.
 */

/** The first pause's ceiling doubles from this each round... */
const BASE_MS = 10;
/** ...up to this, unless the caller caps it elsewhere. */
const DEFAULT_CAP_MS = 1_000;

/**
 * The pause before round `round` (1 for the first retry): full jitter, a uniform random wait up to
 * `min(capMs, baseMs * 2^round)` (the AWS Architecture Blog's "Exponential Backoff And Jitter").
 */
export function backoffDelay(round: number, capMs = DEFAULT_CAP_MS, baseMs = BASE_MS, random = Math.random): number {
  return random() * Math.min(capMs, baseMs * 2 ** round);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits the full-jitter pause before round `round` (see `backoffDelay`). */
export const backoff = (round: number, capMs = DEFAULT_CAP_MS, baseMs = BASE_MS): Promise<void> =>
  sleep(backoffDelay(round, capMs, baseMs));

/** What an attempt returns to ask for another round: its `continue`. */
export const AGAIN: unique symbol = Symbol('again');

/** How many rounds: a number of them, or as many as start within a time budget. */
export type RetryLimit =
  | { /** Rounds in all, the first included. */ attempts: number; budgetMs?: never; startedAt?: never }
  | {
      /** No round starts once this many milliseconds have passed since `startedAt`; the first always runs. */
      budgetMs: number;
      /** When the budget started counting (default: the call), e.g. before a wait in a queue. */
      startedAt?: number;
      attempts?: never;
    };

export type RetryOptions<T> = RetryLimit & {
  /** The longest pause between rounds (default 1 s). */
  capMs?: number;
  /** The first pause's ceiling, doubling each round (default 10 ms). */
  baseMs?: number;
  /** Whether an error an attempt throws is worth another round (default: none is; it throws at once). */
  retryable?: (error: unknown) => boolean;
  /**
   * What the call comes to when the rounds run out (it may throw). By default the last retryable
   * error is thrown again, or, when the last round returned `AGAIN`, a plain error says so.
   */
  exhausted?: () => T;
  /** Seams for the unit tests: the clock, the pause and the random source. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

/**
 * Calls `attempt(round)` (round 0 first) until it returns something other than `AGAIN` or throws
 * an error `retryable` does not accept, waiting a capped full-jitter pause before each later round,
 * for at most `attempts` rounds or while `budgetMs` lasts; then `exhausted` decides.
 */
export async function retry<T>(
  attempt: (round: number) => Promise<T | typeof AGAIN>,
  options: RetryOptions<T>,
): Promise<T> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const started = options.startedAt ?? now();
  const mayStart = (round: number) =>
    round === 0 ||
    (options.attempts !== undefined ? round < options.attempts : now() - started < (options.budgetMs as number));
  let failure: { error: unknown } | undefined;
  for (let round = 0; mayStart(round); round++) {
    if (round > 0) await pause(backoffDelay(round, options.capMs, options.baseMs, options.random));
    try {
      const result = await attempt(round);
      if (result !== AGAIN) return result;
      failure = undefined;
    } catch (error) {
      if (!options.retryable?.(error)) throw error;
      failure = { error };
    }
  }
  if (options.exhausted) return options.exhausted();
  if (failure) throw failure.error;
  throw new Error('retry: every round asked for another');
}
