import type { LocationField } from '../model/action';
import { cutToBytes } from '../text';
import { READY_SHARDS, REMINDER_SHARDS, reminderShardOf, SHARDS } from './shards';

/**
 * The one description of the DynamoDB table: attribute names and key schema (its indexes are
 * `indexes.ts`). The store, the query planner and the CDK construct all read it, so the deployed
 * table and the queries made against it cannot drift apart.
 *
 * Attribute names of filterable values are two or three letters on purpose: DynamoDB charges
 * read units by item size, names included, and the index items that listing reads in bulk
 * hold little else.
 */

/**
 * Top-level stored attribute names. DynamoDB lets all indexes together project at most 100
 * named attributes, so every filterable value lives in one map, `f`, that an index projects
 * as a single attribute; the top-level copies exist only because index keys must be top level.
 */
export const attr = {
  id: 'id',
  /** Marks a deleted action; the item stays as a tombstone so a replayed event cannot recreate it. */
  deletedAt: 'del',
  /** The map of filterable values, keyed by `filterKey`. */
  filters: 'f',
  title: 'title',
  description: 'desc',
  producerUrl: 'pu',
  allowAnonymousEdits: 'anon',
  ownerEmail: 'oe',
  initiator: 'init',
  assigneeEmail: 'ae',
  endorsedBy: 'endorsedBy',
  attachments: 'attachments',
  tags: 'tags',
  comments: 'comments',
  /** Optimistic-concurrency version behind the ETag. */
  version: 'v',
  /** A random token per create call, so a retried create can recognise its own earlier write. */
  createToken: 'ct',
  /** The table's sort key: what kind of item this is within an action's partition (see `itemKind`). */
  sortKey: 'sk',
  /** How many comments the action has; its latest few are kept in `comments`. */
  commentCount: 'cc',
  /** A counter item's value. */
  count: 'n',
  /** A quota window's requests, and index entries read. */
  quotaRequests: 'qr',
  quotaReads: 'qe',
  /** A comment item's own id (the item's `id` is its action's). */
  commentId: 'cid',
  /** A comment item's placement of its action when its text was written (who may read that text in the feed). */
  textPlacement: 'tp',
  /** When an expiring item may go (epoch seconds); the table's TTL attribute. Reads ignore expired items themselves. */
  expiresAt: 'ttl',
  /** An endorsement-toggle item's recent toggle times (epoch seconds), oldest first. */
  toggleTimes: 'tt',
  // Index keys. Sort keys end in "#<createdAt>#<id>" so ties order by creation time, then id, as the API promises.
  everything: 'k',
  createdKey: 'kc',
  dueKey: 'kd',
  updatedKey: 'ku',
  titleKey: 'kt',
  /** `<priority, zero-padded>#<createdAt>#<id>`: priority order, ties by creation time, then id. */
  priorityOrderKey: 'kp',
  /** `<owner name, escaped>\u0001\u0001<createdAt>#<id>` (see `nameKey`): owner-name order, ties by creation time, then id. */
  ownerNameKey: 'ko',
  assigneeNameKey: 'ka',
  /** The lower-case title, top level for the title index to project alone. */
  titleLower: 'ti',
  ownerKey: 'ow',
  assigneeKey: 'as',
  producerKey: 'pn',
  statusKey: 'st',
  priorityKey: 'pr',
  siteKey: 'kls',
  businessUnitKey: 'klb',
  referenceKey: 'kpf',
  /** Which due-date reminders were sent for the current `dueAt`: 0 none, 1 due soon, 2 overdue, 3 escalated. */
  reminded: 'rl',
  /** Earlier `dueAt` values and the reminders sent for each (see `settleReminders`). */
  remindedBefore: 'rb',
  /** `A#<shard>`, only while the action is overdue: the partition of `overdue-by-created`. */
  overdueKey: 'ov',
  /** `R<reminded>#<shard>`, only while the action is open: the partition of `reminders-by-due` (see `reminderPartition`). */
  reminderKey: 'rk',
  /** On an enabled webhook subscription only: the partition of the `webhooks-enabled` index. */
  webhooksEnabledKey: 'kw',
  /** A history entry's partition of the change feed, `F#<shard of its action>`. */
  feedPartition: 'fp',
  /** A history entry's place in the change feed: `<time>#<action id>#<version, padded>`. */
  feedKey: 'fk',
  /** On an action item: the time of its latest history entry, which the next one must pass. */
  lastEntryAt: 'le',
} as const;

