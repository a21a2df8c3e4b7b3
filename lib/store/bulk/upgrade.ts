import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { postingsTableOf } from '../../config';
import { AGAIN, retry } from '../../flow/retry';
import { batchWriteRequests, type WriteRequest } from '../batch';
import { cellId, cellKey, cellOf, countAttribute, counterCells } from '../counters/counters';
import { addDays, type DayDeltas, dayItems } from '../counters/days';
import { attributeDefinitions, globalSecondaryIndexes, indexList } from '../indexes';
import { fromItem, type Item, isActionItem, isTombstone, toItem } from '../item';
import { referenceEntry } from '../reference-order';
import { registryBackfill } from '../registry';
import { type ScanPass, scanTable, segmentsFor } from '../scan';
import { postingsLeftInTable, refoldPostings, searchBackfill } from '../search/postings';
import { attr, filterKey, itemKind, lowerKey, sortKey, tableKey } from '../table';
import { moveSharedDueAttempts } from '../webhooks/migration';
import { closedDayCounting, withClosedAt } from './closed-at';

/**
 * Making a table and bringing one an earlier version made up to date, from the one table
 * description (`table.ts`, `indexes.ts`). The local starter runs this on every start; in AWS the CDK construct
 * owns the table (docs/deploy.md says what upgrading a deployed stack needs). It takes the client
 * it is given, because it runs before the service's configuration points anywhere.
 */

/** The table holds an index this version defines differently: it cannot be changed in place. */
export class TableUpgradeError extends Error {}

type WantedIndex = ReturnType<typeof globalSecondaryIndexes>[number];

/**
 * Creates the table, its indexes and its stream when it does not exist. A table an earlier
 * version made is brought up to date: each index it lacks is added (one per UpdateTable, as
 * DynamoDB allows), the actions written before get the keys the new indexes order by, or the
 * keys as this version composes them (`KEY_VERSION`), and the webhook attempts it queued in
 * shared partitions move to their subscriptions' queues. The search postings' table is made
 * beside it (`createPostingsTable`); a table made before the search index, or before postings had
 * a table of their own, gets its actions' postings there (and one of the latter loses the ones it
 * kept). A table made before the value registry (`../registry.ts`) gets its actions' values
 * registered there. The re-key, the postings and the registry read the actions in one scan, each page handed to every
 * pass. An index whose keys or projection changed is a TableUpgradeError naming it.
 */
export async function createOrUpgradeTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const existing = await describe(client, tableName);
  const rekey = existing ? await upgradeTable(client, existing) : undefined;
  if (!existing) await createTable(client, tableName);
  const postingsTable = await describe(client, postingsTableOf(tableName));
  if (!postingsTable) await createPostingsTable(client, postingsTableOf(tableName));
  // A table made before postings had a table of their own keeps them: the scan deletes them there.
  const postingsMoved = existing !== undefined && !postingsTable;
  const passes = [rekey, await searchBackfill(client, tableName), await registryBackfill(client, tableName)].filter(
    (p) => p !== undefined,
  );
  const leftBehind = postingsMoved ? postingsLeftInTable(client, tableName) : undefined;
  if (passes.length > 0 || leftBehind)
    await scanTable(
      async (items) => {
        const actions = leftBehind ? items.filter(isActionItem) : items;
        for (const pass of passes) await pass.page(actions);
        await leftBehind?.page(items);
      },
      {
        // Every item when postings are left behind to find; else the actions alone.
        ...(leftBehind ? {} : { kind: itemKind.action }),
        segments: segmentsFor(existing?.ItemCount ?? 0),
        target: { documents: DynamoDBDocumentClient.from(client), table: tableName },
      },
    );
  for (const pass of passes) await pass.done();
  if (existing) await moveSharedDueAttempts(DynamoDBDocumentClient.from(client), tableName);
  await markKeys(client, tableName);
}

