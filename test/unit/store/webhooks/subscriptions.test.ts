import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attr, webhookKeys } from '../../../../lib/store/table';
import {
  type Subscription,
  subscriptionFrom,
  subscriptionItem,
  subscriptionKey,
} from '../../../../lib/store/webhooks/subscriptions';

/**
 * A subscription as stored: in its owner's partition beside the count that caps them, in the
 * enabled-subscriptions index exactly while enabled, and read back as it was written.
 */

const moment = fc
  .integer({ min: Date.parse('2020-01-01'), max: Date.parse('2099-12-31') })
  .map((ms) => new Date(ms).toISOString());

const subscription: fc.Arbitrary<Subscription> = fc.record(
  {
    id: fc.uuid(),
    owner: fc.record({ id: fc.string({ minLength: 1 }), name: fc.string(), email: fc.constant(null) }),
    url: fc.webUrl(),
    events: fc.array(fc.constantFrom('ActionCreated', 'ActionUpdated', 'CommentAdded')),
    description: fc.string(),
    enabled: fc.boolean(),
    disabledReason: fc.string(),
    createdAt: moment,
    updatedAt: moment,
    secret: fc.base64String({ minLength: 4 }),
    previousSecret: fc.base64String({ minLength: 4 }),
    previousSecretUntil: moment,
    failingSince: moment,
  },
  { requiredKeys: ['id', 'owner', 'url', 'events', 'description', 'enabled', 'createdAt', 'updatedAt', 'secret'] },
);

describe('subscriptionKey', () => {
  it("puts a subscription in its owner's partition, under s#<id>", () => {
    expect(subscriptionKey('u-1', 'abc')).toEqual({ [attr.id]: 'wh#u-1', [attr.sortKey]: 's#abc' });
  });

  it('never meets the count beside it, whatever the id', () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        expect(subscriptionKey('u-1', id)[attr.sortKey]).not.toBe(webhookKeys.count);
      }),
    );
  });
});

describe('subscriptionItem and subscriptionFrom', () => {
  it('read back every subscription as it was stored', () => {
    fc.assert(
      fc.property(subscription, (s) => {
        expect(subscriptionFrom(subscriptionItem(s))).toEqual(s);
      }),
    );
  });

  it('give an enabled subscription, and only an enabled one, the enabled index key', () => {
    fc.assert(
      fc.property(subscription, (s) => {
        const item = subscriptionItem(s);
        if (s.enabled) expect(item[attr.webhooksEnabledKey]).toBe(webhookKeys.enabled);
        else expect(item).not.toHaveProperty(attr.webhooksEnabledKey);
      }),
    );
  });

  it('store neither the id nor the owner id as plain fields, and read back no store attribute', () => {
    const s: Subscription = {
      id: 'sub-1',
      owner: { id: 'u-1', name: 'Ann', email: null },
      url: 'https://hooks.example.com/a',
      events: ['ActionCreated'],
      description: '',
      enabled: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      secret: 'c2VjcmV0',
    };
    const item = subscriptionItem(s);
    expect(item).not.toHaveProperty('id', 'sub-1');
    expect(Object.keys(item).sort()).toEqual(
      [attr.id, attr.sortKey, attr.webhooksEnabledKey, 'owner', 'url', 'events', 'description', 'enabled']
        .concat(['createdAt', 'updatedAt', 'secret'])
        .sort(),
    );
    const read = subscriptionFrom({ ...item, [attr.count]: 3, [attr.expiresAt]: 1 });
    expect(read).toEqual(s);
    expect(read).not.toHaveProperty(attr.webhooksEnabledKey);
  });
});
