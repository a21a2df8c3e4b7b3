import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { settleAll } from '../flow/fan-out';
import { send, tableName } from './client';
import { indexes } from './indexes';
import type { Item } from './item';
import type { ReadStats } from './list/plan/result';
import { attr, reminderPartitions } from './table';

/**
 * The sweep's queue. An open action waits in `reminders-by-due` under the level of reminders it
 * has had for its `dueAt` (partition `R<level>#<shard>`), ordered by due time; a reminder moves
 * it to the next level's partition in the same transaction. So "what entered a window since the
 * last sweep" is, for each level, a key range read up to that level's bound: every entry it
 * reads is an action owed a reminder, whatever the table's size, and two sweeps, or one killed
 * half way, leave the queue as the transactions that did land left it. No cursor to keep.
 */

/** The actions owed their next reminder: `bounds[level]` is the latest `dueAt` (inclusive) whose next window has opened. */
export async function actionsOwedReminders(bounds: Record<number, string>, stats: ReadStats): Promise<string[]> {
  const reads = Object.entries(bounds).flatMap(([level, through]) =>
    reminderPartitions(Number(level)).map((partition) => readQueue(partition, through, stats)),
  );
  return (await settleAll(reads)).flat();
}

async function readQueue(partition: string, through: string, stats: ReadStats): Promise<string[]> {
  const index = indexes.remindersByDue;
  const ids: string[] = [];
  let startKey: Item | undefined;
  do {
    const page = await send<{
      Items?: Item[];
      ScannedCount?: number;
      LastEvaluatedKey?: Item;
      ConsumedCapacity?: { CapacityUnits?: number };
    }>(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        // Due keys are `<dueAt>#<id>`, and `$` sorts just above `#`: every key of a dueAt up to `through`.
        KeyConditionExpression: '#p = :partition AND #k < :through',
        ExpressionAttributeNames: { '#p': index.partitionKey.name, '#k': index.sortKey.name },
        ExpressionAttributeValues: { ':partition': partition, ':through': `${through}$` },
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    stats.requests++;
    stats.itemsRead += page.ScannedCount ?? 0;
    stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    for (const item of page.Items ?? []) ids.push(item[attr.id] as string);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return ids;
}
