import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cursorKey, encodeCursor } from '../../cursor';
import { canBeKey, send, sendConditional, tableName } from '../client';
import type { Item } from '../item';
import { queryInput } from '../query/key-query';
import { queryPage } from '../query/pager';
import { attr, webhookKeys } from '../table';

/**
 * A subscription's deliveries (`wd#<subscription id>`, see `webhookKeys`), each with the attempts
 * made for it, newest first; they age out with their TTL.
 */

export interface Attempt {
  at: string;
  durationMs: number;
  responseStatus?: number;
  error?: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface Delivery {
  id: string;
  subscriptionId: string;
  ownerId: string;
  eventId: string;
  type: string;
  /** The exact body every attempt sends. */
  payload: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  nextAttemptAt?: string;
  /** Scheduled attempts made so far (redeliveries not counted): where the retry schedule stands. */
  tries: number;
  createdAt: string;
  /** Epoch seconds: gone (to reads at once, to DynamoDB's TTL eventually) after this. */
  expiresAt: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Where a delivery is stored: in its subscription's log, by its time-ordered id. */
export const deliveryKey = (subscriptionId: string, deliveryId: string) => ({
  [attr.id]: webhookKeys.deliveries(subscriptionId),
  [attr.sortKey]: webhookKeys.delivery(deliveryId),
});

/** A stored delivery as the delivery code sees it. */
export function deliveryFrom(item: Item): Delivery {
  return {
    id: (item[attr.sortKey] as string).slice(webhookKeys.deliveryPrefix.length),
    subscriptionId: (item[attr.id] as string).slice(webhookKeys.deliveries('').length),
    ownerId: item.ownerId as string,
    eventId: item.eventId as string,
    type: item.type as string,
    payload: item.payload as string,
    status: item.status as DeliveryStatus,
    attempts: (item.attempts as Attempt[]) ?? [],
    ...(item.nextAttemptAt ? { nextAttemptAt: item.nextAttemptAt as string } : {}),
    tries: (item.tries as number) ?? 0,
    createdAt: item.createdAt as string,
    expiresAt: item[attr.expiresAt] as number,
  };
}

/** Whether a delivery is still there to reads: present and not past its TTL. */
export const live = (item: Item | undefined): item is Item =>
  item !== undefined && !((item[attr.expiresAt] as number) < nowSeconds());

/** A delivery as stored: its ids in its key, its expiry in the TTL attribute. */
export function deliveryItem(delivery: Delivery): Item {
  const { id, subscriptionId, expiresAt, ...fields } = delivery;
  return { ...deliveryKey(subscriptionId, id), ...fields, [attr.expiresAt]: expiresAt };
}

/** Stores a new delivery; `false` when it is already there (the same event accepted twice). */
export async function putDelivery(delivery: Delivery): Promise<boolean> {
  return sendConditional(
    new PutCommand({
      TableName: tableName(),
      Item: deliveryItem(delivery),
      ConditionExpression: 'attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#sk': attr.sortKey },
    }),
  );
}

export async function getDelivery(subscriptionId: string, deliveryId: string): Promise<Delivery | undefined> {
  if (!canBeKey(deliveryId) || Buffer.byteLength(deliveryId) > 200) return undefined;
  const result = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: deliveryKey(subscriptionId, deliveryId), ConsistentRead: true }),
  );
  return live(result.Item) ? deliveryFrom(result.Item) : undefined;
}

/** What a delivery log cursor is bound to: one subscription's log, and the caller it was given to. */
const logBinding = (subscriptionId: string, reader: string) => ({
  scope: `deliveries:${subscriptionId}`,
  caller: reader,
});
export const isDeliveryKey = (key: unknown): key is string =>
  typeof key === 'string' && key.startsWith(webhookKeys.deliveryPrefix) && Buffer.byteLength(key) <= 1024;

/** A page of a subscription's deliveries, newest first; expired ones are skipped. */
export async function listDeliveries(
  subscriptionId: string,
  { limit, cursor, reader }: { limit: number; cursor?: string; reader: string },
): Promise<{ items: Delivery[]; nextCursor?: string }> {
  const binding = logBinding(subscriptionId, reader);
  const after = cursor === undefined ? undefined : cursorKey(cursor, binding, isDeliveryKey);
  const result = await queryPage(
    queryInput({
      partition: webhookKeys.deliveries(subscriptionId),
      sort: { op: 'begins_with', prefix: webhookKeys.deliveryPrefix },
      descending: true,
      consistent: true,
      limit,
      ...(after ? { startKey: { ...deliveryKey(subscriptionId, ''), [attr.sortKey]: after } } : {}),
    }),
  );
  const items = result.Items ?? [];
  const last = items[items.length - 1];
  const nextCursor = result.LastEvaluatedKey && last ? encodeCursor(binding, last[attr.sortKey]) : undefined;
  return { items: items.filter(live).map(deliveryFrom), ...(nextCursor ? { nextCursor } : {}) };
}

/** Most attempts a delivery keeps (redeliveries can add any number): the latest ones. */
const MAX_KEPT_ATTEMPTS = 50;

/** Records an attempt and where the delivery stands after it. */
export async function recordAttempt(
  delivery: Pick<Delivery, 'id' | 'subscriptionId' | 'attempts'>,
  attempt: Attempt,
  outcome: { status: DeliveryStatus; nextAttemptAt?: string; scheduled: boolean },
): Promise<void> {
  const attempts = [...delivery.attempts, attempt].slice(-MAX_KEPT_ATTEMPTS);
  // The delivery aged out (or never was): nothing to record it on.
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: deliveryKey(delivery.subscriptionId, delivery.id),
      UpdateExpression: `SET #attempts = :attempts, #status = :status${outcome.nextAttemptAt ? ', #next = :next' : ''}${
        outcome.scheduled ? ', #tries = #tries + :one' : ''
      }${outcome.nextAttemptAt ? '' : ' REMOVE #next'}`,
      ConditionExpression: 'attribute_exists(#sk)',
      ExpressionAttributeNames: {
        '#sk': attr.sortKey,
        '#attempts': 'attempts',
        '#status': 'status',
        '#next': 'nextAttemptAt',
        ...(outcome.scheduled ? { '#tries': 'tries' } : {}),
      },
      ExpressionAttributeValues: {
        ':attempts': attempts,
        ':status': outcome.status,
        ...(outcome.nextAttemptAt ? { ':next': outcome.nextAttemptAt } : {}),
        ...(outcome.scheduled ? { ':one': 1 } : {}),
      },
    }),
  );
}

/** Ends a delivery without an attempt (its subscription is gone or disabled). */
export async function closeDelivery(delivery: Pick<Delivery, 'id' | 'subscriptionId'>): Promise<void> {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: deliveryKey(delivery.subscriptionId, delivery.id),
      UpdateExpression: 'SET #status = :failed REMOVE #next',
      ConditionExpression: 'attribute_exists(#sk) AND #status = :pending',
      ExpressionAttributeNames: { '#sk': attr.sortKey, '#status': 'status', '#next': 'nextAttemptAt' },
      ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending' },
    }),
  );
}
