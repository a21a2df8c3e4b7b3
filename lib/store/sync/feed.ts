import { badCursor } from '../../cursor';
import type { Sight } from '../../model/access';
import type { HistoryEntry } from '../../model/history';
import { batchGet } from '../batch';
import { MAX_SORT_KEY_BYTES } from '../client';
import { indexes } from '../indexes';
import { historyEntryFrom, type Item } from '../item';
import { newStats, type ReadStats } from '../list/plan/result';
import { mergeInOrder } from '../list/run/merge';
import { type ReadBudget, requestBudget } from '../query/budget';
import { queryInput, type SortCondition } from '../query/key-query';
import { attr, feedPartitions } from '../table';

/**
 * The change feed: every history entry of every action, read from the `changes` index, whose
 * partitions (`F#0`..`F#15`, by action) are merged in key order `<time>#<action>#<version>`.
 *
 * Why a poller that follows the cursor misses nothing and sees nothing twice: a page reads
 * only entries older than the settle bound, now minus `FEED_SETTLE_MS`, and continues strictly
 * after the last key the previous page returned. An entry's time is taken fresh by each attempt
 * of its write, which sends its transaction only while that time is under a second old
 * (`STAMP_MAX_AGE_MS`), and the store call, retries included, is bounded by STORE_TIMEOUT_MS (5 s
 * in AWS, where DynamoDB commits a received transaction in milliseconds): so an entry is stored
 * within ~6 s of its time, and by the time the bound passes it, it is in the index. Nothing can
 * then appear behind a cursor. (The bound rests on that commit time: see docs/sync.md.) One action's entries carry strictly increasing times (`nextStamp`), and keys
 * of equal time order by action and version, so its entries come in version order.
 */

/** Entries appear in the feed once they are this old (the contract allows up to 10 s). */
export const FEED_SETTLE_MS = 10_000;

/** A page stops early once it holds this many bytes of entries, so no page outgrows Lambda's 6 MB response. */
const MAX_FEED_PAGE_BYTES = 4_000_000;

export interface FeedEntry extends HistoryEntry {
  actionId: string;
}

/**
 * A feed entry as the API shows it, from its index item. The one place the mapping lives, so a
 * lookup (a comment's current text, say) can be added here for the feed alone.
 */
export function feedEntryFrom(item: Item): FeedEntry {
  return { actionId: item[attr.id] as string, ...historyEntryFrom(item) };
}

const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z`;
/** A feed position: '' (the beginning), a time (`since`), or the key of the last entry returned. */
const POSITION = new RegExp(`^(|${TIME}|${TIME}#[^#]+#\\d{10})$`);

/** Whether a cursor's key is a feed position. */
export const isFeedPosition = (key: unknown): key is string =>
  typeof key === 'string' && Buffer.byteLength(key, 'utf8') <= MAX_SORT_KEY_BYTES && POSITION.test(key);

export interface FeedPage {
  entries: FeedEntry[];
  /** Where the next page starts: the last entry's key, or `from` again when the page is empty. */
  next: string;
  stats: ReadStats;
}

/**
 * Up to `limit` entries after the position `from`, oldest first, none younger than the settle
 * bound. With `seen` (a scoped caller, contract section 14), only the entries whose sight it
 * accepts: the page's sights are read from the history items by key (the `changes` index does not
 * project them, and an index's projection cannot change in place), so such a page costs its
 * entries once more; entries it drops still move the cursor.
 */
export async function readChanges(
  limit: number,
  from: string,
  now = Date.now(),
  seen?: (sight: Sight) => boolean,
  budget: ReadBudget = requestBudget(),
): Promise<FeedPage> {
  if (!isFeedPosition(from)) throw badCursor();
  const stats = newStats();
  const bound = new Date(now - FEED_SETTLE_MS).toISOString();
  if (from >= bound) return { entries: [], next: from, stats };
  const index = indexes.changes;
  // `from` is included here (it may be a bare time, which no key equals) and the entry it names dropped below.
  const range: SortCondition = from === '' ? { op: '<', value: bound } : { op: 'between', from, to: bound };
  const input = (partition: string | number) => queryInput({ index, partition, sort: range });
  // One more than the page: the entry `from` names, which the page skips, may be among them.
  // The list budget bounds a feed page too (a page reads about `limit` entries plus one page per partition).
  // A page the budget (or the caller's read quota) cut short answers the entries it is sure of, in order.
  const merged = await mergeInOrder(feedPartitions, input, index.sortKey.name, true, limit + 1, budget, stats);
  const items = merged.items;
  const sights = seen ? await sightsOf(items, stats, budget) : undefined;
  const entries: FeedEntry[] = [];
  let next = from;
  let bytes = 0;
  for (const item of items) {
    const key = item[attr.feedKey] as string;
    if (key === from) continue;
    if (entries.length === limit) break;
    if (sights && seen && !seen(sights.get(historyKey(item)) ?? {})) {
      next = key;
      continue;
    }
    const entry = feedEntryFrom(item);
    bytes += Buffer.byteLength(JSON.stringify(entry), 'utf8');
    if (bytes > MAX_FEED_PAGE_BYTES && entries.length > 0) break;
    entries.push(entry);
    next = key;
  }
  // Cut short before any entry: every partition was read past `reached`, so nothing up to it is left.
  if (entries.length === 0 && merged.cut && merged.reached !== undefined && merged.reached > from)
    next = merged.reached;
  return { entries, next, stats };
}

const historyKey = (item: Item) => `${item[attr.id]}\u0000${item[attr.sortKey]}`;

/** The sights of the history items behind a page of index items, read by key (counted in `stats`). */
async function sightsOf(items: readonly Item[], stats: ReadStats, budget: ReadBudget): Promise<Map<string, Sight>> {
  if (items.length === 0) return new Map();
  const keys = items.map((item) => ({ [attr.id]: item[attr.id], [attr.sortKey]: item[attr.sortKey] }));
  const read = await batchGet(keys, { attributes: [attr.id, attr.sortKey, 'sight'] });
  // Charged to the caller's read quota like the entries themselves.
  budget.record(read.items.length);
  stats.itemsRead += read.items.length;
  stats.readUnits += read.readUnits;
  stats.requests += read.requests;
  return new Map(read.items.map((item) => [historyKey(item), (item.sight ?? {}) as Sight]));
}
