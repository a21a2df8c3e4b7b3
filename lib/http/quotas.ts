import { getConfig } from '../config';
import { TooManyRequestsError } from '../errors';
import { logger } from '../logger';
import { admitRequest, chargeReads, type QuotaLimits, reserveReads, type WindowUse } from '../store/quotas';

/**
 * Per-caller quotas (contract section 12; the fields of draft-ietf-httpapi-ratelimit-headers-10):
 * each caller (the token's `sub`) may make `RATE_LIMIT_REQUESTS` requests and have its lists read
 * `RATE_LIMIT_READS` index entries in each fixed window of a minute. The counts live in the table
 * (`lib/store/quotas.ts`), so every function instance sees the same ones. A request past either
 * quota is refused before it does anything. A request that reads (a list, the change feed)
 * holds what it may read in the same conditional updates: a first slice at admission (what its page
 * needs, at least a fiftieth of its budget), then more as its queries are granted entries (`reserveMore`, through the meter its list's
 * budget carries: `ReadMeter` in lib/usage.ts), each never past the quota; so concurrent lists cannot take a caller past the
 * quota (what is held is counted before anyone reads), and fifteen small lists at once hold
 * fifteen slices, not fifteen budgets. After it read, what it did not use is given back.
 */

/** The window, in seconds: the `w` of both policies. */
export const QUOTA_WINDOW_SECONDS = 60;

type PolicyName = 'requests' | 'reads';

/** Where a caller stands in the current window. */
export interface QuotaState {
  caller: string;
  windowStart: number;
  use: WindowUse;
  /** Index entries charged so far (at admission and after), settled against what was read. */
  reserved: number;
  /** What the request may read in all: its budget, cut to what was left of the quota. */
  allowance: number;
  /** The quota gave less than was asked: this request is the one that reaches it. */
  cut: boolean;
}

/**
 * What a list holds of the read quota at admission: what its page needs (`need`, from the edge's
 * `pageNeed`, so concurrent lists do not all start and then starve each other half way), and no
 * less than a fiftieth of its budget (4,000 of the default 200,000); never more than the budget.
 */
const firstSlice = (budget: number, need = 0) =>
  budget > 0 ? Math.min(budget, Math.max(Math.ceil(budget / 50), need)) : 0;

const windowAt = (nowMs: number) => Math.floor(nowMs / 1000 / QUOTA_WINDOW_SECONDS) * QUOTA_WINDOW_SECONDS;

/** The two quotas, as configured. */
const quotaLimits = (): QuotaLimits => {
  const config = getConfig();
  return { requests: config.rateLimitRequests, reads: config.rateLimitReads };
};

/** Seconds until the window refills; at least 1. */
const secondsLeft = (windowStart: number, nowMs: number) =>
  Math.max(1, Math.ceil(windowStart + QUOTA_WINDOW_SECONDS - nowMs / 1000));

/**
 * The `RateLimit-Policy` and `RateLimit` fields of the quota nearest to running out (the smaller
 * share left). The read policy's unit is index entries, which the draft's registry of quota
 * units does not name; the API description says so.
 */
export function quotaHeaders(state: QuotaState, nowMs = Date.now()): Record<string, string> {
  const q = quotaLimits();
  const left = (name: PolicyName) => Math.max(0, q[name] - state.use[name]);
  const name: PolicyName = left('reads') / q.reads < left('requests') / q.requests ? 'reads' : 'requests';
  return {
    'ratelimit-policy': `"${name}";q=${q[name]};w=${QUOTA_WINDOW_SECONDS}`,
    ratelimit: `"${name}";r=${left(name)};t=${secondsLeft(state.windowStart, nowMs)}`,
  };
}

/**
 * Counts this request against the caller's quotas, or refuses it (429) when one is used up.
 * `budget`: the index entries the request may read (a list's budget), `need` what its page needs
 * at least; its first slice (`firstSlice`) is reserved now.
 */
export async function admit(caller: string, budget = 0, need = 0, nowMs = Date.now()): Promise<QuotaState> {
  const windowStart = windowAt(nowMs);
  const q = quotaLimits();
  const slice = firstSlice(budget, need);
  const { admitted, use } = await admitRequest(caller, windowStart, QUOTA_WINDOW_SECONDS, q, slice);
  const reserved = admitted ? slice : 0;
  // What was used before this reservation was under the quota (the condition); the rest is ours.
  const left = q.reads - (use.reads - reserved);
  const allowance = Math.min(admitted ? budget : 0, left);
  // A list whose budget the quota cut is the one that reaches it (see `charge`).
  const state = { caller, windowStart, use, reserved, allowance, cut: left < Math.max(budget, reserved) };
  logger.debug('quota', { admitted, writeUnits: use.writeUnits });
  if (!admitted) {
    const over = use.requests >= q.requests ? `${q.requests} requests` : `${q.reads} index entries read`;
    const retryAfter = secondsLeft(windowStart, nowMs);
    throw new TooManyRequestsError(
      `This caller has used its quota of ${over} a minute; retry in ${retryAfter} seconds.`,
      retryAfter,
      quotaHeaders(state, nowMs),
    );
  }
  return state;
}

/**
 * Reserves up to `want` more of the caller's read quota for the request of `state` (never past
 * its allowance or the quota), and records it there; answers how many it got.
 */
export async function reserveMore(state: QuotaState, want: number): Promise<number> {
  const ask = Math.min(want, state.allowance - state.reserved);
  if (ask <= 0) return 0;
  const { reserved, use } = await reserveReads(
    state.caller,
    state.windowStart,
    QUOTA_WINDOW_SECONDS,
    quotaLimits().reads,
    ask,
  );
  state.reserved += reserved;
  state.use = use;
  if (reserved < ask) state.cut = true;
  return reserved;
}

/**
 * Charges what a request read to its window, less what it reserved (so an unused reservation is
 * given back); the state after. A list the quota cut (it was given what was left) keeps the whole
 * of it charged: it is the list that reaches the quota, and the next request is refused.
 * Refunding its unread rest would leave a little under the quota each time, and lists would go on
 * being admitted for ever smaller allowances.
 */
export async function charge(state: QuotaState, indexEntries: number): Promise<QuotaState> {
  const charged = state.cut ? Math.max(indexEntries, state.reserved) : indexEntries;
  const difference = charged - state.reserved;
  if (difference === 0) return state;
  const use = await chargeReads(state.caller, state.windowStart, QUOTA_WINDOW_SECONDS, difference);
  logger.debug('quota charge', { indexEntries, reserved: state.reserved, writeUnits: use.writeUnits });
  return { ...state, use, reserved: charged };
}

/** The 429 of a read that the caller's read quota left too little to answer anything. */
export function readsSpent(state: QuotaState, nowMs = Date.now()): TooManyRequestsError {
  const retryAfter = secondsLeft(state.windowStart, nowMs);
  return new TooManyRequestsError(
    `This caller has too little left of its read quota to answer this request; retry in ${retryAfter} seconds.`,
    retryAfter,
    quotaHeaders(state, nowMs),
  );
}
