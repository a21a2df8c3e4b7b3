import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { type Action, type ActionPatch, applyPatch, etagOf, type Person } from '../action';
import { config } from '../config';
import { ForbiddenError, noSuchAction, PreconditionFailedError, ServiceUnavailableError } from '../errors';
import { filterExpression, Placeholders } from '../filter/expression';
import { type IndexRead, type Plan, plan as planQuery } from '../filter/plan';
import type { ListQuery } from '../filter/query';
import { fromItem, type Item, isTombstone, toItem, tombstone, valueAt } from './item';
import { attr } from './table';

/**
 * The only module that speaks DynamoDB. It keeps actions, enforces the edit rule inside the
 * conditional write itself, and executes list plans. Callers see actions and domain errors.
 */

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

export const documentClient = DynamoDBDocumentClient.from(client, {
  marshallOptions: { removeUndefinedValues: true },
});

const TABLE = config.tableName;

/** Errors that mean "try again later" rather than "this request is wrong". */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * Sends a command; the SDK has already retried, so a throttle or outage becomes a 503. The
 * whole call, retries included, is bounded by STORE_TIMEOUT_MS, so a silent store answers a
 * 503 well inside the function timeout instead of hanging into it.
 */
async function send<T>(command: object): Promise<T> {
  try {
    return (await documentClient.send(command as never, {
      abortSignal: AbortSignal.timeout(config.storeTimeoutMs),
    })) as T;
  } catch (error) {
    const e = error as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
    if (
      UNAVAILABLE.has(e.name ?? '') ||
      UNAVAILABLE.has(e.code ?? '') ||
      (e.$metadata?.httpStatusCode ?? 0) >= 500 ||
      e.name === 'AbortError'
    ) {
      throw new ServiceUnavailableError(2);
    }
    throw error;
  }
}

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** DynamoDB's limits on key values, in UTF-8 bytes; no stored item can have a key outside them. */
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;

/** Whether a string can be a partition key value; DynamoDB refuses (with a 400 of its own) any other. */
const canBeKey = (value: string | number) =>
  typeof value === 'number' || (value !== '' && Buffer.byteLength(value, 'utf8') <= MAX_PARTITION_KEY_BYTES);

async function getItem(id: string): Promise<Item | undefined> {
  // An id no key can hold names no action; asking DynamoDB would be a ValidationException (500).
  if (!canBeKey(id)) return undefined;
  const result = await send<{ Item?: Item }>(new GetCommand({ TableName: TABLE, Key: { id }, ConsistentRead: true }));
  return result.Item;
}

