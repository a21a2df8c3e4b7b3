import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { viewerFor } from '../access/viewer';
import { entriesBehind } from '../actions/event-entries';
import type { PublishedEvent } from '../actions/events';
import { getConfig } from '../config';
import { instantMs } from '../dates';
import { settleAll } from '../flow/fan-out';
import { sawChange } from '../model/access';
import type { RecordedEntry } from '../model/history';
import { type Delivery, putDelivery } from '../store/webhooks/deliveries';
import { type DueAttempt, putDue, removeDue, type StoredDue } from '../store/webhooks/due-queue';
import { enabledSubscriptions } from '../store/webhooks/subscriptions';
import { expiry, inSeconds, LEASE_SECONDS } from './run';
import { payloadOf } from './signing';

/**
 * Where deliveries begin (contract section 9): a published event becomes a delivery for each
 * subscription that should hear of it, a ping one delivery, a redelivery one more attempt. Each
 * is stored with an attempt due before anything is sent, so the run (`./run.ts`) finds it in the
 * table even if whoever accepted it dies first.
 */

/**
 * A delivery's id: time-ordered (UUIDv7 at the event's time, so the log lists newest first) and
 * derived from the subscription and the event, so an event accepted twice (the stream and the
 * queue deliver at least once) makes one delivery, not two.
 */
function deliveryIdOf(subscriptionId: string, event: PublishedEvent): string {
  const random = createHash('sha256').update(`${subscriptionId}/${event.id}`).digest().subarray(0, 16);
  const msecs = instantMs(event.time);
  return uuidv7({ msecs: Number.isFinite(msecs) ? msecs : Date.now(), random });
}

/**
 * Turns published events into deliveries for every enabled subscription that names their type,
 * each claimed for its first attempt, which the caller runs in lanes (`runInLanes`, or a
 * sweeper's `run`).
 */
export async function acceptEvents(events: readonly PublishedEvent[]): Promise<StoredDue[]> {
  if (events.length === 0) return [];
  const subscriptions = await enabledSubscriptions();
  // Section 14: an event reaches a subscription only when its owner could see the action before or after the change.
  const viewers = new Map(
    getConfig().access === 'scoped'
      ? await settleAll(
          [...new Set(subscriptions.map((s) => s.ownerId))].map(async (id) => [id, await viewerFor(id)] as const),
        )
      : [],
  );
  // Judged as of each change: the sight its history entry recorded (the bus carries only the detail).
  const entries = viewers.size > 0 ? await entriesBehind(events, ['sight']) : new Map<string, RecordedEntry>();
  const work: Array<Promise<StoredDue | undefined>> = [];
  for (const event of events) {
    for (const subscription of subscriptions) {
      if (!subscription.events.includes('*') && !subscription.events.includes(event.detailType)) continue;
      const viewer = viewers.get(subscription.ownerId);
      if (viewer && !sawChange(viewer, entries.get(event.id)?.sight ?? {})) continue;
      work.push(
        newDelivery(subscription.ownerId, subscription.id, event, deliveryIdOf(subscription.id, event), {
          claimed: true,
        }),
      );
    }
  }
  return (await Promise.all(work)).filter((claim): claim is StoredDue => claim !== undefined);
}

/**
 * Stores a delivery and its first attempt due now. `claimed`: the due item is a lease the caller
 * holds and runs at once; otherwise the next sweep takes it. `undefined` when the delivery was
 * already there.
 */
export async function newDelivery(
  ownerId: string,
  subscriptionId: string,
  event: PublishedEvent,
  deliveryId: string = uuidv7(),
  { claimed }: { claimed: boolean },
): Promise<StoredDue | undefined> {
  const due: DueAttempt = { ownerId, subscriptionId, deliveryId, dueAt: new Date().toISOString(), manual: false };
  // A claimed first attempt: its lease is written first, so a crash right after still leaves it due.
  const lease = claimed ? await putDue({ ...due, dueAt: inSeconds(LEASE_SECONDS) }, expiry()) : undefined;
  const created = await putDelivery({
    id: deliveryId,
    subscriptionId,
    ownerId,
    eventId: event.id,
    type: event.detailType,
    payload: payloadOf(event),
    status: 'pending',
    attempts: [],
    nextAttemptAt: due.dueAt,
    tries: 0,
    createdAt: due.dueAt,
    expiresAt: expiry(),
  });
  if (!created) {
    if (lease) await removeDue(lease);
    return undefined;
  }
  return lease ?? (await putDue(due, expiry()));
}

/** Asks for one more attempt of a delivery now (a redelivery); the schedule does not move. */
export async function requestAttempt(delivery: Delivery): Promise<void> {
  await putDue(
    {
      ownerId: delivery.ownerId,
      subscriptionId: delivery.subscriptionId,
      deliveryId: delivery.id,
      dueAt: new Date().toISOString(),
      manual: true,
    },
    expiry(),
  );
}
