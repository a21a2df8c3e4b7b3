import { randomBytes } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { cursorKey, encodeCursor } from '../cursor';
import { ConflictError } from '../errors';
import type { Person } from '../model/action';
import {
  backoff,
  canBeKey,
  type Sender,
  send,
  sendConditional,
  sendIf,
  TransactionCancelled,
  tableName,
  transact,
} from './client';
import { indexes } from './indexes';
import type { Item } from './item';
import { attr, webhookKeys } from './table';

/**
 * Webhook subscriptions, their deliveries and the attempts due, in the table's own partitions
 * (see `webhookKeys`). The delivery code (`lib/webhooks/`) sees subscriptions, deliveries and due
 * attempts, never a key.
 */

export interface Subscription {
  id: string;
  owner: Person;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabledReason?: string;
  createdAt: string;
  updatedAt: string;
  secret: string;
  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  previousSecret?: string;
  previousSecretUntil?: string;
  /** When the first attempt failed since the last one that succeeded. */
  failingSince?: string;
}

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

/** An attempt due at `dueAt`; `manual` for a redelivery, which never moves the retry schedule. */
export interface DueAttempt {
  ownerId: string;
  subscriptionId: string;
  deliveryId: string;
  dueAt: string;
  manual: boolean;
}

/** A due attempt as stored: where it is in its subscription's queue, so it can be claimed and removed. */
export interface StoredDue extends DueAttempt {
  key: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---- Subscriptions ----

const subscriptionKey = (ownerId: string, id: string) => ({
  [attr.id]: webhookKeys.subscriptions(ownerId),
  [attr.sortKey]: webhookKeys.subscription(id),
});

const SUBSCRIPTION_FIELDS = [
  'url',
  'events',
  'description',
  'enabled',
  'disabledReason',
  'createdAt',
  'updatedAt',
  'secret',
  'previousSecret',
  'previousSecretUntil',
  'failingSince',
] as const;

function subscriptionItem(subscription: Subscription): Item {
  const { id, owner, ...fields } = subscription;
  return {
    ...subscriptionKey(owner.id, id),
    owner,
    ...fields,
    ...(subscription.enabled ? { [attr.webhooksEnabledKey]: webhookKeys.enabled } : {}),
  };
}

function subscriptionFrom(item: Item): Subscription {
  const subscription = {
    id: (item[attr.sortKey] as string).slice(webhookKeys.subscriptionPrefix.length),
    owner: item.owner as Person,
  } as Subscription;
  for (const field of SUBSCRIPTION_FIELDS) {
    if (item[field] !== undefined) (subscription as unknown as Record<string, unknown>)[field] = item[field];
  }
  return subscription;
}

/** Stores a new subscription, unless its owner already has `max` (409). */
export async function putSubscription(subscription: Subscription, max: number): Promise<void> {
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: { [attr.id]: webhookKeys.subscriptions(subscription.owner.id), [attr.sortKey]: webhookKeys.count },
          UpdateExpression: 'SET #n = if_not_exists(#n, :zero) + :one',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
          ExpressionAttributeNames: { '#n': attr.count },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: subscriptionItem(subscription),
          ConditionExpression: 'attribute_not_exists(#sk)',
          ExpressionAttributeNames: { '#sk': attr.sortKey },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(0)) {
      throw new ConflictError(`A caller may have at most ${max} webhook subscriptions; delete one first.`);
    }
    throw error;
  }
}

/** One of the owner's subscriptions; anyone else's is not there. */
export async function getSubscription(ownerId: string, id: string): Promise<Subscription | undefined> {
  if (!canBeKey(webhookKeys.subscriptions(ownerId)) || !canBeKey(id)) return undefined;
  const result = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: subscriptionKey(ownerId, id), ConsistentRead: true }),
  );
  return result.Item ? subscriptionFrom(result.Item) : undefined;
}

