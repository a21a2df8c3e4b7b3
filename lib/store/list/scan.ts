import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Action } from '../../model/action';
import { getDocumentClient, tableName } from '../client';
import { fromItem, type Item, isTombstone } from '../item';
import { attr, itemKind } from '../table';
import type { ReadStats } from './result';

/**
 * Every item of the table, read by one Scan split into many parallel segments, with what it
 * read. The service never scans; the benchmark's baseline and its proof of the counters do, and
 * they read through this so that no key or expression lives outside the store.
 *
 * DynamoDB Local seeks each page's start from the beginning of its segment, so paging through
 * one large segment costs the square of its size (a single-segment scan of 130,000 items takes
 * minutes); segments of about a thousand items take a page or two each, and the whole table
 * seconds. DynamoDB charges the same read units either way: every byte of every item, once.
 *
 * `expectedItems`: about how many items the table holds, to size the segments. `attributes`:
 * read only these stored attributes (names from `table.ts`'s `attr`).
 */
export async function scanEvery(
  expectedItems: number,
  each: (item: Item) => void,
  attributes?: readonly string[],
): Promise<{ stats: ReadStats; segments: number; seconds: number }> {
  const started = Date.now();
  const stats: ReadStats = { itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 };
  const segments = Math.max(1, Math.min(1_000_000, Math.ceil(expectedItems / 1000)));
  const projection = attributes && {
    ProjectionExpression: attributes.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#p${i}`, name])),
  };
  const queue = Array.from({ length: segments }, (_, segment) => segment);
  const workers = Array.from({ length: Math.min(8, segments) }, async () => {
    for (let segment = queue.shift(); segment !== undefined; segment = queue.shift()) {
      let startKey: Item | undefined;
      do {
        const page = await getDocumentClient().send(
          new ScanCommand({
            TableName: tableName(),
            Segment: segment,
            TotalSegments: segments,
            ReturnConsumedCapacity: 'TOTAL',
            ExclusiveStartKey: startKey,
            ...projection,
          }),
        );
        stats.requests++;
        stats.itemsRead += page.ScannedCount ?? 0;
        stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
        for (const item of (page.Items ?? []) as Item[]) each(item);
        startKey = page.LastEvaluatedKey as Item | undefined;
      } while (startKey);
    }
  });
  await Promise.all(workers);
  return { stats, segments, seconds: (Date.now() - started) / 1000 };
}

/**
 * Every live action, by one full Scan (`scanEvery`): the stats are those of the whole table
 * (counters, history entries, everything), which is what a list that reads everything pays.
 */
export const scanActions = (expectedItems: number, each: (action: Action) => void) =>
  scanEvery(expectedItems, (item) => {
    if (item[attr.sortKey] === itemKind.action && !isTombstone(item)) each(fromItem(item));
  });
