import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_WINDOW_SECONDS, type QuotaState, quotaHeaders } from '../../../lib/http/quotas';
import { stubConfigEnv } from '../config-env';

/**
 * The `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10) for
 * quotas of 10 requests and 1,000 index entries a minute. Config is read at first use, so the
 * environment is set before the first call.
 */

beforeAll(() => stubConfigEnv({ RATE_LIMIT_REQUESTS: '10', RATE_LIMIT_READS: '1000' }));

const WINDOW = 1_800_000_000 - (1_800_000_000 % 60);
const at = (requests: number, reads: number): QuotaState => ({
  caller: 'u1',
  windowStart: WINDOW,
  use: { requests, reads, writeUnits: 0 },
  reserved: 0,
  allowance: 0,
  cut: false,
});
const startMs = WINDOW * 1000;

describe('quotaHeaders', () => {
  it('names the request quota while it is the nearer to running out', () => {
    expect(quotaHeaders(at(1, 0), startMs)).toEqual({
      'ratelimit-policy': `"requests";q=10;w=${QUOTA_WINDOW_SECONDS}`,
      ratelimit: '"requests";r=9;t=60',
    });
  });

  it('names the read quota once a smaller share of it is left', () => {
    // 10 of 1,000 entries left (1 %) against 9 of 10 requests (90 %).
    expect(quotaHeaders(at(1, 990), startMs)).toEqual({
      'ratelimit-policy': '"reads";q=1000;w=60',
      ratelimit: '"reads";r=10;t=60',
    });
  });

  it('never says less than nothing is left, past either quota', () => {
    expect(quotaHeaders(at(15, 0), startMs).ratelimit).toBe('"requests";r=0;t=60');
    expect(quotaHeaders(at(1, 5000), startMs).ratelimit).toBe('"reads";r=0;t=60');
  });

  it('counts the seconds to the window end up, and never says 0', () => {
    expect(quotaHeaders(at(1, 0), startMs + 59_500).ratelimit).toBe('"requests";r=9;t=1');
    expect(quotaHeaders(at(1, 0), startMs + 30_001).ratelimit).toBe('"requests";r=9;t=30');
    expect(quotaHeaders(at(1, 0), startMs + 60_000).ratelimit).toBe('"requests";r=9;t=1');
  });

  it('for any use, names a policy whose share left is the smaller, with 0 <= r <= q and 1 <= t <= 60', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(2000), fc.nat(59_999), (requests, reads, into) => {
        const headers = quotaHeaders(at(requests, reads), startMs + into);
        const m = /^"(requests|reads)";r=(\d+);t=(\d+)$/.exec(headers.ratelimit as string);
        expect(m).not.toBeNull();
        const [, name, r, t] = m as unknown as [string, string, string, string];
        const q = name === 'reads' ? 1000 : 10;
        expect(headers['ratelimit-policy']).toBe(`"${name}";q=${q};w=60`);
        expect(Number(r)).toBeGreaterThanOrEqual(0);
        expect(Number(r)).toBeLessThanOrEqual(q);
        expect(Number(t)).toBeGreaterThanOrEqual(1);
        expect(Number(t)).toBeLessThanOrEqual(60);
        const share = { requests: Math.max(0, 10 - requests) / 10, reads: Math.max(0, 1000 - reads) / 1000 };
        const other = name === 'reads' ? 'requests' : 'reads';
        expect(share[name as 'reads']).toBeLessThanOrEqual(share[other]);
      }),
    );
  });
});