/** Keys inside the `f` map. Lower-case copies (`…l`) exist only when a value has upper case. */
export const filterKey = {
  titleLower: 'ti',
  producerName: 'pn',
  producerReference: 'pf',
  businessUnit: 'lb',
  site: 'ls',
  department: 'ld',
  workGroup: 'lw',
  productiveUnit: 'lp',
  team: 'lt',
  crew: 'lc',
  dueAt: 'du',
  priority: 'pr',
  status: 'st',
  ownerId: 'ow',
  ownerName: 'on',
  assigneeId: 'as',
  assigneeName: 'an',
  createdAt: 'ca',
  updatedAt: 'ua',
  /** Absent while open (contract section 17), so items stored before it read as open until the upgrade fills it. */
  closedAt: 'cl',
  /** `true` while overdue; absent otherwise, so items stored before it existed read as not overdue. */
  overdue: 'od',
} as const;

/** The path of a filterable value, as expressions and projections name it. */
export const filterPath = (key: string) => `${attr.filters}.${key}`;
export const lowerKey = (key: string) => `${key}l`;

export const locationKeys: Record<LocationField, string> = {
  businessUnit: filterKey.businessUnit,
  site: filterKey.site,
  department: filterKey.department,
  workGroup: filterKey.workGroup,
  productiveUnit: filterKey.productiveUnit,
  team: filterKey.team,
  crew: filterKey.crew,
};

/** The shard count, for `list/run/budget.ts` until it imports it from `shards.ts` (the lead moves list/). */
export { SHARDS };

/** The partition of the all-actions indexes that holds an action. */
export const everythingPartition = (shard: number) => `A#${shard}`;
export const everythingPartitions: readonly string[] = Array.from({ length: SHARDS }, (_, s) => everythingPartition(s));

/**
 * The sweep's queue and the overdue list by due time share one sparse index, `reminders-by-due`:
 * an open action sits in partition `R<reminded>#<shard>` ordered by due time, so the sweep reads,
 * for each level, only the actions whose next reminder has come (`lib/store/reminders.ts`), and the
 * overdue actions are exactly partitions `R2#*` and `R3#*`. Fewer shards than the all-actions
 * indexes: a list by due time merges two levels, and these partitions take far fewer writes.
 */
export const reminderPartition = (level: number, id: string) => `R${level}#${reminderShardOf(id)}`;
export const reminderPartitions = (level: number): string[] =>
  Array.from({ length: REMINDER_SHARDS }, (_, s) => `R${level}#${s}`);

/**
 * What an item is, by its sort key. One partition (`id` = the action id) holds the action, its
 * history and its comments; counters live in partitions of their own (`id` = `n#<field>#<value>`,
 * sort key = the shard), so one Query reads every shard of a counter.
 */
export const itemKind = {
  action: 'A',
  /** `h#0000000001`: the history entry of version 1; padded so entries sort by version. */
  history: (version: number) => `h#${String(version).padStart(10, '0')}`,
  historyPrefix: 'h#',
  /** `c#<id>`: comment ids are time-ordered (UUIDv7), so comments sort oldest first. */
  comment: (commentId: string) => `c#${commentId}`,
  commentPrefix: 'c#',
  /** `e#<caller id>`: when the caller last changed their endorsement of the action (see `lib/store/actions/toggles.ts`). */
  endorsementToggles: (callerId: string) => `e#${callerId}`,
  counterShard: (shard: number) => String(shard).padStart(2, '0'),
  /** A caller's use in one quota window (`id` = `q#<sub>#<window>`; see `lib/store/quotas.ts`). */
  quota: 'q',
  /** The key cursors are signed with (`id` = `k#cursor`, alone in its partition; see `lib/store/cursor-key.ts`). */
  cursorKey: 'K',
  /** An idempotency key's record: `id` = `i#<digest of caller and key>`, alone in its partition. */
  idempotencyKey: (digest: string) => `i#${digest}`,
  idempotencyRecord: 'I',
} as const;
/**
 * Webhooks (contract section 9) live in partitions of their own beside the actions:
 * - `wh#<owner id>`: a caller's subscriptions (`s#<id>`) and how many they have (`n`), so the
 *   cap of 25 is one conditional counter in the same transaction as the subscription;
 * - `wd#<subscription id>`: its deliveries (`d#<delivery id>`), newest first by their time-ordered
 *   ids, each with its attempts, expiring after 30 days;
 * - `wq#<subscription id>`: its attempts due, sorted by due time (`<ISO time>#<delivery id>#<nonce>`),
 *   and `wr#<shard>` / `<subscription id>`: a marker per queue with work and when it is next due,
 *   so a sweep reads exactly what is due, a few from each queue, and a restart loses nothing;
 * - `wh#<owner id>` / `m#<subscription id>`: when its redeliveries and pings were asked for.
 */
