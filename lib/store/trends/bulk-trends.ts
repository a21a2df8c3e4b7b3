import type { RecordedEntry } from '../../model/history';
import { trendMoveOf } from '../../model/trends';
import { batchWrite } from '../batch';
import { tableName } from '../client';
import type { Item } from '../item';
import { attr } from '../table';
import { trendIncrements, trendMarker } from './trend-counters';

/**
 * The trend counters of a batch of history entries written in bulk, for the benchmark's seeding
 * only (`bench/trends.ts`); the service counts through the stream (`trend-counters.ts`,
 * `countTrends`), one transaction an entry. This writes the same items that counting would leave:
 * each entry's increments are `countTrends`' own (`trendIncrements`, from `trendMoveOf`); its
 * marker item is `trendMarker`'s, its ADDs are summed in memory per item key, and every distinct
 * item is then put once, 25 a BatchWriteItem (`../batch.ts`). An entry whose marker (action id and
 * version) came before in the batch is skipped whole, as its transaction's condition would cancel
 * it. 100,000 created entries are 2.4 million ADDs in 100,000 transactions, about 3 hours on
 * DynamoDB Local; in bulk they were 1.5 million puts, 16 minutes on a loaded 2-core machine.
 *
 * What it gives up, which is why the service never uses it: puts, not ADDs, and no condition, so
 * it is for a store that holds no trend counters and no markers yet (a fresh benchmark store);
 * not atomic (a load cut short leaves part of the counts).
 */

/** What a bulk count wrote. */
export interface BulkTrendsSummary {
  /** Entries counted (a move, not counted before in the batch). */
  counted: number;
  /** Entries whose marker came earlier in the batch: skipped, as a repeated delivery is. */
  repeated: number;
  /** Items put: one marker an entry counted, one day item per slice and day. */
  items: number;
}

const keyOf = (item: Item) => JSON.stringify([item[attr.id], item[attr.sortKey]]);

/** The items counting `entries` (in order) with `countTrends` leaves in a store that had none. */
function trendItemsOf(
  entries: readonly RecordedEntry[],
  closedStatuses: readonly number[],
): { items: Item[]; counted: number; repeated: number } {
  const items = new Map<string, Item>();
  let [counted, repeated] = [0, 0];
  for (const entry of entries) {
    const move = trendMoveOf(entry, closedStatuses);
    const increments = move ? trendIncrements(move) : [];
    if (increments.length === 0) continue;
    const marker = trendMarker(entry);
    if (items.has(keyOf(marker))) {
      repeated++;
      continue;
    }
    items.set(keyOf(marker), marker);
    for (const { key, added } of increments) {
      const item = items.get(keyOf(key)) ?? { ...key };
      for (const [attribute, n] of Object.entries(added)) item[attribute] = Number(item[attribute] ?? 0) + n;
      items.set(keyOf(key), item);
    }
    counted++;
  }
  return { items: [...items.values()], counted, repeated };
}

/** Writes the trend items of `entries` (see above) into `table` (the service's by default), `width` requests at once. */
export async function writeTrendsInBulk(
  entries: readonly RecordedEntry[],
  closedStatuses: readonly number[],
  options: { table?: string; width?: number; maxAttempts?: number } = {},
): Promise<BulkTrendsSummary> {
  const table = options.table ?? tableName();
  const { items, counted, repeated } = trendItemsOf(entries, closedStatuses);
  await batchWrite(items, { table, width: options.width ?? 4, maxAttempts: options.maxAttempts ?? 20 });
  return { counted, repeated, items: items.length };
}
