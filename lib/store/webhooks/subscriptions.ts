import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../errors';
import type { Person } from '../../model/action';
import { canBeKey, send, sendIf, TransactionCancelled, tableName, transact } from '../client';
import { indexes } from '../indexes';
import type { Item } from '../item';
import { queryInput } from '../query/key-query';
import { queryAll, queryPage } from '../query/pager';
import { attr, webhookKeys } from '../table';

/**
 * Webhook subscriptions, in their owner's partition (`wh#<owner id>`, see `webhookKeys`) with the
 * count that caps them, and the sparse index of the enabled ones. The delivery code
 * (`lib/webhooks/`) sees subscriptions, never a key.
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

/** Where a subscription is stored: in its owner's partition, beside the count that caps them. */
export const subscriptionKey = (ownerId: string, id: string) => ({
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

/** A subscription as stored; an enabled one also carries the key of the enabled-subscriptions index. */
export function subscriptionItem(subscription: Subscription): Item {
  const { id, owner, ...fields } = subscription;
  return {
    ...subscriptionKey(owner.id, id),
    owner,
    ...fields,
    ...(subscription.enabled ? { [attr.webhooksEnabledKey]: webhookKeys.enabled } : {}),
  };
}

/** A stored subscription as the delivery code sees it: its key's id, its own fields, nothing else. */
export function subscriptionFrom(item: Item): Subscription {
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
  const result = await queryPage(
    queryInput({
      partition: webhookKeys.subscriptions(ownerId),
      sort: { op: 'begins_with', prefix: webhookKeys.subscriptionPrefix },
      consistent: true,
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
  const enabled = await queryAll(queryInput({ index: indexes.webhooksEnabled, partition: webhookKeys.enabled }));
  return enabled.map((item) => ({
    ownerId: (item[attr.id] as string).slice(webhookKeys.subscriptions('').length),
    id: (item[attr.sortKey] as string).slice(webhookKeys.subscriptionPrefix.length),
    events: (item.events as string[]) ?? [],
  }));
}
