import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attr } from '../../../../lib/store/table';
import {
  type Delivery,
  deliveryFrom,
  deliveryItem,
  deliveryKey,
  isDeliveryKey,
  live,
} from '../../../../lib/store/webhooks/deliveries';

/** A delivery as stored: in its subscription's log, its expiry in the TTL attribute, read back as it was. */

const delivery: fc.Arbitrary<Delivery> = fc.record(
  {
    id: fc.uuid(),
    subscriptionId: fc.uuid(),
    ownerId: fc.string({ minLength: 1 }),
    eventId: fc.uuid(),
    type: fc.constantFrom('ActionCreated', 'ActionUpdated'),
    payload: fc.json(),
    status: fc.constantFrom('pending', 'succeeded', 'failed'),
    attempts: fc.array(
      fc.record(
        {
          at: fc.constant('2026-01-01T00:00:00.000Z'),
          durationMs: fc.nat(),
          responseStatus: fc.integer({ min: 100, max: 599 }),
          error: fc.string(),
        },
        { requiredKeys: ['at', 'durationMs'] },
      ),
      { maxLength: 3 },
    ),
    nextAttemptAt: fc.constant('2026-01-01T00:05:00.000Z'),
    tries: fc.nat(20),
    createdAt: fc.constant('2026-01-01T00:00:00.000Z'),
    expiresAt: fc.integer({ min: 1_700_000_000, max: 2_000_000_000 }),
  },
  {
    requiredKeys: [
      'id',
      'subscriptionId',
      'ownerId',
      'eventId',
      'type',
      'payload',
      'status',
      'attempts',
      'tries',
      'createdAt',
      'expiresAt',
    ],
  },
);

describe('deliveryKey', () => {
  it("puts a delivery in its subscription's log, under d#<id>", () => {
    expect(deliveryKey('sub-1', 'del-1')).toEqual({ [attr.id]: 'wd#sub-1', [attr.sortKey]: 'd#del-1' });
  });
});

describe('deliveryItem and deliveryFrom', () => {
  it('read back every delivery as it was stored', () => {
    fc.assert(
      fc.property(delivery, (d) => {
        expect(deliveryFrom(deliveryItem(d))).toEqual(d);
      }),
    );
  });

  it('keep the ids in the key and the expiry in the TTL attribute only', () => {
    fc.assert(
      fc.property(delivery, (d) => {
        const item = deliveryItem(d);
        expect(item).toMatchObject({ ...deliveryKey(d.subscriptionId, d.id), [attr.expiresAt]: d.expiresAt });
        // `id` is the partition key's own name: it holds the log's key, not the delivery's id.
        expect(item[attr.id]).toBe(`wd#${d.subscriptionId}`);
        for (const field of ['subscriptionId', 'expiresAt']) expect(item).not.toHaveProperty(field);
      }),
    );
  });

  it('read a delivery stored before tries and attempts were kept as none of either', () => {
    const {
      attempts: _attempts,
      tries: _tries,
      ...old
    } = deliveryItem({
      id: 'd-1',
      subscriptionId: 's-1',
      ownerId: 'u-1',
      eventId: 'e-1',
      type: 'ActionCreated',
      payload: '{}',
      status: 'pending',
      attempts: [],
      tries: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: 1_900_000_000,
    });
    expect(deliveryFrom(old)).toMatchObject({ attempts: [], tries: 0 });
    expect(deliveryFrom(old)).not.toHaveProperty('nextAttemptAt');
  });
});

describe('live', () => {
  const now = Math.floor(Date.now() / 1000);

  it('hides a delivery past its TTL, which DynamoDB may not have removed yet', () => {
    expect(live(undefined)).toBe(false);
    expect(live({ [attr.expiresAt]: now - 10 })).toBe(false);
    expect(live({ [attr.expiresAt]: now + 60 })).toBe(true);
  });
});

describe('isDeliveryKey', () => {
  it("takes back only a delivery's sort key in a cursor", () => {
    expect(isDeliveryKey(deliveryKey('s-1', 'd-1')[attr.sortKey])).toBe(true);
    expect(isDeliveryKey('s#d-1')).toBe(false);
    expect(isDeliveryKey(7)).toBe(false);
    expect(isDeliveryKey(`d#${'x'.repeat(1100)}`)).toBe(false);
  });
});
