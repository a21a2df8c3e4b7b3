import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { settleAll } from '../flow/fan-out';
import { canBeKey, send, sendConditional, tableName } from './client';
import type { Item } from './item';
import { queryInput } from './query/key-query';
import { queryAll } from './query/pager';
import { attr } from './table';

/**
 * What telling people (contract section 16) keeps, in partitions of its own beside the actions:
 * - `np#<person>` / `P`: a person's preferences and their unsubscribe token;
 * - `nr` / `<person>`: the roster of people who take a daily digest, with the local day of
 *   their last one, so the schedule reads one partition to find whose hour has come;
 * - `nd#<person>` / `<time>#<event id>`: what waits for their next digest (expiring after a week);
 * - `nx#<person>` / `<event id>`: that an event was sent to them, so a redelivery sends nothing
 *   (expiring after a week, longer than any redelivery);
 * - `ns#<address>` / `S`: an address SES reported a bounce or complaint for, and when.
 * DynamoDB's TTL deletes late: every read here treats an expired item as absent.
 */

const key = (id: string, sk: string) => ({ [attr.id]: id, [attr.sortKey]: sk });
// Attribute names here are long words on purpose: the short ones of `attr` are index keys
// (`st` is the status index's number), and an item of this file must never enter an index.
const nowSeconds = () => Math.floor(Date.now() / 1000);
const WEEK_SECONDS = 7 * 86_400;
const live = (item: Item | undefined) =>
  item !== undefined && (item[attr.expiresAt] === undefined || Number(item[attr.expiresAt]) > nowSeconds());

const ROSTER = 'nr';

// ---- Preferences ----

export interface StoredPreferences {
  /** As the notifications capability checked them; the store keeps them as JSON. */
  preferences: object;
  unsubscribeToken?: string;
}

/** A person's stored preferences, `undefined` when they never set any. */
export async function readPreferences(personId: string): Promise<StoredPreferences | undefined> {
  if (!canBeKey(`np#${personId}`)) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: key(`np#${personId}`, 'P'), ConsistentRead: true }),
  );
  if (!item) return undefined;
  return {
    preferences: JSON.parse(String(item.prefs ?? '{}')),
    ...(typeof item.unsub === 'string' ? { unsubscribeToken: item.unsub } : {}),
  };
}

/**
 * Stores a person's preferences (and their unsubscribe token, made once), and keeps the digest
 * roster in step: on it while they take a daily digest, with the time zone and hour it is due at.
 */
export async function writePreferences(
  personId: string,
  stored: StoredPreferences,
  daily: { timeZone: string; digestHour: number } | undefined,
): Promise<void> {
  await send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key(`np#${personId}`, 'P'),
        prefs: JSON.stringify(stored.preferences),
        ...(stored.unsubscribeToken ? { unsub: stored.unsubscribeToken } : {}),
      },
    }),
  );
  if (daily) {
    await send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(ROSTER, personId),
        UpdateExpression: 'SET tz = :tz, hr = :hr',
        ExpressionAttributeValues: { ':tz': daily.timeZone, ':hr': daily.digestHour },
      }),
    );
  } else {
    await send(new DeleteCommand({ TableName: tableName(), Key: key(ROSTER, personId) }));
  }
}

// ---- The digest ----

export interface RosterEntry {
  personId: string;
  timeZone: string;
  digestHour: number;
  /** The local day of the last digest sent. */
  lastDay?: string;
}

/** Everyone who takes a daily digest (one partition; a page at a time). */
export async function digestRoster(): Promise<RosterEntry[]> {
  const items = await queryAll(queryInput({ partition: ROSTER }));
  return items.map((item) => ({
    personId: String(item[attr.sortKey]),
    timeZone: String(item.tz),
    digestHour: Number(item.hr),
    ...(typeof item.day === 'string' ? { lastDay: item.day } : {}),
  }));
}

/**
 * Marks a person's digest for `day` as theirs to send: `false` when another run took that day
 * first (or they left the roster), so two overlapping schedules send one digest.
 */
export async function claimDigestDay(personId: string, day: string): Promise<boolean> {
  return sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(ROSTER, personId),
      UpdateExpression: 'SET #day = :day',
      ConditionExpression: 'attribute_exists(#id) AND (attribute_not_exists(#day) OR #day <> :day)',
      ExpressionAttributeNames: { '#day': 'day', '#id': attr.id },
      ExpressionAttributeValues: { ':day': day },
    }),
  );
}

