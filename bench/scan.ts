import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, tableName } from '../lib/store/client';
import type { Item } from '../lib/store/item';
import type { ReadStats } from '../lib/store/list';

/**
 * Every item of the table, read by one Scan split into many parallel segments. DynamoDB Local
 * seeks each page's start from the beginning of its segment, so paging through one large
 * segment costs the square of its size (a single-segment scan of 130,000 items takes minutes);
 * segments of about a thousand items take a page or two each, and the whole table seconds.
 * DynamoDB charges the same read units either way: every byte of every item, once.
 *
 * Imports the store, so load it after the environment points at one.
 */
export async function scanEvery(
  expectedItems: number,
  each: (item: Item) => void,
  projection?: Pick<ScanCommandInput, 'ProjectionExpression' | 'ExpressionAttributeNames'>,
): Promise<{ stats: ReadStats; segments: number; seconds: number }> {
  const started = Date.now();
  const stats: ReadStats = { itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 };
  const segments = Math.max(1, Math.min(1_000_000, Math.ceil(expectedItems / 1000)));
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
