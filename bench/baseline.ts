import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Action } from '../lib/action';
import { config } from '../lib/config';
import type { ListQuery } from '../lib/filter/query';
import { compareValues, documentClient, type ListResult, type ReadStats } from '../lib/store/action-store';
import { filterExpression, Placeholders } from '../lib/store/expression';
import { sortAttributeOf } from '../lib/store/fields';
import { fromItem, type Item, valueAt } from '../lib/store/item';
import { DEFAULT_SORT } from '../lib/store/plan';
import { attr } from '../lib/store/table';

/**
 * The naive list the benchmark measures against: one Scan of the whole base table with the
 * same filter expression the real list uses, paged to the end, every match sorted in memory
 * (ties by id, in the same direction), then sliced. Correct, and it costs the whole table.
 */
export async function baselineList(query: ListQuery): Promise<Omit<ListResult, 'plan'>> {
  const stats: ReadStats = { itemsRead: 0, readUnits: 0, requests: 0 };
  const p = new Placeholders();
  const filter = filterExpression(query.filters, p);
  // Deleted actions stay as tombstones in the base table; they are not actions.
  const live = `attribute_not_exists(${p.name(attr.deletedAt)})`;
  const matches: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: filter ? `${live} AND ${filter}` : live,
        ExpressionAttributeNames: p.names,
        ...(Object.keys(p.values).length > 0 ? { ExpressionAttributeValues: p.values } : {}),
        ReturnConsumedCapacity: 'TOTAL',
        ExclusiveStartKey: startKey,
      }),
    );
    stats.requests++;
    stats.itemsRead += page.ScannedCount ?? 0;
    stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    matches.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const sort = query.sort ?? DEFAULT_SORT;
  const path = sortAttributeOf(sort.field);
  const direction = sort.descending ? -1 : 1;
  matches.sort(
    (a, b) => direction * (compareValues(valueAt(a, path), valueAt(b, path)) || compareValues(a[attr.id], b[attr.id])),
  );
  const actions: Action[] = matches.slice(query.skip, query.skip + query.limit).map(fromItem);
  return { actions, totalCount: matches.length, stats };
}
