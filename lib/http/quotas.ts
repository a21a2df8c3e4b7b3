import { getConfig } from '../config';
import { TooManyRequestsError } from '../errors';
import { logger } from '../logger';
import { admitRequest, chargeReads, type QuotaLimits, type WindowUse } from '../store/quotas';

/**
 * Per-caller quotas (contract section 12; the fields of draft-ietf-httpapi-ratelimit-headers-10):
 * each caller (the token's `sub`) may make `RATE_LIMIT_REQUESTS` requests and have its lists read
 * `RATE_LIMIT_READS` index entries in each fixed window of a minute. The counts live in the table
 * (`lib/store/quotas.ts`), so every function instance sees the same ones. A request past either
 * quota is refused before it does anything; a list is charged what it read after reading, so a
 * list may take a caller past the read quota, and its next request is the one refused.
 */

/** The window, in seconds: the `w` of both policies. */
export const QUOTA_WINDOW_SECONDS = 60;

type PolicyName = 'requests' | 'reads';

/** Where a caller stands in the current window. */
export interface QuotaState {
  caller: string;
  windowStart: number;
  use: WindowUse;
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

/** Counts this request against the caller's quotas, or refuses it (429) when one is used up. */
export async function admit(caller: string, nowMs = Date.now()): Promise<QuotaState> {
  const windowStart = windowAt(nowMs);
  const q = quotaLimits();
  const { admitted, use } = await admitRequest(caller, windowStart, QUOTA_WINDOW_SECONDS, q);
  const state = { caller, windowStart, use };
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

/** Charges the index entries a request's lists read to its window; the state after. */
export async function charge(state: QuotaState, indexEntries: number): Promise<QuotaState> {
  if (indexEntries <= 0) return state;
  const use = await chargeReads(state.caller, state.windowStart, QUOTA_WINDOW_SECONDS, indexEntries);
  logger.debug('quota charge', { indexEntries, writeUnits: use.writeUnits });
  return { ...state, use };
}
