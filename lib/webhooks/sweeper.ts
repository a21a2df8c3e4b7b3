import { errorFields, logger } from '../logger';
import { dueBy, type ReadyQueue, readyQueues, type StoredDue, settleQueue } from '../store/webhooks/due-queue';
import { Lanes, roundRobin } from './lanes';
import { claim, requeueOrLeave, runClaimed } from './run';

/** How long a claimed attempt may wait for its lane in memory: well inside its lease. */
const WAIT_IN_LANE_MS = 30_000;

export interface Sweeper {
  /**
   * Runs claimed first attempts beside the swept ones, in the same lanes; those whose lane is full
   * wait in memory for room, and go back to their queues after `WAIT_IN_LANE_MS`.
   */
  run(claims: readonly StoredDue[]): void;
  /** Stops sweeping and waits for the attempts under way. */
  stop(): Promise<void>;
  /** Resolves when the sweeper has stopped by itself (`until`) or been stopped. */
  done: Promise<void>;
}

/**
 * Every `intervalMs`, takes the attempts due from every queue that has some, as many from each as
 * its lane has room for, and runs them, at most `concurrency` at once (an attempt takes up to 10
 * seconds). Stops at `until` (epoch ms), or when stopped, after the attempts under way have
 * finished.
 */
export function startSweeper(options: { intervalMs?: number; concurrency?: number; until?: number } = {}): Sweeper {
  const intervalMs = options.intervalMs ?? 1000;
  const lanes = new Lanes(options.concurrency ?? 50);
  const running = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;

  /**
   * Claimed first attempts whose lane is full, by subscription, oldest first: they start as soon
   * as their lane has room (no store writes meanwhile); one that waited `WAIT_IN_LANE_MS` goes back
   * to its queue before its lease could run out.
   */
  const waiting = new Map<string, Array<{ lease: StoredDue; since: number }>>();

  const runWaiting = () => {
    for (const [subscriptionId, queue] of waiting) {
      for (;;) {
        const next = queue[0];
        if (!next) break;
        if (Date.now() - next.since > WAIT_IN_LANE_MS) {
          queue.shift();
          void requeueOrLeave(next.lease);
        } else if (lanes.room(next.lease.ownerId, subscriptionId) > 0) {
          queue.shift();
          lanes.hold(next.lease.ownerId, subscriptionId);
          start(next.lease);
        } else break;
      }
      if (queue.length === 0) waiting.delete(subscriptionId);
    }
  };

  /** Runs a claim whose place is already held. */
  const start = (lease: StoredDue) => {
    const task = runClaimed(lease).finally(() => {
      lanes.release(lease.ownerId, lease.subscriptionId);
      running.delete(task);
      runWaiting();
    });
    running.add(task);
  };

  const takeFrom = async (queue: ReadyQueue, places: number, now: string) => {
    let started = 0;
    try {
      for (const item of await dueBy(queue.subscriptionId, now, places)) {
        const lease = await claim(item);
        if (!lease) continue;
        started++;
        start(lease);
      }
      await settleQueue(queue);
    } finally {
      lanes.release(queue.ownerId, queue.subscriptionId, places - started);
    }
  };

  const sweep = async () => {
    const now = new Date().toISOString();
    const taking: Array<Promise<void>> = [];
    for (const queue of roundRobin(await readyQueues(now))) {
      const places = lanes.room(queue.ownerId, queue.subscriptionId);
      if (places === 0) continue;
      lanes.hold(queue.ownerId, queue.subscriptionId, places);
      taking.push(takeFrom(queue, places, now));
    }
    await Promise.all(taking);
  };

  const loop = (async () => {
    while (!stopped && (options.until === undefined || Date.now() < options.until)) {
      runWaiting();
      if (lanes.total < lanes.concurrency) {
        try {
          await sweep();
        } catch (error) {
          logger.error('webhook sweep failed; it runs again shortly', errorFields(error));
        }
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs);
      });
    }
    // What still waits goes back to its queue, for whoever sweeps next.
    const left = [...waiting.values()].flat();
    waiting.clear();
    await Promise.all([...left.map((w) => requeueOrLeave(w.lease)), ...running]);
  })();

  return {
    run: (claims) => {
      for (const lease of claims) {
        if (lanes.room(lease.ownerId, lease.subscriptionId) > 0) {
          lanes.hold(lease.ownerId, lease.subscriptionId);
          start(lease);
        } else {
          const queue = waiting.get(lease.subscriptionId) ?? [];
          queue.push({ lease, since: Date.now() });
          waiting.set(lease.subscriptionId, queue);
        }
      }
    },
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
    done: loop,
  };
}
