import { Agent } from 'node:http';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { getConfig } from '../config';
import { ServiceUnavailableError } from '../errors';
import { retry } from '../flow/retry';

/**
 * The DynamoDB client, created once per process, and the one place that turns what DynamoDB
 * answers into what the store's callers act on: a 503 for a store that is throttled or
 * unreachable (the SDK's own classifiers decide), `false` for a write whose condition failed,
 * the cancellation reasons of a transaction.
 */

function createClient(): DynamoDBDocumentClient {
  const config = getConfig();
  const client = new DynamoDBClient({
    region: config.region,
    maxAttempts: config.storeMaxAttempts,
    requestHandler: new NodeHttpHandler({
      // In AWS a connection not made in a second is a sign to retry elsewhere. DynamoDB Local
      // listens with Java's default backlog of 50: when more connections open at once (a list
      // that reads 100 partitions in parallel, beside other requests), Linux drops the extra
      // SYNs and the client resends them after its 1 s retransmission timeout, so a 1 s bound
      // fails every one of them (200 connects at once on a quiet machine: 68 took 1.0 s). Locally
      // the connection shares the call's whole budget instead.
      connectionTimeout: config.dynamodbEndpoint ? config.storeTimeoutMs : Math.min(1000, config.storeTimeoutMs),
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

/** The search postings' table (`search/postings.ts`): keys only, no indexes, no stream. */
export const postingsTableName = (): string => getConfig().postingsTableName;

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
 * DynamoDB Local, never DynamoDB: a write that waited too long for its lock is a 500 whose message
 * says so ("...too long waiting for a lock. This request will succeed in actual DynamoDB API").
 * The local engine locks a write, and runs transactions one at a time, so a burst of a few hundred
 * writes queues for seconds. Such a 500 is waited out within the call's STORE_TIMEOUT_MS, not
 * answered as a 503: the SDK's own few retries of a 500 were spent in 14 s of a 200-create burst
 * on a busy machine, and DynamoDB itself would have taken the write. Nothing of the write was
 * applied (it never got its lock), so it is sent again as new, with a client request token of its
 * own: the SDK's retries of one send share a token, these rounds do not.
 */
const lockWaitExpired = (error: unknown): boolean =>
  (error as { name?: string }).name === 'InternalServerError' &&
  /waiting for a lock/.test((error as { message?: string }).message ?? '');

/** The longest pause between rounds of a write waiting out a local lock. */
const LOCK_WAIT_PAUSE_MS = 250;

/**
 * Sends a command; the SDK has already retried, so a throttle or outage becomes a 503 that keeps
 * the SDK's error as its cause. The whole call, retries included, is bounded by
 * STORE_TIMEOUT_MS, so a silent store answers a 503 well inside the function timeout.
 */
export async function send<T>(command: object): Promise<T> {
  const { storeTimeoutMs, dynamodbEndpoint } = getConfig();
  const abortSignal = AbortSignal.timeout(storeTimeoutMs);
  try {
    return await retry(async () => (await getDocumentClient().send(command as never, { abortSignal })) as T, {
      // No round starts when its pause could outlast the call's time, so a 503 still says why.
      budgetMs: storeTimeoutMs - LOCK_WAIT_PAUSE_MS,
      capMs: LOCK_WAIT_PAUSE_MS,
      // Only a local engine sends it; against DynamoDB nothing is retried here.
      retryable: (error) => dynamodbEndpoint !== undefined && lockWaitExpired(error),
    });
  } catch (error) {
    if (unavailable(error)) throw new ServiceUnavailableError('store', 2, { cause: error });
    throw error;
  }
}

/**
 * What sends a command: `send` for the service, or a client of its own for code that runs before
 * the service is configured (the table's upgrade).
 */
export type Sender = <T>(command: object) => Promise<T>;

/** What a conditional write came to: its output, or the item as it stood when the condition failed. */
export type Conditional<T> = { written: true; output: T } | { written: false; item?: Record<string, unknown> };

/**
 * Sends a write that carries a condition and says what it came to: a failed condition is an
 * answer the caller acts on, not a fault (the item as it stands comes back when the write asks for
 * it with `ReturnValuesOnConditionCheckFailure`); any other error throws as from `send`.
 */
export async function sendIf<T = unknown>(command: object, via: Sender = send): Promise<Conditional<T>> {
  try {
    return { written: true, output: await via<T>(command) };
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    const item = (error as { Item?: Record<string, never> }).Item;
    return { written: false, ...(item ? { item: unmarshall(item) } : {}) };
  }
}

/** Sends a write that carries a condition: `true` when it was written, `false` when its condition failed. */
export async function sendConditional(command: object, via: Sender = send): Promise<boolean> {
  return (await sendIf(command, via)).written;
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

  /** The condition on some item at `from` or after failed. */
  conditionFailedFrom(from: number): boolean {
    return this.codes.slice(from).includes('ConditionalCheckFailed');
  }

  /** Another transaction touched one of the items at the same time: nothing moved, try again. */
  get conflict(): boolean {
    return this.codes.includes('TransactionConflict');
  }
}

/**
 * Writes every item or none. A cancelled transaction becomes `TransactionCancelled` with the
 * reason of each item; the SDK retries a lost reply with the same client token, which DynamoDB
 * recognises, so its retry never applies a transaction twice. (`send`'s own rounds, for the local
 * engine's lock timeout only, resend one that was never applied, under a token of their own.)
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

/** DynamoDB's limits on key values, in UTF-8 bytes; no stored item can have a key outside them. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;

/** Whether a value can be a partition key; DynamoDB refuses (with a 400 of its own) any other. */
export const canBeKey = (value: string | number) =>
  typeof value === 'number' || (value !== '' && Buffer.byteLength(value, 'utf8') <= MAX_PARTITION_KEY_BYTES);
