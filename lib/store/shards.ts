import { createHash } from 'node:crypto';

/**
 * Where a key is spread: every shard and slice of the key layout, chosen here and nowhere else.
 *
 * Two hashes, on purpose. Ids (actions, subscriptions) are spread by FNV-1a (32 bits), cheap and
 * even over UUIDs; the smaller shard counts fold the 16 action shards (each divides 16, so
 * `shardOf(id) % 4` is the hash's own `% 4`). A shared counter's values (a whole location's
 * counter: long, user-chosen text) are spread by SHA-256's first byte (`sliceOf`). Both are in
 * stored keys: changing either hash, or a count, would put new items where no read looks and
 * orphan the old ones, so each keeps its exact output (test/unit/store/shards.test.ts holds
 * known answers) and a change is a key version with an upgrade (`KEY_VERSION`).
 */

/** FNV-1a, 32 bits, over UTF-16 code units: the hash of ids, and of the postings' digests (`search/prove.ts`). */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * The indexes that hold every action (`all-by-*`) are spread over this many partitions, `A#0`
 * to `A#15`, chosen from the id; so are the counters. No single partition takes every write,
 * and a list merges the shards in order (see `lib/store/list/run/merge.ts`).
 */
export const SHARDS = 16;

/** The shard of an action (and of its counters' items): a stable hash of its id. */
export const shardOf = (id: string): number => fnv1a32(id) % SHARDS;

/**
 * The sweep's queue (`reminders-by-due`) is spread over this many partitions per reminder level:
 * fewer than the all-actions indexes, as a list by due time merges two levels and these take far
 * fewer writes.
 */
export const REMINDER_SHARDS = 4;

/** The reminder queue shard of an action. */
export const reminderShardOf = (id: string): number => shardOf(id) % REMINDER_SHARDS;

/**
 * Day counters (`counters/days.ts`) are spread over four shards, not sixteen: a range read reads
 * every shard of every day in it, so four make a year of days about 1,500 small items (15 read
 * units), where sixteen would make it 60.
 */
export const DAY_SHARDS = 4;

/** The shard of an action's day items. */
export const dayShardOf = (id: string): number => shardOf(id) % DAY_SHARDS;

/**
 * Search's pending marks (`search/keys.ts`) are spread over this many partitions: few, because
 * every search reads all of them; enough that creates at a few thousand a second stay under one
 * partition's 1,000 writes a second.
 */
export const PENDING_SHARDS = 4;

/** The pending-mark shard of an action. */
export const pendingShardOf = (id: string): number => shardOf(id) % PENDING_SHARDS;

/** Webhook ready markers (`webhooks/due-queue.ts`) are spread over this many partitions (each takes 1,000 writes a second). */
export const READY_SHARDS = 4;

/**
 * The ready partition a subscription's queue is listed in. Markers an earlier version stored
 * where its own hash (x31) put them need no move: the sweep reads every ready partition and
 * settles each marker in the partition it was read from (see `due-queue.ts`).
 */
export const shardOfSubscription = (subscriptionId: string): number => shardOf(subscriptionId) % READY_SHARDS;

/** How many partitions a shared counter's values are spread over (DynamoDB's write limit is a partition's). */
export const MEMBER_PARTITIONS = 16;

/** The slice a value of a shared counter is kept in: a digest's first byte, so values of any text spread evenly. */
export const sliceOf = (value: string): number =>
  (createHash('sha256').update(value).digest()[0] as number) % MEMBER_PARTITIONS;
