import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getConfig, postingsTableOf } from '../config';
import type { Action } from '../model/action';
import type { RecordedEntry } from '../model/history';
import { batchWriteRequests, type WriteRequest } from './batch';
import { countedValue, storedFields } from './catalogue';
import { MAX_SORT_KEY_BYTES, postingsTableName } from './client';
import { type CountStats, readPartition } from './counters/counters';
import { fromItem, isTombstone } from './item';
import type { ScanPass } from './scan';
import { attr } from './table';

/**
 * The value registry: for each counted string field, every distinct value some action has had,
 * in value order (code point order, as DynamoDB orders sort keys), one partition a field
 * (`v#<field key>`, the value its sort key) in the postings' table: keys only, read in one paged
 * Query. Nothing else lists a field's values in order, and a sort on a field no index orders
 * (`value-walk.ts`) or an exact `<`, `>`, `*` count (`list/registry-counts.ts`) needs them.
 *
 * Written by the stream consumer beside the postings (`registerEntries`), by the bulk load
 * (`registerActions`) and, for a store made before it, by the upgrade scan
 * (`registryBackfill`): idempotent puts, never deletes, so it may hold values no action has any
 * more (their counters say 0). Each process remembers what it wrote, so a value is written about
 * once a process, not once a write: a create's cost does not grow with it. It lags the table by
 * the stream, so a reader proves it complete from the counters before trusting it.
 */

/**
 * The fields registered: the counted string fields (people by id, every location field,
 * producers), but not the title, whose `<`, `>` and `*` may answer a lower bound (contract section 4).
 */
export const registeredFields = [
  'owner',
  'assignee',
  'location.site',
  'location.businessUnit',
  'actionProducer.name',
  'location.department',
  'location.workGroup',
  'location.productiveUnit',
  'location.team',
  'location.crew',
] as const;
export type RegisteredField = (typeof registeredFields)[number];

export const isRegistered = (field: string): field is RegisteredField =>
  (registeredFields as readonly string[]).includes(field);

/**
 * The partition of a field's values: `v#<field key>`. (Whole locations are not registered: their
 * counters, `counters/prefixes.ts` `locationCounter`, hold the location itself.)
 */
export const registryPartition = (field: RegisteredField) => `v#${storedFields[field].key}`;

/** The action property each field's value comes from: an edit names the properties it changed. */
const propertyOf: Record<RegisteredField, keyof Action> = {
  owner: 'owner',
  assignee: 'assignee',
  'location.site': 'location',
  'location.businessUnit': 'location',
  'actionProducer.name': 'actionProducer',
  'location.department': 'location',
  'location.workGroup': 'location',
  'location.productiveUnit': 'location',
  'location.team': 'location',
  'location.crew': 'location',
};

/**
 * `[kind, value]` pairs of an action, or of the properties `part` holds; '' is never registered,
 * nor a value too long for a sort key.
 */
export function registryValues(part: Partial<Action>): Array<[RegisteredField, string]> {
  return registeredFields.flatMap((field): Array<[RegisteredField, string]> => {
    if (!(propertyOf[field] in part)) return [];
    const value = countedValue(field, part as Action);
    return value === undefined || value === '' || Buffer.byteLength(value, 'utf8') > MAX_SORT_KEY_BYTES
      ? []
      : [[field, value]];
  });
}

/**
 * What an entry gives an action: a create its snapshot's values, an edit those it changed to (a
 * view's person, location and producer have the shape an action's do).
 */
export function entryValues(entry: RecordedEntry): Array<[RegisteredField, string]> {
  if (entry.type === 'created' && entry.action) return registryValues(entry.action as unknown as Action);
  if (entry.type !== 'updated' || !entry.changes) return [];
  const after = Object.fromEntries(Object.entries(entry.changes).map(([key, change]) => [key, change.after]));
  return registryValues(after as Partial<Action>);
}

/** Values this process has written through the service's client, by store (endpoint and table). */
const written = new Set<string>();

/**
 * Writes the values not yet written, each once. Through the service's client, a value this
 * process has stored already is left out (unless `again`), and one is remembered only once it is
 * stored; the upgrade's own client (`target`) writes every value it is handed.
 */
async function register(
  values: Iterable<[RegisteredField, string]>,
  target?: { documents: DynamoDBDocumentClient; table: string },
  again = false,
): Promise<void> {
  const store = target ? undefined : `${getConfig().dynamodbEndpoint ?? ''}\u0000${postingsTableName()}`;
  const keys = new Set<string>();
  const requests: WriteRequest[] = [];
  for (const [field, value] of values) {
    const partition = registryPartition(field);
    const key = `${store}\u0000${partition}\u0000${value}`;
    if (keys.has(key) || (store !== undefined && !again && written.has(key))) continue;
    keys.add(key);
    requests.push({ PutRequest: { Item: { [attr.id]: partition, [attr.sortKey]: value } } });
  }
  if (requests.length === 0) return;
  await batchWriteRequests(requests, {
    ...(target ? { target } : { table: postingsTableName() }),
    width: 2,
    maxAttempts: 20,
  });
  if (store !== undefined) for (const key of keys) written.add(key);
}

/** The stream's part: the values the entries' creates and edits gave their actions. */
export const registerEntries = (entries: readonly RecordedEntry[]): Promise<void> =>
  register(entries.flatMap(entryValues));

/**
 * `npm run recount -- --fix`'s part: values some action has that the registry lacks, written
 * whatever this process remembers writing (the registry lost them).
 */
export const registerValues = (values: ReadonlyArray<[RegisteredField, string]>): Promise<void> =>
  register(values, undefined, true);

/** The bulk load's part: the values of the actions it wrote. */
export const registerActions = (actions: readonly Action[]): Promise<void> => register(actions.flatMap(registryValues));

/**
 * The item that says every action stored has its values registered (written by `registryBackfill`):
 * `3` since the location fields below the site are registered too (issue 50), so a store marked
 * `2` or earlier is scanned once more and its departments to crews registered (what it had is
 * written again, harmlessly).
 */
const registeredMark = { [attr.id]: 'g#registry', [attr.sortKey]: '3' };

/**
 * The store upgrade's part: the actions of a store made before the registry get their values
 * registered, once, in the upgrade's one scan; a mark remembers it is done (a pass cut short runs
 * again whole). Undefined when the mark is there.
 */
export async function registryBackfill(client: DynamoDBClient, actionsTable: string): Promise<ScanPass | undefined> {
  const documents = DynamoDBDocumentClient.from(client);
  const table = postingsTableOf(actionsTable);
  const done = await documents.send(new GetCommand({ TableName: table, Key: registeredMark, ConsistentRead: true }));
  if (done.Item) return undefined;
  return {
    async page(actions) {
      const values = actions.filter((item) => !isTombstone(item)).flatMap((item) => registryValues(fromItem(item)));
      await register(values, { documents, table });
    },
    async done() {
      await documents.send(new PutCommand({ TableName: table, Item: registeredMark }));
    },
  };
}

/** Every registered value of `kind`, in value order: one Query, paged. */
export async function readRegistry(kind: RegisteredField, stats?: CountStats): Promise<string[]> {
  const items = await readPartition(postingsTableName(), registryPartition(kind), stats);
  return items.map((item) => String(item[attr.sortKey]));
}
