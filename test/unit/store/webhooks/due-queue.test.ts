import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shardOf, shardOfSubscription } from '../../../../lib/store/shards';
import { attr, webhookKeys } from '../../../../lib/store/table';
import { dueFrom, dueItem, markerKey, type StoredDue } from '../../../../lib/store/webhooks/due-queue';

/**
 * Attempts due as stored: each in its subscription's queue with its due time leading the sort key,
 * and a marker per queue in the ready partition the store's one hash (`shardOf`) chooses.
 */

describe('shardOfSubscription', () => {
  it("is the actions' shard folded onto the ready partitions (known answers of FNV-1a)", () => {
    expect(shardOfSubscription('a')).toBe(0);
    expect([1, 2, 3, 4].map((n) => shardOfSubscription(`0190a5c2-7d1e-7c3a-9f00-00000000000${n}`))).toEqual([
      3, 2, 1, 0,
    ]);
    fc.assert(fc.property(fc.uuid(), (id) => shardOfSubscription(id) === shardOf(id) % webhookKeys.readyShards));
  });

  it('chooses one of the ready partitions the sweep reads, and spreads subscriptions over all of them', () => {
    const shards = new Set<number>();
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const shard = shardOfSubscription(id);
        expect(Number.isInteger(shard) && shard >= 0 && shard < webhookKeys.readyShards).toBe(true);
        expect(shardOfSubscription(id)).toBe(shard);
        shards.add(shard);
      }),
      { numRuns: 200 },
    );
    expect(shards.size).toBe(webhookKeys.readyShards);
  });
});

describe('markerKey', () => {
  it("lists a subscription's queue in its ready partition, under the subscription's id", () => {
    expect(markerKey('0190a5c2-7d1e-7c3a-9f00-000000000003')).toEqual({
      [attr.id]: 'wr#1',
      [attr.sortKey]: '0190a5c2-7d1e-7c3a-9f00-000000000003',
    });
  });

  it('addresses a marker in the partition it was read from, which an earlier hash may have chosen', () => {
    expect(markerKey('0190a5c2-7d1e-7c3a-9f00-000000000003', 2)).toEqual({
      [attr.id]: 'wr#2',
      [attr.sortKey]: '0190a5c2-7d1e-7c3a-9f00-000000000003',
    });
  });
});

describe('dueItem and dueFrom', () => {
  const stored: fc.Arbitrary<StoredDue> = fc
    .record({
      ownerId: fc.string({ minLength: 1 }),
      subscriptionId: fc.uuid(),
      deliveryId: fc.uuid(),
      dueAt: fc
        .integer({ min: Date.parse('2020-01-01'), max: Date.parse('2099-12-31') })
        .map((ms) => new Date(ms).toISOString()),
      manual: fc.boolean(),
      nonce: fc.base64String({ minLength: 8, maxLength: 8 }),
    })
    .map(({ nonce, ...due }) => ({ ...due, key: `${due.dueAt}#${due.deliveryId}#${nonce}` }));

  it('read back every attempt due as it was stored, its due time from the sort key', () => {
    fc.assert(
      fc.property(stored, fc.nat(), (due, expiresAt) => {
        const item = dueItem(due, expiresAt);
        expect(item[attr.id]).toBe(webhookKeys.due(due.subscriptionId));
        expect(item[attr.expiresAt]).toBe(expiresAt);
        expect(item).not.toHaveProperty('dueAt');
        expect(dueFrom(due.subscriptionId, item)).toEqual(due);
      }),
    );
  });

  it('sorts a queue by due time, so the first item is the earliest due', () => {
    fc.assert(
      fc.property(stored, stored, (a, b) => {
        const [first] = [dueItem(a, 0), dueItem(b, 0)].sort((x, y) =>
          (x[attr.sortKey] as string) < (y[attr.sortKey] as string) ? -1 : 1,
        );
        expect(dueFrom('s', first as never).dueAt).toBe(a.dueAt <= b.dueAt ? a.dueAt : b.dueAt);
      }),
    );
  });

  it('reads an item stored without `manual` as a scheduled attempt', () => {
    expect(
      dueFrom('s-1', { [attr.sortKey]: '2026-01-01T00:00:00.000Z#d-1#n', ownerId: 'u', deliveryId: 'd-1' }),
    ).toEqual({
      key: '2026-01-01T00:00:00.000Z#d-1#n',
      dueAt: '2026-01-01T00:00:00.000Z',
      ownerId: 'u',
      subscriptionId: 's-1',
      deliveryId: 'd-1',
      manual: false,
    });
  });
});