/** The owner's subscriptions (at most the cap, so one page), oldest first. */
export async function listSubscriptions(ownerId: string): Promise<Subscription[]> {
  const result = await send<{ Items?: Item[] }>(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: '#id = :id AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#id': attr.id, '#sk': attr.sortKey },
      ExpressionAttributeValues: {
        ':id': webhookKeys.subscriptions(ownerId),
        ':prefix': webhookKeys.subscriptionPrefix,
      },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map(subscriptionFrom).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Sets (or, for `undefined`, removes) fields of a subscription that still exists; returns it as
 * stored after, or `undefined` when it is gone. `enabled` also moves it in or out of the index of
 * enabled subscriptions.
 */
export async function updateSubscription(
  ownerId: string,
  id: string,
  changes: Partial<Omit<Subscription, 'id' | 'owner' | 'createdAt'>>,
): Promise<Subscription | undefined> {
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = { '#sk': attr.sortKey };
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    names[`#${field}`] = field;
    if (value === undefined) remove.push(`#${field}`);
    else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  if (changes.enabled !== undefined) {
    names['#kw'] = attr.webhooksEnabledKey;
    if (changes.enabled) {
      set.push('#kw = :kw');
      values[':kw'] = webhookKeys.enabled;
    } else remove.push('#kw');
  }
  const result = await sendIf<{ Attributes?: Item }>(
    new UpdateCommand({
      TableName: tableName(),
      Key: subscriptionKey(ownerId, id),
      UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : '']
        .join(' ')
        .trim(),
      ConditionExpression: 'attribute_exists(#sk)',
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result.written && result.output.Attributes ? subscriptionFrom(result.output.Attributes) : undefined;
}

/** Deletes a subscription; `false` when there was none. Its deliveries age out with their TTL. */
export async function deleteSubscription(ownerId: string, id: string): Promise<boolean> {
  if (!(await getSubscription(ownerId, id))) return false;
  try {
    await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: subscriptionKey(ownerId, id),
          ConditionExpression: 'attribute_exists(#sk)',
          ExpressionAttributeNames: { '#sk': attr.sortKey },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: { [attr.id]: webhookKeys.subscriptions(ownerId), [attr.sortKey]: webhookKeys.count },
          UpdateExpression: 'SET #n = #n - :one',
          ExpressionAttributeNames: { '#n': attr.count },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(0)) return false;
    throw error;
  }
}

/** Every enabled subscription and the event types it names, from the sparse index. */
export async function enabledSubscriptions(): Promise<Array<{ ownerId: string; id: string; events: string[] }>> {
  const found: Array<{ ownerId: string; id: string; events: string[] }> = [];
  let startKey: Item | undefined;
  do {
    const page = await send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexes.webhooksEnabled.name,
        KeyConditionExpression: '#kw = :kw',
        ExpressionAttributeNames: { '#kw': attr.webhooksEnabledKey },
        ExpressionAttributeValues: { ':kw': webhookKeys.enabled },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      found.push({
        ownerId: (item[attr.id] as string).slice(webhookKeys.subscriptions('').length),
        id: (item[attr.sortKey] as string).slice(webhookKeys.subscriptionPrefix.length),
        events: (item.events as string[]) ?? [],
      });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
}

// ---- Redeliveries and pings asked for ----

/*
 * When a subscription's owner last asked for an attempt (a redelivery or a ping): one small item
 * beside the subscription holding the recent times, as the endorsement toggles keep theirs
 * (`lib/store/actions/toggles.ts`), written under a condition on what was read so two concurrent
 * requests cannot both slip under the bound; it expires (TTL) a window after the last request.
 */

const manualKey = (ownerId: string, subscriptionId: string) => ({
  [attr.id]: webhookKeys.subscriptions(ownerId),
  [attr.sortKey]: webhookKeys.manualAttempts(subscriptionId),
});

/**
 * Counts one attempt asked for now, unless `refuse` throws on the times (epoch seconds, oldest
 * first) asked for in the last `windowSeconds`; asks again when another request wrote them
 * meanwhile. `false` when eight concurrent requests won in turn.
 */
export async function countManualAttempt(
  ownerId: string,
  subscriptionId: string,
  windowSeconds: number,
  refuse: (recent: number[], now: number) => void,
): Promise<boolean> {
  for (let round = 0; round < 8; round++) {
    if (round > 0) await backoff(round);
    const now = Math.floor(Date.now() / 1000);
    const read = await send<{ Item?: Item }>(
      new GetCommand({ TableName: tableName(), Key: manualKey(ownerId, subscriptionId), ConsistentRead: true }),
    );
    const writes = Number(read.Item?.[attr.count] ?? 0);
    const recent = ((read.Item?.times as number[] | undefined) ?? []).filter((t) => t > now - windowSeconds);
    refuse(recent, now);
    const counted = await sendConditional(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...manualKey(ownerId, subscriptionId),
          times: [...recent, now],
          [attr.count]: writes + 1,
          [attr.expiresAt]: now + windowSeconds,
        },
        // The item as read, or none: a request that raced this one makes this one count again.
        ConditionExpression: 'attribute_not_exists(#sk) OR #n = :writes',
        ExpressionAttributeNames: { '#sk': attr.sortKey, '#n': attr.count },
        ExpressionAttributeValues: { ':writes': writes },
      }),
    );
    if (counted) return true;
  }
  return false;
}