/**
 * The version of what every action's keys and counters are made of. 1: ordered keys
 * `<value>#<id>` (ties by id); 2: `<value>#<createdAt>#<id>` (ties by creation time, then id:
 * contract section 4); 3: the paired counters (by status and by overdue, `counters.ts`) exist. A
 * table whose marker is older (or absent: made before the marker) has its actions' keys rewritten
 * and, from before 3, its paired counters counted. 4: text folded by Unicode full case folding
 * (`foldForComparison`), not lower-casing: an action whose folded copies (the `f` map's, the title
 * copy and key) or search postings differ under the new fold is re-keyed. 5: the total and the
 * paired and prefix counters keep the status in their sort key (`counters.ts`): from before 5
 * every counter is counted again from the actions and written in this layout, the old counter
 * items deleted first. 6: an empty site or business unit is keyed under `EMPTY_KEY` in its index
 * (the re-key writes it). 7: the day counters (`../counters/days.ts`) exist; from before 7 they
 * are counted (after the recount of 5, which deletes every `n#` item, day counters included).
 * 8: each whole location's counter is kept under the location itself in 16 shared partitions
 * (`counters.ts`, `sharedPartitions`): from before 8 every counter is counted again, as from
 * before 5 (the title counters with them), and so are the day counters; and every action has its entry in reference order
 * (`../reference-order.ts`), put for each from before 8.
 * 9: every closed action has its `closedAt` (contract section 17): from before 9 each closed
 * action without one gets its last close from its history (`./closed-at.ts`), in the re-key's
 * one UpdateItem, and the `closedAt` day counts are counted with it (by the day counting of 7 or
 * the recount of 8 when those run, else alone).
 * 10: the overdue count and each priority's are kept by status too (`statusSplitFields` in
 * `counters.ts`, issue 53), and so are each paired value's and location prefix's overdue counts
 * (issue 50): from before 10 every counter is counted again, as from before 8.
 * 11: the location fields below the site are counted by value, with status and overdue, as the
 * site is, and each priority's overdue actions too (`pairedFields` in `counters.ts`, issues 50
 * and 53): from before 11 every counter is
 * counted again, as from before 8 (and the value registry gets their values: its own mark).
 * 12: each site's overdue actions are counted by due day and status too (`overdueDaysOf` in
 * `../counters/days.ts`, issue 50: a site viewer's `overdueAge`): from before 12 every counter is
 * counted again, the day counters with them, as from before 8.
 * 13: each business unit's overdue actions are counted by due day and status too, as each site's
 * (`OVERDUE_DAY_DEPTHS`, issue 50: a business unit viewer's `overdueAge`): from before 13 every
 * counter is counted again, as from before 12.
 * 14: "no value" of the five location fields below the site shares one counter item a (shard,
 * status), an attribute a field (`NO_VALUE_FIELDS` in `counters.ts`, issue 53: a create's write
 * units): from before 14 every counter is counted again, as from before 13.
 */
export const KEY_VERSION = 14;
/** The last version whose counters are counted again from the actions (5, 8, 10, 11, 12, 13, then 14). */
const COUNTER_LAYOUT = 14;
const FULL_CASE_FOLDING = 4;
const DAY_COUNTERS = 7;
const REFERENCE_ORDER = 8;
const CLOSED_AT = 9;
const keysMarker = { [attr.id]: 'm#keys', [attr.sortKey]: 'm' };

async function keyVersion(client: DynamoDBClient, tableName: string): Promise<number> {
  const { Item } = await DynamoDBDocumentClient.from(client).send(
    new GetCommand({ TableName: tableName, Key: keysMarker, ConsistentRead: true }),
  );
  return Number(Item?.[attr.count] ?? 1);
}

async function markKeys(client: DynamoDBClient, tableName: string): Promise<void> {
  await DynamoDBDocumentClient.from(client).send(
    new PutCommand({ TableName: tableName, Item: { ...keysMarker, [attr.count]: KEY_VERSION } }),
  );
}

