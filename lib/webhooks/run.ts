import { getConfig } from '../config';
import { instantMs } from '../dates';
import { settleAll } from '../flow/fan-out';
import { errorFields, logger } from '../logger';
import {
  type Attempt,
  closeDelivery,
  type DeliveryStatus,
  getDelivery,
  recordAttempt,
} from '../store/webhooks/deliveries';
import { putDue, removeDue, type StoredDue } from '../store/webhooks/due-queue';
import { getSubscription, type Subscription, updateSubscription } from '../store/webhooks/subscriptions';
import { attempt } from './send';
import { signatures } from './signing';

/**
 * Webhook deliveries (contract section 9): published events become deliveries (`./intake.ts`),
 * deliveries become signed attempts (here), failed attempts become attempts due later, which
 * `./sweeper.ts` takes. Everything that decides what happens next is in the table (a delivery
 * and the attempts due), never only in memory, so a process that dies at any point delays an
 * attempt but loses none.
 *
 * An attempt runs only under a claim: the due item is swapped for a lease (the same item, due
 * `LEASE_SECONDS` later) before the attempt, and the lease is removed once the attempt and what
 * follows it are recorded. Whoever removes the due item holds the claim, so two sweeps never run
 * one attempt twice; a process that dies mid-attempt leaves the lease, which comes due again.
 */

/** Success is a 2xx within this time (contract section 9). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longer than an attempt and its bookkeeping: a lease that comes due means its holder died. */
export const LEASE_SECONDS = 60;
/** How long deliveries, their attempts and the attempts due are kept. */
const KEEP_SECONDS = 30 * 24 * 3600;
/** A subscription whose deliveries have all failed this long is disabled. */
const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

const USER_AGENT = 'action-tracking-webhooks/1.0 (+https://www.standardwebhooks.com)';

/** The time `seconds` from now, as the table stores times. */
export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
/** When what is written now expires (epoch seconds, the table's TTL): `KEEP_SECONDS` from now. */
export const expiry = () => Math.floor(Date.now() / 1000) + KEEP_SECONDS;

/** Runs the attempt a claim stands for, records it, and schedules what follows. Never throws. */
export async function runClaimed(lease: StoredDue): Promise<void> {
  try {
    await run(lease);
  } catch (error) {
    // The lease stays: the attempt comes due again when it runs out.
    logger.error('webhook attempt failed to run; it will be retried', {
      deliveryId: lease.deliveryId,
      ...errorFields(error),
    });
  }
}

async function run(lease: StoredDue): Promise<void> {
  const [subscription, delivery] = await settleAll([
    getSubscription(lease.ownerId, lease.subscriptionId),
    getDelivery(lease.subscriptionId, lease.deliveryId),
  ]);
  if (!delivery || (!lease.manual && delivery.status !== 'pending')) {
    // Aged out, or settled meanwhile (a redelivery succeeded): nothing is due.
    await removeDue(lease);
    return;
  }
  if (!subscription?.enabled) {
    // Deleted or disabled: nothing more is sent to it.
    if (!lease.manual) await closeDelivery(delivery);
    await removeDue(lease);
    return;
  }
  const config = getConfig();
  const timestamp = Math.floor(Date.now() / 1000);
  const at = new Date().toISOString();
  const result = await attempt({
    url: subscription.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures(subscription, delivery.eventId, timestamp, delivery.payload),
    },
    body: delivery.payload,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    allowPrivate: config.webhooksAllowPrivate,
  });
  const record: Attempt = {
    at,
    durationMs: result.durationMs,
    ...(result.responseStatus !== undefined ? { responseStatus: result.responseStatus } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
  const succeeded = result.responseStatus !== undefined && result.responseStatus >= 200 && result.responseStatus < 300;
  const gone = result.responseStatus === 410;

  let status: DeliveryStatus;
  let nextAttemptAt: string | undefined;
  if (succeeded) status = 'succeeded';
  else if (gone) status = 'failed';
  else if (lease.manual) {
    // A failed redelivery leaves the delivery where its schedule had it.
    status = delivery.status;
    nextAttemptAt = delivery.nextAttemptAt;
  } else {
    const pause = config.webhookRetrySeconds[delivery.tries];
    status = pause === undefined ? 'failed' : 'pending';
    nextAttemptAt = pause === undefined ? undefined : inSeconds(pause);
  }
  if (nextAttemptAt && !lease.manual) {
    await putDue({ ...lease, dueAt: nextAttemptAt, manual: false }, expiry());
  }
  await recordAttempt(delivery, record, { status, nextAttemptAt, scheduled: !lease.manual });
  await removeDue(lease);
  await keepHealth(subscription, succeeded, gone);
}

/** Disables a subscription at a 410, or after 5 days of nothing but failures. */
async function keepHealth(subscription: Subscription, succeeded: boolean, gone: boolean): Promise<void> {
  const { owner, id, failingSince } = subscription;
  if (succeeded) {
    if (failingSince) await updateSubscription(owner.id, id, { failingSince: undefined });
    return;
  }
  const now = new Date();
  if (gone) await disable(subscription, 'The endpoint answered 410 Gone.');
  else if (!failingSince) await updateSubscription(owner.id, id, { failingSince: now.toISOString() });
  else if (now.getTime() - instantMs(failingSince) >= DISABLE_AFTER_MS) {
    await disable(subscription, `Every delivery has failed since ${failingSince} (5 days).`);
  }
}

async function disable(subscription: Subscription, reason: string): Promise<void> {
  logger.warn('webhook subscription disabled', { webhookId: subscription.id, reason });
  await updateSubscription(subscription.owner.id, subscription.id, {
    enabled: false,
    disabledReason: reason,
    failingSince: undefined,
    updatedAt: new Date().toISOString(),
  });
}

/** Claims one due attempt: swaps it for a lease; `undefined` when another sweep took it first. */
export async function claim(due: StoredDue): Promise<StoredDue | undefined> {
  // The queue is listed already, and the sweep settles its marker after claiming.
  const lease = await putDue({ ...due, dueAt: inSeconds(LEASE_SECONDS) }, expiry(), { listed: false });
  if (await removeDue(due)) return lease;
  await removeDue(lease);
  return undefined;
}

/** Gives a claimed attempt back to its queue, due now, for a sweep to take when its lane has room. Never throws. */
export async function requeueOrLeave(lease: StoredDue): Promise<void> {
  try {
    await putDue({ ...lease, dueAt: new Date().toISOString() }, expiry());
    await removeDue(lease);
  } catch (error) {
    // The lease stays: the attempt comes due again when it runs out.
    logger.error('webhook attempt could not be queued; its lease brings it back', errorFields(error));
  }
}
