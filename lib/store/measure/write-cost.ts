import { BatchWriteCommand, DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, tableName } from '../client';
import { DAY_COUNTERS, dayFields } from '../counters/days';
import { indexList } from '../indexes';
import { recordedEntryFrom } from '../item';
import { queryInput } from '../query/key-query';
import { queryAll } from '../query/pager';
import { attr, itemKind } from '../table';
import { indexWriteUnits, itemBytes, type StoredItem, stored, writeUnitsOf } from './item-size';

/**
 * What the service's writes cost, by DynamoDB's rules: every transaction the store sends is
 * watched, the items it names are read just before and just after it, and the units are
 * computed from those images:
 * - each item written in a transaction: 2 write units per started KB of the larger of its old
 *   and new image (a transactional write is two underlying writes, prepare and commit);
 * - each global secondary index: the rules in `indexWriteUnits` (an entry put, removed, moved
 *   or left alone), at the standard rate of one unit per KB: the index is updated from the
 *   table after the transaction commits.
 * DynamoDB Local's own report is kept beside it, but it does not follow those rules (it
 * charges 4 units per KB for a Put in a transaction, one charge for all the Updates of a
 * transaction, and nothing for the index of an ordinary UpdateItem), so it is not the figure.
 */

export interface TransactionCost {
  /** Table write units by kind of item. */
  item: number;
  history: number;
  counters: number;
  other: number;
  /** Index write units, in all and by index. */
  indexes: number;
  byIndex: Record<string, number>;
  /** Items in the transaction, and how many of them were counters. */
  items: number;
  counterItems: number;
  /** What DynamoDB Local reported for the transaction. */
  reported: number;
  /** Write units of the day-counter items whose every added attribute is `closedAt`'s: what it alone adds. */
  closedAtOnly: number;
}

type Send = (command: unknown, options?: unknown) => Promise<unknown>;

const keyOf = (entry: Record<string, unknown>): Record<string, unknown> | undefined => {
  const write = (entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck) as
    | { Item?: Record<string, unknown>; Key?: Record<string, unknown> }
    | undefined;
  const source = write?.Item ?? write?.Key;
  return source ? { [attr.id]: source[attr.id], [attr.sortKey]: source[attr.sortKey] } : undefined;
};

/** Runs `work`, recording the cost of every transaction the store sends meanwhile. */
export async function recordingTransactions<T>(
  work: () => Promise<T>,
): Promise<{ result: T; costs: TransactionCost[] }> {
  const client = getDocumentClient() as unknown as { send: Send };
  const original = client.send.bind(client) as Send;
  const costs: TransactionCost[] = [];
  const image = async (key: Record<string, unknown>): Promise<StoredItem | undefined> => {
    const got = (await original(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))) as {
      Item?: Record<string, unknown>;
    };
    return got.Item ? stored(got.Item) : undefined;
  };
  client.send = async (command, options) => {
    if (!(command instanceof TransactWriteCommand)) return original(command, options);
    const entries = (command.input.TransactItems ?? []) as Array<Record<string, unknown>>;
    const keys = entries.map(keyOf);
    const before = await Promise.all(keys.map((k) => (k ? image(k) : undefined)));
    const answer = (await original(command, options)) as { ConsumedCapacity?: Array<{ CapacityUnits?: number }> };
    const after = await Promise.all(keys.map((k) => (k ? image(k) : undefined)));
    const cost: TransactionCost = {
      item: 0,
      history: 0,
      counters: 0,
      other: 0,
      indexes: 0,
      byIndex: {},
      items: entries.length,
      counterItems: 0,
      reported: (answer.ConsumedCapacity ?? []).reduce((s, c) => s + (c.CapacityUnits ?? 0), 0),
      closedAtOnly: 0,
    };
    entries.forEach((entry, i) => {
      if (entry.ConditionCheck) return;
      const old = before[i];
      const next = after[i];
      const units = writeUnitsOf(Math.max(old ? itemBytes(old) : 0, next ? itemBytes(next) : 0), true);
      const id = String(keys[i]?.[attr.id] ?? '');
      const sort = String(keys[i]?.[attr.sortKey] ?? '');
      if (id.startsWith('n#')) {
        const added = Object.values(
          ((entry.Update as { ExpressionAttributeNames?: Record<string, string> } | undefined)
            ?.ExpressionAttributeNames ?? {}) as Record<string, string>,
        );
        if (id === DAY_COUNTERS && added.length > 0 && added.every((a) => a === dayFields.closedAt))
          cost.closedAtOnly += units;
        cost.counters += units;
        cost.counterItems++;
      } else if (sort === itemKind.action) cost.item += units;
      else if (sort.startsWith(itemKind.historyPrefix)) cost.history += units;
      else cost.other += units;
      for (const index of indexList) {
        const u = indexWriteUnits(index, old, next);
        if (u === 0) continue;
        cost.indexes += u;
        cost.byIndex[index.name] = (cost.byIndex[index.name] ?? 0) + u;
      }
    });
    costs.push(cost);
    return answer;
  };
  try {
    return { result: await work(), costs };
  } finally {
    client.send = original;
  }
}