// ---- Deliveries ----

const deliveryKey = (subscriptionId: string, deliveryId: string) => ({
  [attr.id]: webhookKeys.deliveries(subscriptionId),
  [attr.sortKey]: webhookKeys.delivery(deliveryId),
});

function deliveryFrom(item: Item): Delivery {
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

const live = (item: Item | undefined): item is Item =>
  item !== undefined && !((item[attr.expiresAt] as number) < nowSeconds());

/** Stores a new delivery; `false` when it is already there (the same event accepted twice). */
export async function putDelivery(delivery: Delivery): Promise<boolean> {
  const { id, subscriptionId, expiresAt, ...fields } = delivery;
  return sendConditional(
    new PutCommand({
      TableName: tableName(),
      Item: { ...deliveryKey(subscriptionId, id), ...fields, [attr.expiresAt]: expiresAt },
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

/** What a delivery log cursor is bound to: one subscription's log. */
const logScope = (subscriptionId: string) => `deliveries:${subscriptionId}`;
const isDeliveryKey = (key: unknown): key is string =>
  typeof key === 'string' && key.startsWith(webhookKeys.deliveryPrefix) && Buffer.byteLength(key) <= 1024;

/** A page of a subscription's deliveries, newest first; expired ones are skipped. */
export async function listDeliveries(
  subscriptionId: string,
  limit: number,
  cursor?: string,
): Promise<{ items: Delivery[]; nextCursor?: string }> {
  const after = cursor === undefined ? undefined : cursorKey(cursor, logScope(subscriptionId), isDeliveryKey);
  const result = await send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: '#id = :id AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#id': attr.id, '#sk': attr.sortKey },
      ExpressionAttributeValues: {
        ':id': webhookKeys.deliveries(subscriptionId),
        ':prefix': webhookKeys.deliveryPrefix,
      },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { ...deliveryKey(subscriptionId, ''), [attr.sortKey]: after } } : {}),
    }),
  );
  const items = result.Items ?? [];
  const last = items[items.length - 1];
  const nextCursor =
    result.LastEvaluatedKey && last ? encodeCursor(logScope(subscriptionId), last[attr.sortKey]) : undefined;
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

// ---- Attempts due ----

/*
 * Each subscription has its own queue (`wq#<subscription>`, sorted by due time), and a marker in
 * one of the ready partitions (`wr#<shard>`) says the queue has something in it and, in
 * `nextDue`, when its earliest attempt is due. A sweep reads the markers due (a few hundred
 * bytes per subscription with work, whatever the size of any queue) and takes from each queue
 * only as many attempts as that subscription may run: a pile in one queue costs the sweep
 * nothing but that queue's own reads.
 *
 * The marker's `nextDue` only ever moves later under a condition on its `writes`, which every
 * new attempt due increments after storing itself: so a sweep that set `nextDue` from what it
 * read cannot hide an attempt stored meanwhile (its update fails, and the marker stays due).
 */

