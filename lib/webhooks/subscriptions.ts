import { randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { ConflictError, clip, NotFoundError, TooManyRequestsError } from '../errors';
import { parseThreadQuery } from '../filter/page-query';
import type { Person } from '../model/action';
import { eventTypeOf } from '../model/history';
import { type Delivery, getDelivery, listDeliveries } from '../store/webhooks/deliveries';
import { countManualAttempt } from '../store/webhooks/manual-attempts';
import {
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  type Subscription,
  updateSubscription,
} from '../store/webhooks/subscriptions';
import { newDelivery, requestAttempt } from './intake';

/**
 * Webhook subscriptions (contract section 9): any signed-in caller may have up to 25, each
 * private to its owner (to anyone else it does not exist). Their deliveries begin in
 * `./intake.ts`.
 */

export const MAX_SUBSCRIPTIONS = 25;
export const webhookLimits = { url: 2_000, description: 200 } as const;

/** The reminders of section 10, accepted now so subscriptions can name them before they are published. */
const REMINDER_EVENTS = ['ActionDueSoon', 'ActionOverdue', 'ActionEscalated'];

/** Every event type a subscription may name: the published types of sections 7, 8 and 10. */
export const webhookEventTypes: readonly string[] = [...new Set([...Object.values(eventTypeOf), ...REMINDER_EVENTS])];

/** The one delivery `POST .../ping` makes; it goes to its endpoint alone, whatever it names. */
const PING = 'WebhookPing';

/** A subscription as its owner sees it: what is stored, without the secrets and the health fields. */
export type WebhookView = Pick<
  Subscription,
  'id' | 'url' | 'events' | 'description' | 'enabled' | 'disabledReason' | 'createdAt' | 'owner'
>;

/** What a client sees of a subscription: never a secret. */
export const toView = (s: Subscription): WebhookView => ({
  id: s.id,
  url: s.url,
  events: s.events,
  description: s.description,
  enabled: s.enabled,
  ...(s.disabledReason ? { disabledReason: s.disabledReason } : {}),
  createdAt: s.createdAt,
  owner: s.owner,
});

/** `whsec_` + base64 of 32 random bytes, as Standard Webhooks' libraries expect. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const noSuchWebhook = (id: string) =>
  new NotFoundError(`You have no webhook subscription with the id '${clip(id)}'.`);

export async function ownSubscription(caller: Person, id: string): Promise<Subscription> {
  const subscription = await getSubscription(caller.id, id);
  if (!subscription) throw noSuchWebhook(id);
  return subscription;
}

export async function listWebhooks(caller: Person): Promise<{ webhooks: WebhookView[] }> {
  return { webhooks: (await listSubscriptions(caller.id)).map(toView) };
}

export async function getWebhook(caller: Person, id: string): Promise<WebhookView> {
  return toView(await ownSubscription(caller, id));
}

export async function deleteWebhook(caller: Person, id: string): Promise<void> {
  if (!(await deleteSubscription(caller.id, id))) throw noSuchWebhook(id);
}

/** How long the old secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** A new secret; the one it replaces signs too for the next 24 hours. */
export async function rotateSecret(caller: Person, id: string): Promise<{ secret: string }> {
  const current = await ownSubscription(caller, id);
  const secret = newSecret();
  const updated = await updateSubscription(caller.id, id, {
    secret,
    previousSecret: current.secret,
    previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString(),
    updatedAt: new Date().toISOString(),
  });
  if (!updated) throw noSuchWebhook(id);
  return { secret };
}

/**
 * Redeliveries and pings one subscription may ask for in a window (contract section 9). Fewer than
 * its lane drains from a receiver that hangs (2 attempts at a time, 10 seconds each: 120 in 10
 * minutes), so what an owner asks for never piles up faster than it leaves.
 */
export const manualAttempts = { count: 30, windowSeconds: 600 } as const;

/** Counts one redelivery or ping of the subscription; a 429 past the bound, saying when to retry. */
async function countManual(caller: Person, id: string): Promise<void> {
  const counted = await countManualAttempt(caller.id, id, manualAttempts.windowSeconds, (recent, now) => {
    if (recent.length < manualAttempts.count) return;
    const oldest = recent[recent.length - manualAttempts.count] as number;
    throw new TooManyRequestsError(
      `This subscription has had ${manualAttempts.count} redeliveries and pings in the last ${manualAttempts.windowSeconds / 60} minutes, the most allowed; try again later.`,
      oldest + manualAttempts.windowSeconds - now,
    );
  });
  if (!counted) {
    throw new TooManyRequestsError('Too many redeliveries and pings of this subscription at once; try again.', 1);
  }
}

/** One `WebhookPing` delivery to this endpoint alone; it leaves with the next sweep. */
export async function ping(caller: Person, id: string): Promise<{ deliveryId: string }> {
  const subscription = await ownSubscription(caller, id);
  if (!subscription.enabled) throw new ConflictError('This subscription is disabled; enable it before pinging it.');
  await countManual(caller, id);
  const time = new Date().toISOString();
  const deliveryId = uuidv7();
  await newDelivery(
    caller.id,
    id,
    { id: randomUUID(), detailType: PING, time, detail: { webhookId: id, url: subscription.url, time } },
    deliveryId,
    { claimed: false },
  );
  return { deliveryId };
}

const deliveryView = (d: Delivery) => ({
  id: d.id,
  eventId: d.eventId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  ...(d.nextAttemptAt && d.status === 'pending' ? { nextAttemptAt: d.nextAttemptAt } : {}),
});

/** The subscription's deliveries of the last 30 days, newest first. */
export async function listWebhookDeliveries(caller: Person, id: string, rawQuery: string) {
  const query = parseThreadQuery(rawQuery);
  await ownSubscription(caller, id);
  const page = await listDeliveries(id, { ...query, reader: caller.id });
  return { deliveries: page.items.map(deliveryView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** A new attempt of a delivery now, with the same `webhook-id`. */
export async function redeliver(caller: Person, id: string, deliveryId: string): Promise<void> {
  const subscription = await ownSubscription(caller, id);
  const delivery = await getDelivery(id, deliveryId);
  if (!delivery) throw new NotFoundError(`This webhook has no delivery with the id '${clip(deliveryId)}'.`);
  if (!subscription.enabled) throw new ConflictError('This subscription is disabled; enable it before redelivering.');
  await countManual(caller, id);
  await requestAttempt(delivery);
}
