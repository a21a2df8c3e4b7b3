import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryInput } from '../query/key-query';
import { queryPages } from '../query/pager';
import { attr } from '../table';
import { type DueTable, dueFrom, storeDue } from './due-queue';

/**
 * Moves the attempts an earlier version queued in its 4 shared partitions (`wq#0`..`wq#3`) into
 * their subscriptions' queues, marker included, then deletes each old item. Subscription ids are
 * UUIDs, so no subscription's own queue is ever called `wq#0`..`wq#3`. Each keeps its old sort
 * key (due time, delivery, nonce), so a move cut short and run again overwrites rather than
 * duplicates; with nothing left it costs 4 small queries.
 */
export async function moveSharedDueAttempts(documents: DynamoDBDocumentClient, name: string): Promise<void> {
  const table: DueTable = { name, via: <T>(command: object) => documents.send(command as never) as Promise<T> };
  for (let shard = 0; shard < 4; shard++) {
    const partition = `wq#${shard}`;
    const shared = queryInput({ table: name, partition, consistent: true });
    for await (const page of queryPages(shared, { via: table.via })) {
      for (const item of page.Items ?? []) {
        await storeDue(table, dueFrom(item.subscriptionId as string, item), Number(item[attr.expiresAt]), true);
        await table.via(
          new DeleteCommand({ TableName: name, Key: { [attr.id]: partition, [attr.sortKey]: item[attr.sortKey] } }),
        );
      }
    }
  }
}