/** The keys of both tables: `id`, then `sk`. */
const keySchema = [
  { AttributeName: tableKey.name, KeyType: 'HASH' },
  { AttributeName: sortKey.name, KeyType: 'RANGE' },
] as const;

/** Creates the table with these indexes (all of them unless told otherwise) and its stream. */
export async function createTable(
  client: DynamoDBClient,
  tableName: string,
  gsis: WantedIndex[] = globalSecondaryIndexes(),
): Promise<void> {
  const keyNames = new Set([
    tableKey.name,
    sortKey.name,
    ...gsis.flatMap((i) => i.KeySchema.map((k) => k.AttributeName)),
  ]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [...keySchema],
      AttributeDefinitions: attributeDefinitions().filter((d) => keyNames.has(d.AttributeName)),
      GlobalSecondaryIndexes: gsis,
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
}

/**
 * The search postings' table (`../search/postings.ts`): the same keys, nothing else (no index,
 * no stream: nothing reads a posting but a search's query of its partition).
 */
async function createPostingsTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [...keySchema],
      AttributeDefinitions: [
        { AttributeName: tableKey.name, AttributeType: tableKey.type },
        { AttributeName: sortKey.name, AttributeType: sortKey.type },
      ],
    }),
  );
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** Whether a stored index has the keys the store expects. */
const sameKeys = (have: GlobalSecondaryIndexDescription, want: WantedIndex) =>
  JSON.stringify(have.KeySchema) === JSON.stringify(want.KeySchema);

/** Whether a stored index projects what the store expects. */
const sameProjection = (have: GlobalSecondaryIndexDescription, want: WantedIndex) =>
  have.Projection?.ProjectionType === want.Projection.ProjectionType &&
  JSON.stringify([...(have.Projection?.NonKeyAttributes ?? [])].sort()) ===
    JSON.stringify([...(want.Projection.NonKeyAttributes ?? [])].sort());

/**
 * Adds the indexes the table lacks, and builds again each one whose projection changed (issues 53
 * and 54: `reminders-by-due` and `all-by-title` project every filter value): DynamoDB cannot change a projection in place,
 * so the index is deleted and made again, filled from the items by DynamoDB itself. Answers the
 * pass that re-keys the table's actions, when they need one.
 */
async function upgradeTable(client: DynamoDBClient, table: TableDescription): Promise<ScanPass | undefined> {
  const tableName = table.TableName as string;
  const have = new Map((table.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  const wanted = globalSecondaryIndexes();
  const stored = (w: WantedIndex) => have.get(w.IndexName);
  const rekeyed = wanted.filter((w) => {
    const index = stored(w);
    return index !== undefined && !sameKeys(index, w);
  });
  if (rekeyed.length > 0)
    throw new TableUpgradeError(
      `The store on disk was made by an earlier version whose index ${rekeyed.map((i) => i.IndexName).join(', ')} differs from this one's: move DATA_DIR's dynamodb folder aside (or delete it) and start again.`,
    );
  const reprojected = wanted.filter((w) => {
    const index = stored(w);
    return index !== undefined && !sameProjection(index, w);
  });
  for (const index of reprojected) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.IndexName } }],
      }),
    );
    await untilIndex(client, tableName, index.IndexName, 'gone');
  }
  const missing = wanted.filter((w) => !have.has(w.IndexName) || reprojected.includes(w));
  const version = await keyVersion(client, tableName);
  if (missing.length === 0 && version >= KEY_VERSION) return undefined;
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions(),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await untilIndex(client, tableName, index.IndexName, 'active');
  }
  const recount = version < COUNTER_LAYOUT;
  // The recount deletes every `n#` item, the day counters too, so they are counted again with it.
  const days = version < DAY_COUNTERS || recount ? dayCounting(client, tableName) : undefined;
  const order = version < REFERENCE_ORDER ? referenceOrdering(client, tableName) : undefined;
  const fill = version < CLOSED_AT;
  // The day counting above counts `closedAt` too (from the actions as filled); without it, alone.
  const closedDays =
    fill && !days ? closedDayCounting({ documents: DynamoDBDocumentClient.from(client), table: tableName }) : undefined;
  return indexKeysBackfill(client, tableName, { recount, refold: version < FULL_CASE_FOLDING, fill }, [
    days,
    order,
    closedDays,
  ]);
}