function shardOfSubscription(subscriptionId: string): number {
  let hash = 0;
  for (let i = 0; i < subscriptionId.length; i++) hash = (hash * 31 + subscriptionId.charCodeAt(i)) >>> 0;
  return hash % webhookKeys.readyShards;
}

const markerKey = (subscriptionId: string) => ({
  [attr.id]: webhookKeys.ready(shardOfSubscription(subscriptionId)),
  [attr.sortKey]: subscriptionId,
});

/** A subscription with attempts queued, as its marker says. */
export interface ReadyQueue {
  ownerId: string;
  subscriptionId: string;
  /** When its earliest attempt (or lease) is due. */
  nextDue: string;
  /** How often attempts were queued: what `settleQueue` must still find. */
  writes: number;
}

/** Where due attempts are written: the service's table, or the one an upgrade is given. */
interface DueTable {
  name: string;
  via: Sender;
}

const serviceTable = (): DueTable => ({ name: tableName(), via: send });

/**
 * Stores an attempt due; the nonce keeps two claims of the same moment apart. `listed: false`
 * for a sweep's own lease, whose queue is already listed and settled by that sweep.
 */
export async function putDue(due: DueAttempt, expiresAt: number, { listed = true } = {}): Promise<StoredDue> {
  const key = `${due.dueAt}#${due.deliveryId}#${randomBytes(6).toString('base64url')}`;
  await storeDue(serviceTable(), { ...due, key }, expiresAt, listed);
  return { ...due, key };
}

async function storeDue(table: DueTable, due: StoredDue, expiresAt: number, listed: boolean): Promise<void> {
  await table.via(
    new PutCommand({
      TableName: table.name,
      Item: {
        [attr.id]: webhookKeys.due(due.subscriptionId),
        [attr.sortKey]: due.key,
        ownerId: due.ownerId,
        deliveryId: due.deliveryId,
        manual: due.manual,
        [attr.expiresAt]: expiresAt,
      },
    }),
  );
  if (listed) await listQueue(table, due.ownerId, due.subscriptionId, due.dueAt);
}

