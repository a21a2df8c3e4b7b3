import type { ReadyQueue, StoredDue } from '../store/webhooks/due-queue';
import { requeueOrLeave, runClaimed } from './run';

/**
 * Fair to every subscriber (contract section 9): each subscription has its own queue of attempts
 * due, and attempts run in lanes: at most `PER_SUBSCRIPTION` of one subscription and
 * `PER_OWNER` of one owner's subscriptions at once, taken round-robin across owners. A receiver
 * that hangs holds its own lane for 10 seconds an attempt; a pile of redeliveries waits in its
 * own queue; neither takes a slot from anyone else's next sweep.
 */

/** Attempts of one subscription at once: a hanging receiver holds these and nothing more. */
export const PER_SUBSCRIPTION = 2;
/**
 * Attempts of one owner's subscriptions at once: a caller with 25 subscriptions to hanging
 * receivers holds 10 of a sweep's 50 slots, never the rest.
 */
export const PER_OWNER = 10;

/** Who runs what: counts attempts under way by subscription and by owner. */
export class Lanes {
  private readonly bySubscription = new Map<string, number>();
  private readonly byOwner = new Map<string, number>();
  total = 0;

  constructor(readonly concurrency: number) {}

  /** How many more attempts of this subscription may start now. */
  room(ownerId: string, subscriptionId: string): number {
    return Math.max(
      0,
      Math.min(
        PER_SUBSCRIPTION - (this.bySubscription.get(subscriptionId) ?? 0),
        PER_OWNER - (this.byOwner.get(ownerId) ?? 0),
        this.concurrency - this.total,
      ),
    );
  }

  /** Holds `n` places (an attempt under way, or one about to be claimed). */
  hold(ownerId: string, subscriptionId: string, n = 1): void {
    this.bySubscription.set(subscriptionId, (this.bySubscription.get(subscriptionId) ?? 0) + n);
    this.byOwner.set(ownerId, (this.byOwner.get(ownerId) ?? 0) + n);
    this.total += n;
  }

  release(ownerId: string, subscriptionId: string, n = 1): void {
    const left = (map: Map<string, number>, key: string) => {
      const count = (map.get(key) ?? 0) - n;
      if (count > 0) map.set(key, count);
      else map.delete(key);
    };
    left(this.bySubscription, subscriptionId);
    left(this.byOwner, ownerId);
    this.total -= n;
  }
}

/** Queues in turn by owner (each owner's earliest first), so no owner's many queues go first. */
export function roundRobin(queues: readonly ReadyQueue[]): ReadyQueue[] {
  const byOwner = new Map<string, ReadyQueue[]>();
  for (const queue of queues) byOwner.set(queue.ownerId, [...(byOwner.get(queue.ownerId) ?? []), queue]);
  const turns = [...byOwner.values()];
  const order: ReadyQueue[] = [];
  for (let round = 0; order.length < queues.length; round++) {
    for (const turn of turns) if (turn[round]) order.push(turn[round] as ReadyQueue);
  }
  return order;
}

/**
 * Runs claimed first attempts (one batch of queue messages' events) at once, as many of each
 * subscription as its lane allows: the rest go back to their queues, for the sweep. Resolves
 * when those that ran are recorded.
 */
export async function runInLanes(claims: readonly StoredDue[]): Promise<void> {
  const lanes = new Lanes(Number.POSITIVE_INFINITY);
  await Promise.all(
    claims.map((lease) => {
      if (lanes.room(lease.ownerId, lease.subscriptionId) === 0) return requeueOrLeave(lease);
      lanes.hold(lease.ownerId, lease.subscriptionId);
      return runClaimed(lease);
    }),
  );
}