/** Stores a new action. `false` when the id is taken, by a live action or a deleted one. */
export async function putNewAction(action: Action): Promise<boolean> {
  const token = randomUUID();
  const item = { ...toItem(action), [attr.createToken]: token };
  try {
    await send(
      new PutCommand({
        TableName: TABLE,
        Item: item,
        ConditionExpression: 'attribute_not_exists(#id)',
        ExpressionAttributeNames: { '#id': attr.id },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The SDK retries a write whose answer timed out; if the first attempt landed, the retry
    // finds the id taken by this very write, which is a success, not a duplicate. Only the
    // token tells it apart from an identical create by a concurrent delivery of the same event.
    const stored = await getItem(action.id);
    return stored !== undefined && stored[attr.createToken] === token;
  }
}

export async function getAction(id: string): Promise<Action | undefined> {
  const item = await getItem(id);
  return item && !isTombstone(item) ? fromItem(item) : undefined;
}

/**
 * What a write needs of its caller (contract section 5): `edit` is the owner, the assignee, or
 * anyone on an action open to anonymous edits; `assign` (changing the assignee) is the owner or
 * the current assignee; `owner` (allowAnonymousEdits, delete) is the owner alone.
 */
type Rights = 'edit' | 'assign' | 'owner';

/** Whether `caller` holds `rights` on `action` as read; the write re-checks it on the stored item. */
function permits(rights: Rights, action: Action, caller: Person): boolean {
  const isOwner = action.owner.id === caller.id;
  const isAssignee = action.assignee?.id === caller.id;
  if (rights === 'owner') return isOwner;
  if (rights === 'assign') return isOwner || isAssignee;
  return action.allowAnonymousEdits || isOwner || isAssignee;
}

/** The same rule as `permits`, as a condition on the stored item. */
const permissionCondition: Record<Rights, string> = {
  owner: '#ow = :caller',
  assign: '(#ow = :caller OR #as = :caller)',
  edit: '(#anon = :true OR #ow = :caller OR #as = :caller)',
};

const refusal: Record<Rights, string> = {
  owner: 'Only the owner of this action may do this.',
  assign: 'Only the owner or the current assignee of this action may change its assignee.',
  edit: 'Only the owner or the assignee of this action may edit it.',
};

/**
 * How long an edit keeps retrying when other edits of the same action keep landing between its
 * read and its write. Without `If-Match` an edit applies to whatever is current, so losing such
 * a race is no reason to fail; only past this budget (well inside the API's 10 s timeout) is it a 503.
 */
const CONTENTION_BUDGET_MS = 5_000;

/** Full-jitter backoff between rounds, so contenders stop colliding in lockstep. */
const backoff = (round: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 10 * 2 ** round)));

interface Guard {
  caller: Person;
  /** The versions an `If-Match` accepts, if one was sent (`*` sends none). */
  expectedVersions?: number[];
  rights: Rights;
}

/**
 * Reads the action, refuses what the guard refuses (404, 403, 412 in that order), then writes
 * `next` under a condition that re-checks version and permission on the stored item, so a
 * concurrent change between the read and the write can never slip an edit past the rule.
 */
async function guardedWrite(
  id: string,
  guard: Guard,
  next: (current: Action) => Item,
): Promise<{ before: Action; written: Item }> {
  const started = Date.now();
  for (let round = 0; round === 0 || Date.now() - started < CONTENTION_BUDGET_MS; round++) {
    if (round > 0) await backoff(round);
    const item = await getItem(id);
    if (!item || isTombstone(item)) throw noSuchAction(id);
    const current = fromItem(item);
    if (!permits(guard.rights, current, guard.caller)) throw new ForbiddenError(refusal[guard.rights]);
    if (guard.expectedVersions !== undefined && !guard.expectedVersions.includes(current.version)) {
      throw new PreconditionFailedError(
        'If-Match names no current version of the action: it has changed since, or the ETag is weak or was never issued. The ETag header carries the current one.',
        etagOf(current),
      );
    }
    const written = next(current);
    const permission = permissionCondition[guard.rights];
    try {
      await send(
        new PutCommand({
          TableName: TABLE,
          Item: written,
          ConditionExpression: `#v = :version AND attribute_not_exists(#del) AND ${permission}`,
          ExpressionAttributeNames: {
            '#v': attr.version,
            '#del': attr.deletedAt,
            '#ow': attr.ownerKey,
            ...(guard.rights === 'owner' ? {} : { '#as': attr.assigneeKey }),
            ...(guard.rights === 'edit' ? { '#anon': attr.allowAnonymousEdits } : {}),
          },
          ExpressionAttributeValues: {
            ':version': current.version,
            ':caller': guard.caller.id,
            ...(guard.rights === 'edit' ? { ':true': true } : {}),
          },
        }),
      );
      return { before: current, written };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Someone wrote in between: decide again against what is stored now.
    }
  }
  throw new ServiceUnavailableError(1);
}

export interface EditResult {
  before: Action;
  after: Action;
}

/** The rights a patch needs: a patch that names a field carrying rights needs them, whatever its value. */
const rightsFor = (patch: ActionPatch): Rights =>
  patch.allowAnonymousEdits !== undefined ? 'owner' : patch.assignee !== undefined ? 'assign' : 'edit';

/** Applies a merge patch as `caller`, under the rights its fields need. */
export async function patchAction(
  id: string,
  patch: ActionPatch,
  caller: Person,
  expectedVersions: number[] | undefined,
  now: () => string,
): Promise<EditResult> {
  let after: Action | undefined;
  const rights = rightsFor(patch);
  const { before } = await guardedWrite(id, { caller, expectedVersions, rights }, (current) => {
    // updatedAt must move forward even when two edits land in the same millisecond.
    const stamp = now();
    after = applyPatch(current, patch, stamp > current.updatedAt ? stamp : nextTick(current.updatedAt));
    return toItem(after);
  });
  return { before, after: after as Action };
}

const nextTick = (iso: string) => new Date(Date.parse(iso) + 1).toISOString();

/** Deletes as `caller` (owner only), leaving a tombstone so the id is never reused. */
export async function deleteAction(
  id: string,
  caller: Person,
  expectedVersions: number[] | undefined,
  now: () => string,
): Promise<Action> {
  const { before } = await guardedWrite(id, { caller, expectedVersions, rights: 'owner' }, (current) =>
    tombstone(id, current.version + 1, now()),
  );
  return before;
}

/** What a list call read, for cost logging and the benchmark. */
export interface ReadStats {
  itemsRead: number;
  readUnits: number;
  requests: number;
}

export interface ListResult {
  actions: Action[];
  totalCount: number;
  plan: Plan;
  stats: ReadStats;
}

const newStats = (): ReadStats => ({ itemsRead: 0, readUnits: 0, requests: 0 });

interface QueryPage {
  Items?: Item[];
  Count?: number;
  ScannedCount?: number;
  LastEvaluatedKey?: Item;
  ConsumedCapacity?: { CapacityUnits?: number };
}

function queryInput(read: IndexRead, partition: string | number, p = new Placeholders()): QueryCommandInput {
  const pk = p.name(read.index.partitionKey.name);
  const sk = () => p.name(read.index.sortKey.name);
  let keyCondition = `${pk} = ${p.value(partition)}`;
  const lower = read.range?.lower === undefined ? undefined : clampSortKey(read.range.lower);
  const upper = read.range?.upper === undefined ? undefined : clampSortKey(read.range.upper);
  // BETWEEN includes its upper bound where the plan's range excludes it; no key can equal a bound
  // (every sort key ends in an id, every bound in a separator), so the two agree.
  if (lower !== undefined && upper !== undefined)
    keyCondition += ` AND ${sk()} BETWEEN ${p.value(lower)} AND ${p.value(upper)}`;
  else if (lower !== undefined) keyCondition += ` AND ${sk()} >= ${p.value(lower)}`;
  else if (upper !== undefined) keyCondition += ` AND ${sk()} < ${p.value(upper)}`;
  const filter = filterExpression(read.filter, p);
  return {
    TableName: TABLE,
    IndexName: read.index.name,
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ExpressionAttributeNames: p.names,
    ExpressionAttributeValues: p.values,
    ReturnConsumedCapacity: 'TOTAL',
  };
}

/**
 * A key bound DynamoDB accepts. Every stored sort key is well under 1,024 bytes (a date or a title
 * of at most 200 characters, plus an id), so cutting a longer bound to its first 1,024 bytes
 * selects exactly the same stored keys: any key that passes the cut bound differs from it
 * within those bytes, and compares with the full bound the same way.
 */
function clampSortKey(bound: string): string {
  if (Buffer.byteLength(bound, 'utf8') <= MAX_SORT_KEY_BYTES) return bound;
  let cut = '';
  let bytes = 0;
  for (const character of bound) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > MAX_SORT_KEY_BYTES) break;
    cut += character;
  }
  return cut;
}

