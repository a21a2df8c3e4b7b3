import { Agent } from 'node:http';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { getConfig } from '../config';
import { ServiceUnavailableError } from '../errors';

/**
 * The DynamoDB client, created once per process, and the one place that turns what DynamoDB
 * answers into what the store's callers act on: a 503 for a store that is throttled or
 * unreachable (the SDK's own classifiers decide), the cancellation reasons of a transaction.
 */

function createClient(): DynamoDBDocumentClient {
  const config = getConfig();
  const client = new DynamoDBClient({
    region: config.region,
    maxAttempts: config.storeMaxAttempts,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: Math.min(1000, config.storeTimeoutMs),
      requestTimeout: config.storeTimeoutMs,
      // Without this a store that accepts a request and never answers only logs a warning.
      throwOnRequestTimeout: true,
      // The SDK's default of 50 sockets queues the 51st call, and the connection timeout counts
      // that wait: 200 creates at once on the local stack, where one process serves every request,
      // turned into 503s after a second. A Lambda instance serves one request and never gets near.
      httpAgent: new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
    }),
    ...(config.dynamodbEndpoint
      ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

let documentClient: DynamoDBDocumentClient | undefined;

/** The document client: created on first use, then reused for the life of the process. */
export function getDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= createClient();
  return documentClient;
}

/** The table's name. */
export const tableName = (): string => getConfig().tableName;

/** Whether an error means "the store cannot serve this now" rather than "this request is wrong". */
function unavailable(error: unknown): boolean {
  const e = error as Parameters<typeof isTransientError>[0];
  return (
    (error as { name?: string }).name === 'AbortError' ||
    isThrottlingError(e) ||
    isTransientError(e) ||
    isServerError(e) ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes((error as { code?: string }).code ?? '')
  );
}

/**
 * Sends a command; the SDK has already retried, so a throttle or outage becomes a 503 that keeps
 * the SDK's error as its cause. The whole call, retries included, is bounded by
 * STORE_TIMEOUT_MS, so a silent store answers a 503 well inside the function timeout.
 */
export async function send<T>(command: object): Promise<T> {
  try {
    return (await getDocumentClient().send(command as never, {
      abortSignal: AbortSignal.timeout(getConfig().storeTimeoutMs),
    })) as T;
  } catch (error) {
    if (unavailable(error)) throw new ServiceUnavailableError('store', 2, { cause: error });
    throw error;
  }
}

/** Why a transaction was cancelled, item by item, in the order the items were sent. */
export type CancellationCode = 'ConditionalCheckFailed' | 'TransactionConflict' | 'None' | string;

export class TransactionCancelled extends Error {
  constructor(
    readonly codes: CancellationCode[],
    /** The item as stored, for items whose condition failed (`ReturnValuesOnConditionCheckFailure`). */
    readonly items: Array<Record<string, unknown> | undefined>,
    options: { cause: unknown },
  ) {
    super(`transaction cancelled: ${codes.join(', ')}`, options);
    this.name = 'TransactionCancelled';
  }

  /** The condition on the item at `index` failed. */
  conditionFailed(index = 0): boolean {
    return this.codes[index] === 'ConditionalCheckFailed';
  }

  /** Another transaction touched one of the items at the same time: nothing moved, try again. */
  get conflict(): boolean {
    return this.codes.includes('TransactionConflict');
  }
}

/**
 * Writes every item or none. A cancelled transaction becomes `TransactionCancelled` with the
 * reason of each item; the SDK retries a lost reply with the same client token, which DynamoDB
 * recognises, so a retry never applies a transaction twice.
 */
export async function transact(items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<number> {
  try {
    const result = await send<{ ConsumedCapacity?: Array<{ CapacityUnits?: number }> }>(
      new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }),
    );
    return (result.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      throw new TransactionCancelled(
        reasons.map((r) => r.Code ?? 'None'),
        // Cancellation reasons carry items in DynamoDB's wire format, which the document client leaves as is.
        reasons.map((r) => (r.Item ? unmarshall(r.Item as Parameters<typeof unmarshall>[0]) : undefined)),
        { cause: error },
      );
    }
    throw error;
  }
}

/** One put or delete of a BatchWriteItem request. */
export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/**
 * Puts and deletes with BatchWriteItem, 25 a request, each request retried until DynamoDB took
 * all of it. Not atomic: for writes that may land one by one and can be written again (the
 * search postings). Takes the client it is given where the service's own is not set up yet
 * (the store upgrade).
 */
export async function batchWrite(
  requests: readonly WriteRequest[],
  target?: { documents: DynamoDBDocumentClient; table: string },
  width = 1,
): Promise<void> {
  const table = target?.table ?? tableName();
  const sendBatch = (input: BatchWriteCommandInput) =>
    target
      ? target.documents.send(new BatchWriteCommand(input))
      : send<{ UnprocessedItems?: BatchWriteCommandInput['RequestItems'] }>(new BatchWriteCommand(input));
  const batches: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += 25) batches.push(requests.slice(start, start + 25));
  // `width` requests in flight at once.
  await settleAll(
    Array.from({ length: Math.min(width, batches.length) }, async () => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        let pending = batch;
        for (let round = 0; pending.length > 0; round++) {
          if (round > 0) await backoff(round);
          const result = await sendBatch({ RequestItems: { [table]: pending } });
          pending = result.UnprocessedItems?.[table] ?? [];
        }
      }
    }),
  );
}

/** DynamoDB's limits on key values, in UTF-8 bytes; no stored item can have a key outside them. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;

/** Whether a value can be a partition key; DynamoDB refuses (with a 400 of its own) any other. */
export const canBeKey = (value: string | number) =>
  typeof value === 'number' || (value !== '' && Buffer.byteLength(value, 'utf8') <= MAX_PARTITION_KEY_BYTES);

/** Full-jitter backoff between rounds, so contenders stop colliding in lockstep. */
export const backoff = (round: number, capMs = 1_000) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, 10 * 2 ** round)));

/**
 * Like `Promise.all`, but settles every read before it fails: a request whose first read fails
 * answers only when its other reads are done, so none of them runs on after the request.
 */
export async function settleAll<T extends readonly unknown[]>(reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
