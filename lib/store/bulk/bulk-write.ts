import { BatchGetCommand, BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Action } from '../../model/action';
import type { RecordedEntry } from '../../model/history';
import { getDocumentClient, tableName } from '../client';
import { counterMoves } from '../counters/counters';
import { fromItem, historyItem, isTombstone, toItem } from '../item';
import { indexedText } from '../search/keys';
import { writePostingsInBulk } from '../search/postings';
import { attr, itemKind, shardOf } from '../table';

/**
 * Many actions at once, for the benchmark, the latency check and `npm run seed`: not the
 * service's write path (one transaction per action, about 80 a second on DynamoDB Local) but
 * BatchWriteItem, 25 at a time with a few batches in flight, using the store's own `toItem`, so
 * what is stored is exactly what the service would store. It keeps the counters exact the same
 * way the service does:
 * - before each batch it reads what is stored under the same ids, so an action written again
 *   (seeding twice) moves its counters from the old values to the new, and never counts twice;
 * - the counter moves (`counterMoves`, the service's own) are summed per counter shard in
 *   memory and applied at the end with `ADD`, on the shard of each action's id, as the service
 *   does.
 * It writes no history entries (written actions have none). Nothing else may write the same
 * ids meanwhile; a run cut short leaves counters behind the items (`npm run recount` finds it).
 */

const BATCH = 25;
const IN_FLIGHT = 4;

/** What a bulk write did. */
export interface BulkWriteSummary {
  actions: number;
  /** Actions that were already stored (and are overwritten): their counters move, not grow. */
  replaced: number;
  /** Counter items (one counter on one shard) the write moved. */
  counterItems: number;
}

/** Told as the write goes, for a progress bar. */
export interface BulkWriteProgress {
  /** `n` more actions are written. */
  written(n: number): void;
  /** Every action is written; `shards` counter shards are to be moved now. */
  counting(shards: number): void;
  /** One more counter shard is moved. */
  counted(): void;
}

/** Writes `actions` (new, or replacing stored ones) and moves their counters. */
export async function writeActionsInBulk(
  actions: Iterable<Action>,
  progress?: BulkWriteProgress,
): Promise<BulkWriteSummary> {
  const documentClient = getDocumentClient();
  const TABLE = tableName();
  const iterator = actions[Symbol.iterator]();
  /** `<counter key>\u0000<shard>` -> the change to apply. */
  const deltas = new Map<string, number>();
  let written = 0;
  let replaced = 0;
  const nextBatch = () => {
    const batch: Action[] = [];
    for (let r = iterator.next(); !r.done; r = iterator.next()) {
      batch.push(r.value);
      if (batch.length === BATCH) break;
    }
    return batch;
  };
  const retrying = async <T>(attempt: () => Promise<T | undefined>) => {
    for (let round = 0; ; round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, Math.min(2000, 25 * 2 ** round)));
      const done = await attempt();
      if (done !== undefined) return done;
    }
  };
  const storedUnder = async (ids: string[]) => {
    const found = new Map<string, Record<string, unknown>>();
    let keys: Array<Record<string, unknown>> | undefined = ids.map((id) => ({
      [attr.id]: id,
      [attr.sortKey]: itemKind.action,
    }));
    await retrying(async () => {
      const result = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[TABLE] ?? []) found.set(item[attr.id] as string, item);
      keys = result.UnprocessedKeys?.[TABLE]?.Keys;
      return keys && keys.length > 0 ? undefined : true;
    });
    return found;
  };
  const worker = async () => {
    for (let batch = nextBatch(); batch.length > 0; batch = nextBatch()) {
      const before = await storedUnder(batch.map((a) => a.id));
      let requests = batch.map((a) => ({ PutRequest: { Item: toItem(a) } }));
      await retrying(async () => {
        const result = await documentClient.send(new BatchWriteCommand({ RequestItems: { [TABLE]: requests } }));
        requests = (result.UnprocessedItems?.[TABLE] ?? []) as typeof requests;
        return requests.length > 0 ? undefined : true;
      });
      await writePostingsInBulk(
        batch.map((action) => {
          const old = before.get(action.id);
          return {
            ...(old && !isTombstone(old) ? { before: indexedText(fromItem(old)) } : {}),
            after: indexedText(action),
          };
        }),
      );
      for (const action of batch) {
        const old = before.get(action.id);
        const previous = old && !isTombstone(old) ? fromItem(old) : undefined;
        if (old) replaced++;
        const shard = itemKind.counterShard(shardOf(action.id));
        for (const move of counterMoves(previous, action)) {
          const key = `${move.key}\u0000${shard}`;
          deltas.set(key, (deltas.get(key) ?? 0) + move.delta);
        }
      }
      written += batch.length;
      progress?.written(batch.length);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

  const moves = [...deltas].filter(([, delta]) => delta !== 0);
  progress?.counting(moves.length);
  const applyNext = async () => {
    for (let entry = moves.pop(); entry; entry = moves.pop()) {
      const [key, delta] = entry;
      const [counter, shard] = key.split('\u0000') as [string, string];
      await documentClient.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { [attr.id]: counter, [attr.sortKey]: shard },
          UpdateExpression: 'ADD #n :delta',
          ExpressionAttributeNames: { '#n': attr.count },
          ExpressionAttributeValues: { ':delta': delta },
        }),
      );
      progress?.counted();
    }
  };
  const counterItems = moves.length;
  await Promise.all(Array.from({ length: IN_FLIGHT * 2 }, applyNext));
  return { actions: written, replaced, counterItems };
}

/**
 * Writes history entries as they are stored (with their change-feed keys), 25 at a time, for
 * the benchmark's change-feed pages. Not the service's path: no action item or version moves.
 */
export async function writeHistoryInBulk(entries: RecordedEntry[]): Promise<void> {
  const documentClient = getDocumentClient();
  for (let i = 0; i < entries.length; i += BATCH) {
    let requests = entries.slice(i, i + BATCH).map((entry) => ({ PutRequest: { Item: historyItem(entry) } }));
    while (requests.length > 0) {
      const result = await documentClient.send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (result.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}