/** Gives a claimed day back (the digest could not be sent), so the next run tries again. */
export async function releaseDigestDay(personId: string, day: string, lastDay: string | undefined): Promise<void> {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(ROSTER, personId),
      UpdateExpression: lastDay ? 'SET #day = :last' : 'REMOVE #day',
      ConditionExpression: '#day = :day',
      ExpressionAttributeNames: { '#day': 'day' },
      ExpressionAttributeValues: { ':day': day, ...(lastDay ? { ':last': lastDay } : {}) },
    }),
  );
}

/** Keeps one happening for a person's next digest (again for the same event changes nothing). */
export async function keepForDigest(personId: string, eventId: string, time: string, happening: unknown) {
  await send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key(`nd#${personId}`, `${time}#${eventId}`),
        h: JSON.stringify(happening),
        [attr.expiresAt]: nowSeconds() + WEEK_SECONDS,
      },
    }),
  );
}

/** What waits for a person's digest, oldest first, with the keys to remove once it is sent. */
export async function waitingForDigest(personId: string): Promise<Array<{ key: string; happening: unknown }>> {
  const items = await queryAll(queryInput({ partition: `nd#${personId}` }));
  return items.filter(live).map((item) => ({ key: String(item[attr.sortKey]), happening: JSON.parse(String(item.h)) }));
}

/** Removes what a sent digest told. */
export async function forgetDigested(personId: string, keys: readonly string[]): Promise<void> {
  await settleAll(
    keys.map((sk) => send(new DeleteCommand({ TableName: tableName(), Key: key(`nd#${personId}`, sk) }))),
  );
}

// ---- Once per person per event ----

/** How long a claim to send holds before a retry may take it over (its sender died). */
const CLAIM_LEASE_SECONDS = 300;

/**
 * Claims sending event `eventId` to a person: `false` when it was sent already or another
 * sender holds a claim that has not run out. An expired record counts as absent.
 */
export async function claimSend(personId: string, eventId: string, token: string): Promise<boolean> {
  const now = nowSeconds();
  return sendConditional(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key(`nx#${personId}`, eventId),
        sendState: 'claimed',
        tok: token,
        lease: now + CLAIM_LEASE_SECONDS,
        [attr.expiresAt]: now + WEEK_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(#id) OR #ttl <= :now OR (sendState = :claimed AND #lease <= :now)',
      ExpressionAttributeNames: { '#id': attr.id, '#ttl': attr.expiresAt, '#lease': 'lease' },
      ExpressionAttributeValues: { ':now': now, ':claimed': 'claimed' },
    }),
  );
}

/** Records the claimed event as sent: no later delivery of it sends again. */
export async function markSent(personId: string, eventId: string, token: string): Promise<void> {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(`nx#${personId}`, eventId),
      UpdateExpression: 'SET sendState = :sent REMOVE lease',
      ConditionExpression: 'tok = :tok',
      ExpressionAttributeValues: { ':sent': 'sent', ':tok': token },
    }),
  );
}

/** Gives a claim back (the send failed), so the event's next delivery tries again at once. */
export async function releaseSend(personId: string, eventId: string, token: string): Promise<void> {
  await sendConditional(
    new DeleteCommand({
      TableName: tableName(),
      Key: key(`nx#${personId}`, eventId),
      ConditionExpression: 'tok = :tok AND sendState = :claimed',
      ExpressionAttributeValues: { ':tok': token, ':claimed': 'claimed' },
    }),
  );
}

// ---- Bounces and complaints ----

/** Records that SES reported a bounce or complaint for an address (the latest one counts). */
export async function suppressAddress(address: string, at: string, reason: string): Promise<void> {
  const id = `ns#${address.toLowerCase()}`;
  if (!canBeKey(id)) return;
  await send(new PutCommand({ TableName: tableName(), Item: { ...key(id, 'S'), at, reason } }));
}

/** When an address was last reported as bouncing or complaining, if ever. */
export async function suppressedSince(address: string): Promise<string | undefined> {
  const id = `ns#${address.toLowerCase()}`;
  if (!canBeKey(id)) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: key(id, 'S'), ConsistentRead: true }),
  );
  return typeof item?.at === 'string' ? item.at : undefined;
}
