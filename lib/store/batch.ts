import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailableError } from '../errors';
import { inPool } from '../flow/fan-out';
import { AGAIN, retry } from '../flow/retry';
import { send, tableName } from './client';
import type { Item } from './item';

/**
 * BatchGetItem and BatchWriteItem, the one way the store sends them: split into requests of the
 * most DynamoDB takes (100 keys, 25 puts), sent through `send()` (so a throttle or an outage is a
 * 503 like any other call), and what DynamoDB leaves unprocessed (throttling, a large answer) asked
 * again through the one `retry` (full-jitter backoff), at most `maxAttempts` requests in all for one
 * chunk, as dynamodb-toolbox caps its batch loop. Past the cap the store cannot serve the batch
 * now: a 503, like a throttled single call once the SDK has given up.
 */

/** BatchGetItem reads at most 100 keys a request. */
const BATCH_GET_MAX = 100;
/** BatchWriteItem writes at most 25 items a request. */
const BATCH_WRITE_MAX = 25;

/**
 * Requests for one chunk before giving up: seven, so a list whose page comes back unprocessed
 * still answers (or fails) within about two seconds of backoff. A bulk load, which would rather
 * wait than stop, asks for more.
 */
const DEFAULT_MAX_ATTEMPTS = 7;

interface BatchOptions {
  /** Requests for one chunk, the first included, before a 503. */
  maxAttempts?: number;
}

export interface BatchGetOptions extends BatchOptions {
  consistent?: boolean;
  /** Only these attributes of each item (the whole item when absent). */
  attributes?: readonly string[];
}

/** What a batch read found (in no particular order; keys with no item are simply absent) and cost. */
export interface BatchGetResult {
  items: Item[];
  requests: number;
  readUnits: number;
}

/** Sends `request` for the unprocessed part of one chunk until none is left or the cap is reached. */
async function untilProcessed<T>(first: T[], maxAttempts: number, request: (part: T[]) => Promise<T[]>) {
  let part = first;
  await retry(
    async () => {
      part = await request(part);
      return part.length > 0 ? AGAIN : undefined;
    },
    {
      attempts: maxAttempts,
      exhausted: () => {
        throw new ServiceUnavailableError('store', 1);
      },
    },
  );
}

/** Reads the items under `keys` (of the table), 100 a request, one request at a time. */
export async function batchGet(keys: readonly Item[], options: BatchGetOptions = {}): Promise<BatchGetResult> {
  const table = tableName();
  const result: BatchGetResult = { items: [], requests: 0, readUnits: 0 };
  const names: Record<string, string> = {};
  for (const [i, attribute] of (options.attributes ?? []).entries()) names[`#a${i}`] = attribute;
  const projection = options.attributes
    ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names }
    : {};
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX) {
    await untilProcessed(
      keys.slice(start, start + BATCH_GET_MAX),
      options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      async (part) => {
        const page = await send<{
          Responses?: Record<string, Item[]>;
          UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
          ConsumedCapacity?: Array<{ CapacityUnits?: number }>;
        }>(
          new BatchGetCommand({
            RequestItems: {
              [table]: { Keys: part, ...(options.consistent ? { ConsistentRead: true } : {}), ...projection },
            },
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        result.requests++;
        result.items.push(...(page.Responses?.[table] ?? []));
        for (const c of page.ConsumedCapacity ?? []) result.readUnits += c.CapacityUnits ?? 0;
        return page.UnprocessedKeys?.[table]?.Keys ?? [];
      },
    );
  }
  return result;
}

/** One put or delete of a BatchWriteItem request. */
export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

export interface BatchWriteOptions extends BatchOptions {
  /**
   * Another client and table than the service's: the store upgrade writes before the service is
   * configured. Its requests go straight to that client (no store timeout).
   */
  target?: { documents: DynamoDBDocumentClient; table: string };
  /** Another of the service's tables (the search postings'), through the service's client. */
  table?: string;
  /** Requests in flight at once (default 1). */
  width?: number;
}

/**
 * Puts and deletes, 25 a request, `width` requests in flight; no conditions (BatchWriteItem has
 * none) and not atomic: for writes that may land one by one and can be written again.
 */
export async function batchWriteRequests(
  requests: readonly WriteRequest[],
  options: BatchWriteOptions = {},
): Promise<void> {
  const table = options.target?.table ?? options.table ?? tableName();
  type Answer = { UnprocessedItems?: Record<string, WriteRequest[]> };
  const sendBatch = (part: WriteRequest[]): Promise<Answer> => {
    const command = new BatchWriteCommand({ RequestItems: { [table]: part } });
    return options.target ? (options.target.documents.send(command) as Promise<Answer>) : send<Answer>(command);
  };
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += BATCH_WRITE_MAX)
    chunks.push(requests.slice(start, start + BATCH_WRITE_MAX));
  await inPool(
    Math.min(options.width ?? 1, chunks.length),
    () => chunks.shift(),
    (chunk) =>
      untilProcessed(chunk, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, async (part) => {
        const answer = await sendBatch(part);
        return answer.UnprocessedItems?.[table] ?? [];
      }),
  );
}

/** Puts `items` into the table, 25 a request, one request at a time. */
export async function batchWrite(items: readonly Item[], options: BatchWriteOptions = {}): Promise<void> {
  await batchWriteRequests(
    items.map((item) => ({ PutRequest: { Item: item } })),
    options,
  );
}
