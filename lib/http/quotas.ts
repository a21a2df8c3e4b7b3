import { getConfig } from '../config';
import { TooManyRequestsError } from '../errors';
import { logger } from '../logger';
import { admitRequest, chargeReads, type QuotaLimits, type WindowUse } from '../store/quotas';

/**
 * Per-caller quotas (contract section 12; the fields of draft-ietf-httpapi-ratelimit-headers-10):
 * each caller (the token's `sub`) may make `RATE_LIMIT_REQUESTS` requests and have its lists read
 * `RATE_LIMIT_READS` index entries in each fixed window of a minute. The counts live in the table
 * (`lib/store/quotas.ts`), so every function instance sees the same ones. A request past either
 * quota is refused before it does anything. A request that reads (a list, the change feed)
 * reserves its allowance when it is admitted, in the same conditional update: min(budget, what is
 * left of the read quota), charged at once, so concurrent lists cannot take a caller past the
 * quota (what is reserved is counted before anyone reads); after it read, what it did not use is
 * given back.
 */

/** The window, in seconds: the `w` of both policies. */
export const QUOTA_WINDOW_SECONDS = 60;

type PolicyName = 'requests' | 'reads';

/** Where a caller stands in the current window. */
export interface QuotaState {
  caller: string;
  windowStart: number;
  use: WindowUse;
  /** Index entries charged at admission, settled against what was read. */
  reserved: number;
  /** Of those, what the request may read: the reservation, cut to what was left of the quota. */
  allowance: number;
}

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
 * `reserveReads`: the index entries the request may read (a list's budget), reserved now.
 */
export async function admit(caller: string, reserveReads = 0, nowMs = Date.now()): Promise<QuotaState> {
  const windowStart = windowAt(nowMs);
  const q = quotaLimits();
  const { admitted, use } = await admitRequest(caller, windowStart, QUOTA_WINDOW_SECONDS, q, reserveReads);
  const reserved = admitted ? reserveReads : 0;
  // What was used before this reservation was under the quota (the condition); the rest is ours.
  const allowance = Math.min(reserved, q.reads - (use.reads - reserved));
  const state = { caller, windowStart, use, reserved, allowance };
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
 * Charges what a request read to its window, less what it reserved (so an unused reservation is
 * given back); the state after. A list whose allowance the quota cut (it was given what was left)
 * keeps the whole of it charged: it is the list that passes the quota, and the next request is
 * refused. Refunding its unread rest would leave a little under the quota each time, and lists
 * would go on being admitted for ever smaller allowances.
 */
export async function charge(state: QuotaState, indexEntries: number): Promise<QuotaState> {
  const charged = state.allowance < state.reserved ? Math.max(indexEntries, state.reserved) : indexEntries;
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
