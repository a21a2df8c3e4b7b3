import { randomUUID } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Action, Person } from '../../model/action';
import { createdItems } from '../actions/writes';
import { backoff, send, settleAll, tableName } from '../client';
import { counterMoves } from '../counters/counters';
import { historyItem, type Item } from '../item';
import { indexedText } from '../search/keys';
import { writePostingsInBulk } from '../search/postings';
import { attr, itemKind, shardOf } from '../table';

/**
 * A bulk load of new actions, for `npm run seed`: the same items a create writes (the action
 * with its index keys, its `created` history entry, its counter moves), computed for a whole
 * batch and written with BatchWriteItem, 25 items a request, instead of one transaction per
 * action. The counters of the batch are summed first and added once, one ADD per counter.
 *
 * What it gives up for the speed, which is why the service's own writes never use it:
 * - no transaction: the items land before their counters, so a load cut short between the two
 *   leaves counters behind the actions (`npm run recount -- --fix` repairs that);
 * - no condition on the put: it skips ids already stored (live or deleted) by reading them
 *   first, so nothing else may create the same ids while it runs (a producer's event with a
 *   reference the load also writes). Seed data is made for an otherwise quiet store.
 * Whatever `putNewAction` writes for a create, this must write too: keep them in step.
 */

export interface BulkResult {
  /** Actions written. */
  created: number;
  /** Actions skipped because their id was already stored (seeding twice adds nothing). */
  existed: number;
}

export interface NewAction {
  action: Action;
  /** Who the `created` history entry names. */
  actor: Person;
}

const BATCH = 25;
/**
 * Requests of one call in flight at once. DynamoDB Local is one process that serves every
 * request of the stack; a few dozen batches at once only queue there until they time out.
 */
const WIDTH = 4;

/** Runs `work` on every element, at most `width` at a time; fails after all started ones settle. */
async function inPool<T>(elements: readonly T[], width: number, work: (element: T) => Promise<unknown>) {
  let next = 0;
  await settleAll(
    Array.from({ length: Math.min(width, elements.length) }, async () => {
      while (next < elements.length) await work(elements[next++] as T);
    }),
  );
}

/** Items of one BatchWriteItem request, retried until DynamoDB took them all. */
async function batchPut(items: Item[]): Promise<void> {
  let requests = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let round = 0; requests.length > 0; round++) {
    if (round > 0) await backoff(round);
    const result = await send<{ UnprocessedItems?: Record<string, typeof requests> }>(
      new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
    );
    requests = result.UnprocessedItems?.[tableName()] ?? [];
  }
}

type BatchGetResult = { Responses?: Record<string, Item[]>; UnprocessedKeys?: Record<string, { Keys?: Item[] }> };

/** The ids among `ids` that hold an action or a deleted one's tombstone. */
async function storedIds(ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < ids.length; start += 100) {
    let keys: Item[] | undefined = ids
      .slice(start, start + 100)
      .map((id) => ({ [attr.id]: id, [attr.sortKey]: itemKind.action }));
    for (let round = 0; keys && keys.length > 0; round++) {
      if (round > 0) await backoff(round);
      const result: BatchGetResult = await send<BatchGetResult>(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: keys,
              ConsistentRead: true,
              ProjectionExpression: '#id',
              ExpressionAttributeNames: { '#id': attr.id },
            },
          },
        }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) found.add(item[attr.id] as string);
      keys = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}

/**
 * Stores the actions whose ids are free, each with its `created` entry, then adds their
 * counters: summed over the batch, on one shard (a list reads the sum of every shard, so which
 * shard holds a count does not matter; the shard of the batch's first id spreads the batches).
 */
export async function putNewActions(batch: readonly NewAction[]): Promise<BulkResult> {
  const taken = await storedIds(batch.map((b) => b.action.id));
  const fresh = batch.filter((b) => !taken.has(b.action.id));
  const items: Item[] = [];
  const deltas = new Map<string, number>();
  for (const { action, actor } of fresh) {
    const { item, entry } = createdItems(action, actor, randomUUID());
    items.push(item, historyItem(entry));
    for (const move of counterMoves(undefined, action)) deltas.set(move.key, (deltas.get(move.key) ?? 0) + move.delta);
  }
  const batches: Item[][] = [];
  for (let start = 0; start < items.length; start += BATCH) batches.push(items.slice(start, start + BATCH));
  await inPool(batches, WIDTH, batchPut);
  await writePostingsInBulk(fresh.map(({ action }) => ({ after: indexedText(action) })));

  const first = fresh[0]?.action.id;
  const shard = itemKind.counterShard(first ? shardOf(first) : 0);
  await inPool([...deltas], WIDTH * 2, ([key, delta]) =>
    send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { [attr.id]: key, [attr.sortKey]: shard },
        UpdateExpression: 'ADD #n :delta',
        ExpressionAttributeNames: { '#n': attr.count },
        ExpressionAttributeValues: { ':delta': delta },
      }),
    ),
  );
  return { created: fresh.length, existed: batch.length - fresh.length };
}
