import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { settleAll } from '../../flow/fan-out';
import { type Sender, send, sendConditional, tableName } from '../client';
import type { Item } from '../item';
import { queryInput } from '../query/key-query';
import { queryAll, queryPage } from '../query/pager';
import { shardOfSubscription } from '../shards';
import { attr, webhookKeys } from '../table';

/**
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

/*
 * The ready partition a subscription's queue is listed in is `shardOfSubscription` (`../shards.ts`).
 * Markers an earlier version stored where its own hash (x31) put them need no move: the sweep
 * reads every ready partition (`readyQueues`) and settles each marker in the partition it was read
 * from (`ReadyQueue.shard`), so such a marker is moved later, and removed once its queue is empty,
 * as any other. Until then a new attempt of its subscription lists the queue again where the hash
 * says: two markers, each guarding the attempts listed through it by its own `writes`, and the
 * sweep's lanes give a subscription listed twice no more places than one listed once.
 */

/** Where a subscription's marker is: a ready partition (its own by default), under the subscription's id. */
export const markerKey = (subscriptionId: string, shard = shardOfSubscription(subscriptionId)) => ({
  [attr.id]: webhookKeys.ready(shard),
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
  /** The ready partition the marker was read from, where `settleQueue` settles it. */
  shard: number;
}

/** Where due attempts are written: the service's table, or the one an upgrade is given. */
export interface DueTable {
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

/** An attempt due as stored: in its subscription's queue, its due time leading the sort key. */
export const dueItem = (due: StoredDue, expiresAt: number): Item => ({
  [attr.id]: webhookKeys.due(due.subscriptionId),
  [attr.sortKey]: due.key,
  ownerId: due.ownerId,
  deliveryId: due.deliveryId,
  manual: due.manual,
  [attr.expiresAt]: expiresAt,
});

export async function storeDue(table: DueTable, due: StoredDue, expiresAt: number, listed: boolean): Promise<void> {
  await table.via(new PutCommand({ TableName: table.name, Item: dueItem(due, expiresAt) }));
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
  const shards = Array.from({ length: webhookKeys.readyShards }, (_, shard) => shard);
  const pages = await settleAll<ReadyQueue[][]>(shards.map((shard) => readyIn(shard, now)));
  return pages.flat().sort((a, b) => a.nextDue.localeCompare(b.nextDue));
}

/** The subscriptions of one ready partition with an attempt due by `now`. */
async function readyIn(shard: number, now: string): Promise<ReadyQueue[]> {
  const ready = queryInput({
    partition: webhookKeys.ready(shard),
    filter: (p) => `${p.name('nextDue')} <= ${p.value(now)}`,
    consistent: true,
  });
  return (await queryAll(ready)).map((item) => ({
    ownerId: item.ownerId as string,
    subscriptionId: item[attr.sortKey] as string,
    nextDue: item.nextDue as string,
    writes: Number(item.writes ?? 0),
    shard,
  }));
}

/** A stored attempt due, read back from its queue (the subscription is the queue's). */
export const dueFrom = (subscriptionId: string, item: Item): StoredDue => ({
  key: item[attr.sortKey] as string,
  dueAt: (item[attr.sortKey] as string).split('#')[0] as string,
  ownerId: item.ownerId as string,
  subscriptionId,
  deliveryId: item.deliveryId as string,
  manual: item.manual === true,
});

/** Up to `limit` of a subscription's attempts due by `now`, in due order. */
export async function dueBy(subscriptionId: string, now: string, limit: number): Promise<StoredDue[]> {
  const page = await queryPage(
    queryInput({
      partition: webhookKeys.due(subscriptionId),
      // `~` sorts after `#`: every key of this millisecond and before.
      sort: { op: '<=', value: `${now}~` },
      consistent: true,
      limit,
    }),
  );
  return (page.Items ?? []).map((item) => dueFrom(subscriptionId, item));
}

/**
 * After a sweep took what it could from a queue: points its marker, in the partition it was read
 * from, at the earliest attempt left (a lease included), or removes it when the queue is empty.
 * Nothing happens when an attempt was queued through it since `queue` was read: the marker then
 * stays due and the next sweep looks again.
 */
export async function settleQueue(queue: ReadyQueue): Promise<void> {
  const page = await queryPage(
    queryInput({ partition: webhookKeys.due(queue.subscriptionId), consistent: true, limit: 1 }),
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
      new DeleteCommand({ TableName: tableName(), Key: markerKey(queue.subscriptionId, queue.shard), ...condition }),
    );
    return;
  }
  const next = dueFrom(queue.subscriptionId, first).dueAt;
  if (next === queue.nextDue) return;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: markerKey(queue.subscriptionId, queue.shard),
      UpdateExpression: 'SET #next = :next',
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#next': 'nextDue' },
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':next': next },
    }),
  );
}