export interface CostSummary {
  samples: number;
  /** Per write, on average. */
  item: number;
  history: number;
  counters: number;
  counterItems: number;
  indexes: number;
  total: number;
  /** The largest single write. */
  max: number;
  byIndex: Record<string, number>;
  /** What DynamoDB Local reported, on average (not DynamoDB's rules; see above). */
  reported: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

export function summarize(costs: TransactionCost[]): CostSummary {
  const n = Math.max(1, costs.length);
  const mean = (f: (c: TransactionCost) => number) => round(costs.reduce((s, c) => s + f(c), 0) / n);
  const total = (c: TransactionCost) => c.item + c.history + c.counters + c.other + c.indexes;
  const byIndex: Record<string, number> = {};
  for (const c of costs) for (const [k, v] of Object.entries(c.byIndex)) byIndex[k] = (byIndex[k] ?? 0) + v;
  return {
    samples: costs.length,
    item: mean((c) => c.item),
    history: mean((c) => c.history),
    counters: mean((c) => c.counters),
    counterItems: mean((c) => c.counterItems),
    indexes: mean((c) => c.indexes),
    total: mean(total),
    max: Math.max(0, ...costs.map(total)),
    byIndex: Object.fromEntries(Object.entries(byIndex).map(([k, v]) => [k, round(v / n)])),
    reported: mean((c) => c.reported),
  };
}

/** What the stream's side of a change wrote: its postings (puts and deletes) and its pending mark's removal. */
export interface IndexWriteCost {
  /** Write units of the postings, and how many were put and deleted. */
  postings: number;
  puts: number;
  deletes: number;
  /** Write units of the pending mark's removal. */
  mark: number;
  /** Write units of the value registry's puts (`lib/store/registry.ts`): a value new to the process. */
  registry: number;
}

/**
 * Runs `work` (the stream's indexing), recording what its BatchWriteItem requests and single
 * deletes cost by DynamoDB's rules: a put 1 unit per started KB of the larger of the old and new
 * item, a delete 1 unit per started KB of the item it removes (at least 1).
 */
export async function recordingIndexWrites(work: () => Promise<unknown>): Promise<IndexWriteCost> {
  const client = getDocumentClient() as unknown as { send: Send };
  const original = client.send.bind(client) as Send;
  const cost: IndexWriteCost = { postings: 0, puts: 0, deletes: 0, mark: 0, registry: 0 };
  const sizeAt = async (key: Record<string, unknown>, table = tableName()) => {
    const got = (await original(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))) as {
      Item?: Record<string, unknown>;
    };
    return got.Item ? itemBytes(stored(got.Item)) : 0;
  };
  client.send = async (command, options) => {
    if (command instanceof BatchWriteCommand) {
      // The postings' table: what an item replaces or removes is read there.
      for (const [table, requests] of Object.entries(command.input.RequestItems ?? {}))
        for (const request of requests) {
          const key = request.DeleteRequest?.Key ?? keyOf({ Put: request.PutRequest });
          const old = key ? await sizeAt(key, table) : 0;
          const next = request.PutRequest?.Item ? itemBytes(stored(request.PutRequest.Item)) : 0;
          if (String(request.PutRequest?.Item?.[attr.id] ?? '').startsWith('v#')) {
            cost.registry += writeUnitsOf(Math.max(old, next));
            continue;
          }
          cost.postings += writeUnitsOf(Math.max(old, next));
          if (request.PutRequest) cost.puts++;
          else cost.deletes++;
        }
    } else if (command instanceof DeleteCommand) {
      cost.mark += writeUnitsOf(await sizeAt(command.input.Key ?? {}));
    }
    return original(command, options);
  };
  try {
    await work();
    return cost;
  } finally {
    client.send = original;
  }
}

/** The entries of an action from version `from` on, as the stream hands them to the consumer. */
export async function entriesOf(id: string, from: number) {
  const items = await queryAll(
    queryInput({ partition: id, sort: { op: '>=', value: itemKind.history(from) }, consistent: true }),
  );
  return items.filter((i) => String(i[attr.sortKey]).startsWith('h#')).map(recordedEntryFrom);
}
