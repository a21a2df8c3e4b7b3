import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attr, webhookKeys } from '../../../../lib/store/table';
import { manualKey } from '../../../../lib/store/webhooks/manual-attempts';
import { subscriptionKey } from '../../../../lib/store/webhooks/subscriptions';

/** The times a redelivery or ping was asked for sit beside the subscription, never among the subscriptions. */

describe('manualKey', () => {
  it("sits in the owner's partition, under m#<subscription id>", () => {
    expect(manualKey('u-1', 'sub-1')).toEqual({ [attr.id]: 'wh#u-1', [attr.sortKey]: 'm#sub-1' });
  });

  it('is never read as a subscription (listing reads s#...) nor meets the count', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (owner, id) => {
        const key = manualKey(owner, id);
        expect(key[attr.id]).toBe(subscriptionKey(owner, id)[attr.id]);
        expect((key[attr.sortKey] as string).startsWith(webhookKeys.subscriptionPrefix)).toBe(false);
        expect(key[attr.sortKey]).not.toBe(webhookKeys.count);
      }),
    );
  });
});