/** Marks the subscription's queue as holding an attempt due at `dueAt` (after it is stored). */
async function listQueue(table: DueTable, ownerId: string, subscriptionId: string, dueAt: string): Promise<void> {
  const reply = await table.via<{ Attributes?: Item }>(
    new UpdateCommand({
      TableName: table.name,
      Key: markerKey(subscriptionId),
      UpdateExpression: 'ADD #w :one SET #owner = :owner',
      ExpressionAttributeNames: { '#w': 'writes', '#owner': 'ownerId' },
      ExpressionAttributeValues: { ':one': 1, ':owner': ownerId },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const next = reply.Attributes?.nextDue as string | undefined;
  if (next !== undefined && next <= dueAt) return;
  // Only ever earlier here: a later time is set by the sweep, under its condition.
  await sendConditional(
    new UpdateCommand({
      TableName: table.name,
      Key: markerKey(subscriptionId),
      UpdateExpression: 'SET #next = :due',
      ConditionExpression: 'attribute_not_exists(#next) OR #next > :due',
      ExpressionAttributeNames: { '#next': 'nextDue' },
      ExpressionAttributeValues: { ':due': dueAt },
    }),
    table.via,
  );
}

/**
 * Moves the attempts an earlier version queued in its 4 shared partitions (`wq#0`..`wq#3`) into
 * their subscriptions' queues, marker included, then deletes each old item. Subscription ids are
 * UUIDs, so no subscription's own queue is ever called `wq#0`..`wq#3`. Each keeps its old sort
 * key (due time, delivery, nonce), so a move cut short and run again overwrites rather than
 * duplicates; with nothing left it costs 4 small queries.
 */
export async function moveSharedDueAttempts(documents: DynamoDBDocumentClient, name: string): Promise<void> {
  const table: DueTable = { name, via: <T>(command: object) => documents.send(command as never) as Promise<T> };
  for (let shard = 0; shard < 4; shard++) {
    const partition = `wq#${shard}`;
    let startKey: Item | undefined;
    do {
      const page = await table.via<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: '#id = :id',
          ExpressionAttributeNames: { '#id': attr.id },
          ExpressionAttributeValues: { ':id': partition },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        await storeDue(table, dueFrom(item.subscriptionId as string, item), Number(item[attr.expiresAt]), true);
        await table.via(
          new DeleteCommand({ TableName: name, Key: { [attr.id]: partition, [attr.sortKey]: item[attr.sortKey] } }),
        );
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}

/** Removes a due item; `false` when another sweep took it first. */
export async function removeDue(due: StoredDue): Promise<boolean> {
  return sendConditional(
    new DeleteCommand({
      TableName: tableName(),
      Key: { [attr.id]: webhookKeys.due(due.subscriptionId), [attr.sortKey]: due.key },
      ConditionExpression: 'attribute_exists(#sk)',
      ExpressionAttributeNames: { '#sk': attr.sortKey },
    }),
  );
}

/** The subscriptions with an attempt due by `now`, earliest first (across every ready partition). */
export async function readyQueues(now: string): Promise<ReadyQueue[]> {
  const pages = await Promise.all(
    Array.from({ length: webhookKeys.readyShards }, async (_, shard) => {
      const found: ReadyQueue[] = [];
      let startKey: Item | undefined;
      do {
        const page = await send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: '#id = :id',
            FilterExpression: '#next <= :now',
            ExpressionAttributeNames: { '#id': attr.id, '#next': 'nextDue' },
            ExpressionAttributeValues: { ':id': webhookKeys.ready(shard), ':now': now },
            ConsistentRead: true,
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          found.push({
            ownerId: item.ownerId as string,
            subscriptionId: item[attr.sortKey] as string,
            nextDue: item.nextDue as string,
            writes: Number(item.writes ?? 0),
          });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return found;
    }),
  );
  return pages.flat().sort((a, b) => a.nextDue.localeCompare(b.nextDue));
}

const dueFrom = (subscriptionId: string, item: Item): StoredDue => ({
  key: item[attr.sortKey] as string,
  dueAt: (item[attr.sortKey] as string).split('#')[0] as string,
  ownerId: item.ownerId as string,
  subscriptionId,
  deliveryId: item.deliveryId as string,
  manual: item.manual === true,
});

/** Up to `limit` of a subscription's attempts due by `now`, in due order. */
export async function dueBy(subscriptionId: string, now: string, limit: number): Promise<StoredDue[]> {
  const page = await send<{ Items?: Item[] }>(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: '#id = :id AND #sk <= :now',
      ExpressionAttributeNames: { '#id': attr.id, '#sk': attr.sortKey },
      // `~` sorts after `#`: every key of this millisecond and before.
      ExpressionAttributeValues: { ':id': webhookKeys.due(subscriptionId), ':now': `${now}~` },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (page.Items ?? []).map((item) => dueFrom(subscriptionId, item));
}

/**
 * After a sweep took what it could from a queue: points its marker at the earliest attempt left
 * (a lease included), or removes it when the queue is empty. Nothing happens when an attempt was
 * queued since `queue` was read: the marker then stays due and the next sweep looks again.
 */
export async function settleQueue(queue: ReadyQueue): Promise<void> {
  const page = await send<{ Items?: Item[] }>(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: '#id = :id',
      ExpressionAttributeNames: { '#id': attr.id },
      ExpressionAttributeValues: { ':id': webhookKeys.due(queue.subscriptionId) },
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  const first = page.Items?.[0];
  const condition = {
    ConditionExpression: '#w = :w',
    ExpressionAttributeNames: { '#w': 'writes' } as Record<string, string>,
    ExpressionAttributeValues: { ':w': queue.writes } as Record<string, unknown>,
  };
  // A failed condition: an attempt was stored meanwhile, and the marker stays due.
  if (!first) {
    await sendConditional(
      new DeleteCommand({ TableName: tableName(), Key: markerKey(queue.subscriptionId), ...condition }),
    );
    return;
  }
  const next = dueFrom(queue.subscriptionId, first).dueAt;
  if (next === queue.nextDue) return;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: markerKey(queue.subscriptionId),
      UpdateExpression: 'SET #next = :next',
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#next': 'nextDue' },
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':next': next },
    }),
  );
}
