import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Action } from '../lib/action';
import type { ListQuery } from '../lib/filter/query';
import { getDocumentClient, tableName } from '../lib/store/client';
import { filterExpression, Placeholders } from '../lib/store/expression';
import { sortAttributeOf } from '../lib/store/fields';
import { fromItem, type Item, valueAt } from '../lib/store/item';
import { compareValues, type ReadStats } from '../lib/store/list';
import { DEFAULT_SORT } from '../lib/store/plan';
import { attr, itemKind } from '../lib/store/table';

export interface BaselineResult {
  actions: Action[];
  totalCount: number;
  stats: ReadStats;
}

/**
 * The naive list the benchmark measures against: one Scan of the whole base table with the
 * same filter expression the real list uses, paged to the end, every match sorted in memory
 * (ties by id, in the same direction), then sliced. Correct, and it costs the whole table: the
 * actions and whatever else lives there (counters, history entries).
 */
export async function baselineList(query: ListQuery): Promise<BaselineResult> {
  const stats: ReadStats = { itemsRead: 0, readUnits: 0, requests: 0 };
  const p = new Placeholders();
  const filter = filterExpression(query.filters, p);
  // Only action items are actions (not counters, history or comments), and deleted actions stay
  // as tombstones in the base table.
  const live = `${p.name(attr.sortKey)} = ${p.value(itemKind.action)} AND attribute_not_exists(${p.name(attr.deletedAt)})`;
  const sort = query.sort ?? DEFAULT_SORT;
  const path = sortAttributeOf(sort.field);
  const direction = sort.descending ? -1 : 1;
  const order = (a: Item, b: Item) =>
    direction * (compareValues(valueAt(a, path), valueAt(b, path)) || compareValues(a[attr.id], b[attr.id]));
  // Only the first `skip + limit` matches are kept (a million full items would not fit in memory).
  const window = query.skip + query.limit;
  let best: Item[] = [];
  let totalCount = 0;
  let startKey: Item | undefined;
  do {
    const page = await getDocumentClient().send(
      new ScanCommand({
        TableName: tableName(),
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
    const items = (page.Items ?? []) as Item[];
    totalCount += items.length;
    best.push(...items);
    if (best.length > 2 * window + 1000) best = best.sort(order).slice(0, window);
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const actions: Action[] = best.sort(order).slice(query.skip, window).map(fromItem);
  return { actions, totalCount, stats };
}