export const webhookKeys = {
  subscriptions: (ownerId: string) => `wh#${ownerId}`,
  subscription: (id: string) => `s#${id}`,
  subscriptionPrefix: 's#',
  count: 'n',
  /** Beside a subscription: the times its owner asked for redeliveries and pings. */
  manualAttempts: (subscriptionId: string) => `m#${subscriptionId}`,
  deliveries: (subscriptionId: string) => `wd#${subscriptionId}`,
  delivery: (deliveryId: string) => `d#${deliveryId}`,
  deliveryPrefix: 'd#',
  /** A subscription's own queue of attempts due, so one subscription's pile never hides another's. */
  due: (subscriptionId: string) => `wq#${subscriptionId}`,
  /** Where the subscriptions with attempts queued are listed, one small marker each. */
  ready: (shard: number) => `wr#${shard}`,
  /** Spreads the markers over this many partitions (each takes 1,000 writes a second). */
  readyShards: READY_SHARDS,
  /** The value of `attr.webhooksEnabledKey` on every enabled subscription. */
  enabled: 'W',
} as const;

/**
 * Who sees what (contract section 14) lives in partitions of its own beside the actions:
 * - `p#<person id>` / `P`: a person the service has seen sign in (`lib/store/people.ts`);
 * - `g#` / `<grant id>`: every grant, one partition, so an admin's list reads grants alone;
 * - `gp#<principal>` / `<grant id>`: the same grant under its principal (`person#<id>` or
 *   `group#<name>`), so resolving a caller's roles is one Query per principal.
 */
export const accessKeys = {
  person: (id: string) => `p#${id}`,
  personItem: 'P',
  grants: 'g#',
  principalGrants: (principal: string) => `gp#${principal}`,
} as const;

/** The partition of the change feed that holds an action's history entries. */
export const feedPartition = (shard: number) => `F#${shard}`;
export const feedPartitions: readonly string[] = Array.from({ length: SHARDS }, (_, s) => feedPartition(s));
/** A history entry's feed key: time order, then the action, then its version (so one action's entries keep their order). */
export const feedKey = (time: string, actionId: string, version: number) =>
  `${time}#${actionId}#${String(version).padStart(10, '0')}`;

/** Separates a title from the id in the title index key; titles may not contain control characters. */
export const TITLE_KEY_SEPARATOR = '\u0001';
/** Sorts after the separator and before any title character: the upper bound of one title. */
export const TITLE_KEY_AFTER = '\u0002';

/** Digits a priority takes in its key: any integer a filter can name (15 digits) sorts as a number. */
export const PRIORITY_KEY_DIGITS = 15;
export const priorityKeyPrefix = (priority: number) => String(priority).padStart(PRIORITY_KEY_DIGITS, '0');

/**
 * Ends the name in a name key. Names sent in bodies hold no control characters, but an owner's
 * name comes from a token and might: `\u0000` and `\u0001` are escaped to `\u0001\u0002` and
 * `\u0001\u0003`, which keeps code point order, and the end mark sorts below both and below every
 * other character, so a name sorts before every longer name it begins.
 */
export const NAME_KEY_END = '\u0001\u0001';
/** The most bytes of a name a key holds: a key is at most 1,024 bytes and also holds the end mark and an id. */
export const NAME_KEY_BYTES = 900;

/**
 * The sort key of a name index: the escaped name, cut to `NAME_KEY_BYTES`, then the creation
 * time and the id. Keys order exactly as (name, createdAt, id) except between names over 900
 * bytes that share their first 900.
 */
export function nameKey(name: string, createdAt: string, id: string): string {
  const escaped = name.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0002' : '\u0001\u0003'));
  let cut = cutToBytes(escaped, NAME_KEY_BYTES);
  // An escape cut in half would sort as the end mark.
  if (cut.endsWith('\u0001')) cut = cut.slice(0, -1);
  return `${cut}${NAME_KEY_END}${createdAt}#${id}`;
}

/** A key attribute's type, as DynamoDB spells it. */
export type KeyType = 'S' | 'N';

/** The table's own key: the partition (`id`) and the sort key (`sk`, see `itemKind`). */
export const tableKey = { name: attr.id, type: 'S' as KeyType };
export const sortKey = { name: attr.sortKey, type: 'S' as KeyType };