/**
 * Waits until DynamoDB has built the index (`active`) or deleted it (`gone`), polled about every
 * 100 ms (a full-jitter pause capped there) for a minute.
 */
async function untilIndex(
  client: DynamoDBClient,
  tableName: string,
  indexName: string,
  state: 'active' | 'gone',
): Promise<void> {
  await retry(
    async () => {
      const index = (await describe(client, tableName))?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName);
      const reached = state === 'gone' ? index === undefined : index?.IndexStatus === 'ACTIVE';
      return reached ? undefined : AGAIN;
    },
    {
      budgetMs: 60_000,
      capMs: 100,
      exhausted: () => {
        throw new TableUpgradeError(
          `DynamoDB did not finish ${state === 'gone' ? 'deleting' : 'building'} the index ${indexName} within a minute`,
        );
      },
    },
  );
}

/**
 * Gives every stored action the index keys this version writes and an earlier one did not, and,
 * with `recount`, counts every counter in this version's layout (`counterCells`): `done` deletes
 * the counter items an earlier version wrote and writes each counted cell whole on its first
 * shard (the upgrade runs before the service, so nothing moves a counter meanwhile). With `refold`, the
 * folded copies (the `f` map, the title copy) are compared too and rewritten where the fold
 * changed them, and so are the search postings of the texts it changed (before the item, so a
 * pass cut short and run again still finds the earlier texts of an item it had not rewritten).
 */
