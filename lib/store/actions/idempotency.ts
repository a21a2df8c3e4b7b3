import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { canBeKey, send, sendConditional, tableName } from '../client';
import type { Item } from '../item';
import { attr, itemKind } from '../table';
import type { GuardedWrite } from './writes';

/**
 * Idempotency keys (contract section 11): one item per caller and key, alone in its partition
 * (`i#<digest>`), expiring through the table's TTL attribute. A request first claims the key with
 * a short lease (`pending`); the create it guards writes the completed record (`done`, with the
 * response) in its own transaction, on condition that the claim is still its own. DynamoDB's TTL
 * deletes late, so every read here treats an expired record as absent.
 */

export interface KeyRecord {
  state: 'pending' | 'done';
  /** What the request was: a digest of its method, path and body. */
  fingerprint: string;
  /** The claim's owner. */
  token: string;
  /** Until when (epoch ms) a pending claim holds. */
  leaseUntil: number;
  /** The response of a done request, as stored. */
  response?: unknown;
}

const KEY_DAYS = 1;
const expiry = (now: number) => Math.floor(now / 1000) + KEY_DAYS * 86_400;

const keyOf = (digest: string) => ({
  [attr.id]: itemKind.idempotencyKey(digest),
  [attr.sortKey]: itemKind.idempotencyRecord,
});

/** The key's record, unless there is none or it has expired. */
export async function readKey(digest: string, now = Date.now()): Promise<KeyRecord | undefined> {
  if (!canBeKey(itemKind.idempotencyKey(digest))) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: keyOf(digest), ConsistentRead: true }),
  );
  if (!item || Number(item[attr.expiresAt]) * 1000 <= now) return undefined;
  return {
    state: item.state as KeyRecord['state'],
    fingerprint: item.fingerprint as string,
    token: item.token as string,
    leaseUntil: Number(item.leaseUntil ?? 0),
    ...(typeof item.response === 'string' ? { response: JSON.parse(item.response) } : {}),
  };
}

/**
 * Claims the key for one request: `true` when the key was free, expired, or held by a pending
 * claim whose lease ran out (its request died); `false` when another request holds or completed it.
 */
export async function claimKey(digest: string, fingerprint: string, token: string, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  return sendConditional(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keyOf(digest),
        state: 'pending',
        fingerprint,
        token,
        leaseUntil: now + leaseMs,
        [attr.expiresAt]: expiry(now),
      },
      ...keyFree(now),
    }),
  );
}

/** The condition under which a key may be taken: free, expired, or a pending claim whose lease ran out. */
const keyFree = (now: number) => ({
  ConditionExpression: 'attribute_not_exists(#id) OR #ttl <= :nowSeconds OR (#state = :pending AND #lease < :now)',
  ExpressionAttributeNames: { '#id': attr.id, '#ttl': attr.expiresAt, '#state': 'state', '#lease': 'leaseUntil' },
  ExpressionAttributeValues: { ':nowSeconds': Math.floor(now / 1000), ':pending': 'pending', ':now': now },
});

/** A key's completed record: the answer a replay of its request gets. */
const doneRecord = (digest: string, fingerprint: string, token: string, response: unknown, now: number) => ({
  ...keyOf(digest),
  state: 'done',
  fingerprint,
  token,
  response: JSON.stringify(response),
  [attr.expiresAt]: expiry(now),
});

/**
 * The completed record without a claim before it, for the create's own transaction: it takes
 * the key on the condition a claim would (free, expired, or a claim whose lease ran out), so the
 * create and its key are one write. `refusal` when the key is taken.
 */
export function takeKey(digest: string, fingerprint: string, response: unknown, refusal: () => Error): GuardedWrite {
  const now = Date.now();
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: doneRecord(digest, fingerprint, randomUUID(), response, now),
        ...keyFree(now),
      },
    },
    refusal,
  };
}

/**
 * The completed record, for the create's own transaction: it replaces this request's claim, and
 * only that (a claim taken over after its lease ran out is refused with `refusal`).
 */
export function completeKey(
  digest: string,
  fingerprint: string,
  token: string,
  response: unknown,
  refusal: () => Error,
): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: doneRecord(digest, fingerprint, token, response, Date.now()),
        ConditionExpression: '#state = :pending AND #token = :token',
        ExpressionAttributeNames: { '#state': 'state', '#token': 'token' },
        ExpressionAttributeValues: { ':pending': 'pending', ':token': token },
      },
    },
    refusal,
  };
}

/**
 * Gives up a claim whose request failed, so the key can be used again at once: its lease ends
 * now (an update, not a delete: only deleteComment's function may delete items).
 */
export async function releaseKey(digest: string, token: string): Promise<void> {
  // Not ours any more (taken over after its lease ran out): nothing to give up.
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(digest),
      UpdateExpression: 'SET #lease = :ended',
      ConditionExpression: '#state = :pending AND #token = :token',
      ExpressionAttributeNames: { '#state': 'state', '#token': 'token', '#lease': 'leaseUntil' },
      ExpressionAttributeValues: { ':pending': 'pending', ':token': token, ':ended': 0 },
    }),
  );
}
