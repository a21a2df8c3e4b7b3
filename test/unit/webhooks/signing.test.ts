import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { payloadOf, signature } from '../../../lib/webhooks/signing';

/**
 * What a webhook attempt carries: the Standard Webhooks 1.0 signature (checked against the
 * specification's published test vector and the `standardwebhooks` package's own verifier) and
 * the body every attempt sends.
 */

describe('signature', () => {
  it("reproduces the Standard Webhooks reference implementations' test vector", () => {
    expect(
      signature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is accepted by the standardwebhooks verifier for any id and JSON body, and refused under another secret', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const other = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
    const verifier = new Webhook(secret);
    const timestamp = Math.floor(Date.now() / 1000);
    fc.assert(
      fc.property(fc.uuid(), fc.json({ maxDepth: 2 }), (id, body) => {
        const headers = {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(secret, id, timestamp, body),
        };
        expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
        expect(() => other.verify(body, headers)).toThrow();
        // Signed for one body, one id and one time: none of them can be swapped.
        expect(() => verifier.verify(`${body} `, headers)).toThrow();
        expect(() => verifier.verify(body, { ...headers, 'webhook-id': `${id}x` })).toThrow();
        expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': String(timestamp - 1) })).toThrow();
      }),
      { numRuns: 25 },
    );
  });
});

describe('payloadOf', () => {
  it("is Standard Webhooks' {type, timestamp, data} of the event", () => {
    const event = {
      id: 'e1',
      detailType: 'ActionCreated',
      time: '2026-11-01T00:00:00.000Z',
      detail: { actionId: 'a1' },
    };
    expect(JSON.parse(payloadOf(event))).toEqual({
      type: 'ActionCreated',
      timestamp: '2026-11-01T00:00:00.000Z',
      data: { actionId: 'a1' },
    });
  });
});