function indexKeysBackfill(
  client: DynamoDBClient,
  tableName: string,
  { recount, refold, fill }: { recount: boolean; refold: boolean; fill: boolean },
  passes: ReadonlyArray<ScanPass | undefined> = [],
): ScanPass {
  const documents = DynamoDBDocumentClient.from(client);
  const cells = new Map<string, number>();
  const keys = [...new Set(indexList.flatMap((index) => [index.partitionKey.name, index.sortKey.name]))];
  // `item` as stored, `upgraded` with what this version fills in (its `closedAt`).
  const rekey = async (item: Item, upgraded: Item) => {
    if (isTombstone(item)) return;
    if (recount)
      for (const cell of counterCells(fromItem(upgraded)).map(cellId)) cells.set(cell, (cells.get(cell) ?? 0) + 1);
    const expected = toItem(fromItem(upgraded));
    const stale: string[] = keys.filter((k) => expected[k] !== undefined && expected[k] !== item[k]);
    if (refold) {
      const copies = [attr.filters, attr.titleLower].filter(
        (k) => JSON.stringify(sorted(expected[k])) !== JSON.stringify(sorted(item[k])),
      );
      stale.push(...copies.filter((k) => !stale.includes(k)));
      const filters = (item[attr.filters] ?? {}) as Record<string, unknown>;
      const reference = filters[lowerKey(filterKey.producerReference)] ?? filters[filterKey.producerReference];
      await refoldPostings(
        fromItem(item),
        { title: item[attr.titleLower], reference },
        { documents, table: postingsTableOf(tableName) },
      );
    }
    // A filled `closedAt` is set inside the `f` map, unless the whole map is rewritten anyway.
    const closedAt =
      upgraded === item || stale.includes(attr.filters) ? undefined : filtersOf(upgraded)[filterKey.closedAt];
    if (stale.length === 0 && closedAt === undefined) return;
    const sets = stale.map((_, i) => `#k${i} = :k${i}`);
    if (closedAt !== undefined) sets.push('#f.#cl = :cl');
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { [attr.id]: item[attr.id], [attr.sortKey]: itemKind.action },
        UpdateExpression: `SET ${sets.join(', ')}`,
        // Only the version read: a change made meanwhile is not overwritten (it settled `closedAt` itself).
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: {
          '#v': attr.version,
          ...Object.fromEntries(stale.map((k, i) => [`#k${i}`, k])),
          ...(closedAt === undefined ? {} : { '#f': attr.filters, '#cl': filterKey.closedAt }),
        },
        ExpressionAttributeValues: {
          ':v': item[attr.version],
          ...Object.fromEntries(stale.map((k, i) => [`:k${i}`, expected[k]])),
          ...(closedAt === undefined ? {} : { ':cl': closedAt }),
        },
      }),
    );
  };
  return {
    async page(actions) {
      // Every pass of this step, and the recount, sees the actions with their `closedAt` filled.
      const upgraded = fill ? await withClosedAt({ documents, table: tableName }, actions) : actions;
      for (const pass of passes) await pass?.page(upgraded);
      for (const [i, item] of actions.entries()) await rekey(item, upgraded[i] as Item);
    },
    async done() {
      // The day counters after the recount's delete of every `n#` item, which they are too.
      if (!recount) return void (await doneAll(passes));
      const target = { documents, table: tableName };
      const old: WriteRequest[] = [];
      await scanTable(
        (items) => {
          for (const item of items)
            if (String(item[attr.id]).startsWith('n#'))
              old.push({ DeleteRequest: { Key: { [attr.id]: item[attr.id], [attr.sortKey]: item[attr.sortKey] } } });
        },
        { target, attributes: [attr.id, attr.sortKey] },
      );
      await batchWriteRequests(old, { target, width: 4 });
      // One put an item: a location field's "no value" item holds several cells' counts.
      const puts = new Map<string, Item>();
      for (const [id, n] of cells) {
        const cell = cellOf(id);
        const key = cellKey(cell);
        const at = JSON.stringify(key);
        puts.set(at, { ...(puts.get(at) ?? key), [countAttribute(cell)]: n });
      }
      await batchWriteRequests(
        [...puts.values()].map((item) => ({ PutRequest: { Item: item } })),
        { target, width: 4 },
      );
      await doneAll(passes);
    },
  };
}

const filtersOf = (item: Item) => (item[attr.filters] ?? {}) as Record<string, unknown>;

const doneAll = async (passes: ReadonlyArray<ScanPass | undefined>) => {
  for (const pass of passes) await pass?.done();
};

/**
 * Puts every live action's entry in reference order (`../reference-order.ts`) for a store made
 * before it (idempotent puts: a pass cut short and run again writes the same items).
 */
function referenceOrdering(client: DynamoDBClient, tableName: string): ScanPass {
  const target = { documents: DynamoDBDocumentClient.from(client), table: tableName };
  return {
    async page(actions) {
      const puts = actions
        .filter((item) => !isTombstone(item))
        .map((item) => ({ PutRequest: { Item: referenceEntry(fromItem(item)) } }));
      await batchWriteRequests(puts, { target, width: 4 });
    },
    async done() {},
  };
}

/**
 * Counts the day counters of a table made before them (none exists yet): each day's counts are
 * put whole on its first shard by `done`, so a pass cut short and run again counts afresh.
 */
function dayCounting(client: DynamoDBClient, tableName: string): ScanPass {
  const documents = DynamoDBDocumentClient.from(client);
  const deltas: DayDeltas = new Map();
  return {
    async page(actions) {
      for (const item of actions) if (!isTombstone(item)) addDays(deltas, fromItem(item), 1);
    },
    async done() {
      const puts = dayItems(deltas).map((Item) => ({ PutRequest: { Item } }));
      await batchWriteRequests(puts, { target: { documents, table: tableName }, width: 4 });
    },
  };
}

/** A value with its object keys in order, so two maps compare by content. */
const sorted = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
    : value;
