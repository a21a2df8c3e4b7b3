import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReadyQueue } from '../../../lib/store/webhooks/due-queue';
import { Lanes, PER_OWNER, PER_SUBSCRIPTION, roundRobin } from '../../../lib/webhooks/lanes';

/**
 * Who runs what in a webhook sweep: the lanes (attempts under way, capped per subscription, per
 * owner and in all) and the order queues are taken in (owners in turn, so one owner's many
 * subscriptions never go first).
 */

describe('Lanes', () => {
  it('gives a subscription at most PER_SUBSCRIPTION places', () => {
    const lanes = new Lanes(100);
    expect(lanes.room('o-1', 's-1')).toBe(PER_SUBSCRIPTION);
    lanes.hold('o-1', 's-1', PER_SUBSCRIPTION);
    expect(lanes.room('o-1', 's-1')).toBe(0);
    expect(lanes.room('o-1', 's-2')).toBe(PER_SUBSCRIPTION);
  });

  it("gives an owner at most PER_OWNER places across its subscriptions, and leaves other owners' room alone", () => {
    const lanes = new Lanes(100);
    for (let i = 0; lanes.room('o-1', `s-${i}`) > 0; i++) lanes.hold('o-1', `s-${i}`, lanes.room('o-1', `s-${i}`));
    expect(lanes.total).toBe(PER_OWNER);
    expect(lanes.room('o-1', 's-new')).toBe(0);
    expect(lanes.room('o-2', 's-other')).toBe(PER_SUBSCRIPTION);
  });

  it('never gives more than its concurrency in all', () => {
    const lanes = new Lanes(3);
    lanes.hold('o-1', 's-1', 2);
    expect(lanes.room('o-2', 's-2')).toBe(1);
    lanes.hold('o-2', 's-2');
    expect(lanes.room('o-3', 's-3')).toBe(0);
  });

  it('gives the places back on release, and forgets a subscription with none', () => {
    const lanes = new Lanes(100);
    lanes.hold('o-1', 's-1', 2);
    lanes.release('o-1', 's-1');
    expect(lanes.room('o-1', 's-1')).toBe(PER_SUBSCRIPTION - 1);
    lanes.release('o-1', 's-1');
    expect(lanes.total).toBe(0);
    expect(lanes.room('o-1', 's-1')).toBe(PER_SUBSCRIPTION);
  });

  it('keeps room within every cap, and total equal to what is held, over any holds and releases', () => {
    const step = fc.record({
      owner: fc.constantFrom('o-1', 'o-2', 'o-3'),
      subscription: fc.constantFrom('s-1', 's-2', 's-3', 's-4'),
      hold: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(step, { maxLength: 60 }), (concurrency, steps) => {
        const lanes = new Lanes(concurrency);
        const held = new Map<string, { owner: string; subscription: string; n: number }>();
        for (const { owner, subscription, hold } of steps) {
          // A subscription belongs to one owner, as in the store.
          const key = `${owner}/${subscription}`;
          const current = held.get(key)?.n ?? 0;
          if (hold && lanes.room(owner, subscription) > 0) {
            lanes.hold(owner, subscription);
            held.set(key, { owner, subscription, n: current + 1 });
          } else if (!hold && current > 0) {
            lanes.release(owner, subscription);
            held.set(key, { owner, subscription, n: current - 1 });
          }
          const all = [...held.values()];
          const total = all.reduce((sum, h) => sum + h.n, 0);
          expect(lanes.total).toBe(total);
          expect(total).toBeLessThanOrEqual(concurrency);
          for (const h of all) {
            expect(h.n).toBeLessThanOrEqual(PER_SUBSCRIPTION);
            const owned = all.filter((o) => o.owner === h.owner).reduce((sum, o) => sum + o.n, 0);
            expect(owned).toBeLessThanOrEqual(PER_OWNER);
          }
        }
      }),
    );
  });
});

const queue = (ownerId: string, subscriptionId: string, nextDue = '2026-01-01T00:00:00Z'): ReadyQueue => ({
  ownerId,
  subscriptionId,
  nextDue,
  writes: 1,
  shard: 0,
});

describe('roundRobin', () => {
  it("takes owners in turn, each owner's queues in the order given", () => {
    const order = roundRobin([
      queue('busy', 'b-1'),
      queue('busy', 'b-2'),
      queue('busy', 'b-3'),
      queue('quiet', 'q-1'),
      queue('other', 'x-1'),
      queue('other', 'x-2'),
    ]);
    expect(order.map((q) => q.subscriptionId)).toEqual(['b-1', 'q-1', 'x-1', 'b-2', 'x-2', 'b-3']);
  });

  it('returns every queue once, and nothing for no queues', () => {
    expect(roundRobin([])).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(fc.record({ owner: fc.constantFrom('a', 'b', 'c'), id: fc.uuid() }), { maxLength: 30 }),
        (specs) => {
          const queues = specs.map((s) => queue(s.owner, s.id));
          const order = roundRobin(queues);
          expect(order).toHaveLength(queues.length);
          expect(new Set(order)).toEqual(new Set(queues));
          // Within the first round every owner present appears before any owner's second queue.
          const owners = new Set(queues.map((q) => q.ownerId));
          expect(new Set(order.slice(0, owners.size).map((q) => q.ownerId))).toEqual(owners);
        },
      ),
    );
  });
});