/** Pages through one query, handing each page to `onPage`; stops early when it returns false. */
async function paginate(input: QueryCommandInput, stats: ReadStats, onPage: (page: QueryPage) => unknown) {
  let startKey: Item | undefined;
  do {
    const page = await send<QueryPage>(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    stats.requests++;
    stats.itemsRead += page.ScannedCount ?? 0;
    stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    if (onPage(page) === false) return;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Runs one query per partition, a few at a time. */
async function eachPartition<T>(read: IndexRead, run: (partition: string | number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  // A partition no key can hold (`owner=`, or a value past the key size limit) holds nothing.
  const queue = read.partitions.filter(canBeKey);
  const workers = Array.from({ length: Math.min(8, queue.length) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) results.push(await run(next));
  });
  await Promise.all(workers);
  return results;
}

async function countMatches(read: IndexRead, stats: ReadStats): Promise<number> {
  const counts = await eachPartition(read, async (partition) => {
    let count = 0;
    await paginate({ ...queryInput(read, partition), Select: 'COUNT' }, stats, (page) => {
      count += page.Count ?? 0;
    });
    return count;
  });
  return counts.reduce((a, b) => a + b, 0);
}

interface Row {
  id: string;
  value: unknown;
}

/** Every match's id and sort value. */
async function readMatches(read: IndexRead, sortAttribute: string, stats: ReadStats): Promise<Row[]> {
  const lists = await eachPartition(read, async (partition) => {
    const p = new Placeholders();
    const input = queryInput(read, partition, p);
    input.ProjectionExpression = `${p.name(attr.id)}, ${p.name(sortAttribute)}`;
    const rows: Row[] = [];
    await paginate(input, stats, (page) => {
      for (const item of page.Items ?? [])
        rows.push({ id: item[attr.id] as string, value: valueAt(item, sortAttribute) });
    });
    return rows;
  });
  return lists.flat();
}

/** The first `max` match ids, in the index's own order. */
async function readInOrder(read: IndexRead, forward: boolean, max: number, stats: ReadStats): Promise<string[]> {
  const ids: string[] = [];
  if (max === 0) return ids;
  const p = new Placeholders();
  const input = queryInput(read, read.partitions[0] as string | number, p);
  input.ScanIndexForward = forward;
  input.ProjectionExpression = p.name(attr.id);
  await paginate({ ...input, Limit: Math.min(max, 1000) }, stats, (page) => {
    for (const item of page.Items ?? []) ids.push(item[attr.id] as string);
    return ids.length < max;
  });
  return ids.slice(0, max);
}

/** DynamoDB orders strings by UTF-8 bytes, which is code point order; JavaScript's `<` is not. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  if (x === y) return 0;
  if (/[\ud800-\udfff]/.test(x) || /[\ud800-\udfff]/.test(y)) return Buffer.compare(Buffer.from(x), Buffer.from(y));
  return x < y ? -1 : 1;
}

async function fetchActions(ids: string[], stats: ReadStats): Promise<Action[]> {
  const found = new Map<string, Item>();
  for (let i = 0; i < ids.length; i += 100) {
    let keys: Item[] | undefined = ids.slice(i, i + 100).map((id) => ({ [attr.id]: id }));
    for (let attempt = 0; keys && keys.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      if (attempt > 6) throw new ServiceUnavailableError(1);
      const result: {
        Responses?: Record<string, Item[]>;
        UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
        ConsumedCapacity?: Array<{ CapacityUnits?: number }>;
      } = await send(
        new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: keys } }, ReturnConsumedCapacity: 'TOTAL' }),
      );
      stats.requests++;
      for (const item of result.Responses?.[TABLE] ?? []) {
        stats.itemsRead++;
        found.set(item[attr.id] as string, item);
      }
      for (const c of result.ConsumedCapacity ?? []) stats.readUnits += c.CapacityUnits ?? 0;
      keys = result.UnprocessedKeys?.[TABLE]?.Keys;
    }
  }
  // An action deleted since the index was read is simply left out of the page.
  return ids.flatMap((id) => {
    const item = found.get(id);
    return item && !isTombstone(item) ? [fromItem(item)] : [];
  });
}

/** Lists actions: finds every match by the cheapest plan, counts them, fetches one page. */
export async function listActions(query: ListQuery): Promise<ListResult> {
  const plan = planQuery(query);
  const stats = newStats();
  if (plan.empty) return { actions: [], totalCount: 0, plan, stats };
  const window = query.skip + query.limit;

  let totalCount: number;
  let pageIds: string[];
  if (plan.count) {
    const [count, ids] = await Promise.all([
      countMatches(plan.count, stats),
      readInOrder(plan.read, !plan.descending, window, stats),
    ]);
    totalCount = count;
    pageIds = ids.slice(query.skip);
  } else {
    const rows = await readMatches(plan.read, plan.sortAttribute, stats);
    const direction = plan.descending ? -1 : 1;
    rows.sort((a, b) => direction * (compareValues(a.value, b.value) || compareValues(a.id, b.id)));
    totalCount = rows.length;
    pageIds = rows.slice(query.skip, window).map((r) => r.id);
  }
  const actions = await fetchActions(pageIds, stats);
  return { actions, totalCount, plan, stats };
}
