import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { postingsTableOf } from '../../config';
import { inPool } from '../../flow/fan-out';
import type { RecordedEntry } from '../../model/history';
import { foldForComparison } from '../../text';
import { batchWriteRequests, type WriteRequest } from '../batch';
import { postingsTableName, send, sendConditional, tableName, type transact } from '../client';
import { fromItem, type Item, isTombstone } from '../item';
import { registerEntries } from '../registry';
import type { ScanPass } from '../scan';
import { attr } from '../table';
import { contexts, indexedPart } from './grams';
import {
  createdKeyOf,
  foldedTexts,
  type IndexedText,
  indexedText,
  isPostingPartition,
  pendingPartition,
  postingPartition,
  type SearchField,
  searchAttr,
  searchFields,
} from './keys';

/**
 * Writing the search index. Postings are written from the table's stream, after the change,
 * not in the change's own transaction: a transaction holds at most 100 items at 2 write units
 * each, so a 200-character title's ~198 postings cannot go in it at all, and a 40-character
 * one's ~38 would cost ~76 units there against ~38 outside. What keeps search as fresh as the
 * list is one small item the change's transaction does write, its pending mark
 * (`pendingMark`): the action's folded texts as of this change. A search reads every pending
 * mark (a few partitions, holding only the changes the stream has not caught up with) and lets
 * the mark, not the postings, decide for its action (`search.ts`). The stream writes the
 * postings (`indexChanges`), then removes the mark if no newer change replaced it.
 * Cost of a create: 2 units for the mark in the transaction, 1 for its removal, 1 per posting.
 *
 * Postings live in a table of their own (`postingsTableName`: keys and the context, no index, no
 * stream); marks stay in the service's table, in the change's transaction. A posting is most of
 * what a create writes (about 33 of 35 items), and in the service's table each one was also
 * weighed against its 19 indexes and read back from its stream by the consumer that had just
 * written it: DynamoDB Local wrote posting-shaped items about 4x slower there (10,000 by
 * BatchWriteItem in 4.9 s against 1.1 s on one engine). DynamoDB bills an item the same in
 * either table.
 */

type TransactItem = Parameters<typeof transact>[0][number];

/** Folded texts by field code; a field left out did not change. */
type Texts = Record<string, string>;

/**
 * The puts and deletes that take an action's postings from the texts `before` to `after`
 * (either undefined: created, deleted), of the part of each the index covers (`indexedPart`). A
 * posting carries the text around its gram (`contexts`), so only what changed is written: a gram
 * whose context is the same is left alone, one it no longer has is deleted. A one-character
 * change rewrites the postings within `CONTEXT + GRAM - 1` code points of it, not every posting.
 */
export function postingRequests(createdKey: string, before?: Texts, after?: Texts): WriteRequest[] {
  const requests: WriteRequest[] = [];
  for (const field of Object.keys(searchFields) as SearchField[]) {
    const { code, indexed } = searchFields[field];
    const old = before?.[code];
    const now = after?.[code];
    if (old === now) continue;
    const was = old === undefined ? new Map<string, string>() : contexts(indexedPart(old, indexed));
    const is = now === undefined ? new Map<string, string>() : contexts(indexedPart(now, indexed));
    for (const gram of was.keys()) {
      if (!is.has(gram))
        requests.push({
          DeleteRequest: { Key: { [attr.id]: postingPartition(field, gram), [attr.sortKey]: createdKey } },
        });
    }
    for (const [gram, context] of is) {
      if (was.get(gram) === context) continue;
      requests.push({
        PutRequest: {
          Item: { [attr.id]: postingPartition(field, gram), [attr.sortKey]: createdKey, [searchAttr.text]: context },
        },
      });
    }
  }
  return requests;
}

/** The pending mark a create, a title edit or a delete writes in its own transaction. */
export function pendingMark(text: IndexedText, version: number, deleted = false): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        [attr.id]: pendingPartition(text.id),
        [attr.sortKey]: text.id,
        [searchAttr.version]: version,
        [searchAttr.createdKey]: createdKeyOf(text),
        ...(deleted ? { [searchAttr.deleted]: true } : foldedTexts(text)),
      },
    },
  };
}

/**
 * What an entry changes in the index: texts before and after, by field code, or nothing. Only
 * while the action's pending mark is there: each create, title edit and delete writes one, and it
 * goes only once the stream has indexed that change and every earlier one. So a batch delivered
 * again (a failed publish) costs one read per entry, and actions loaded in bulk (no mark, their
 * postings written with them) are left alone.
 */
async function entryTexts(entry: RecordedEntry): Promise<{ key: string; before?: Texts; after?: Texts } | undefined> {
  const title = entry.type === 'updated' ? entry.changes?.title : undefined;
  const snapshot = (entry.type === 'created' || entry.type === 'deleted') && entry.action;
  if (!title && !snapshot) return undefined;
  const mark = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: pendingPartition(entry.actionId), [attr.sortKey]: entry.actionId },
      ConsistentRead: true,
    }),
  );
  // An edit's entry names no creation time; the mark does.
  const key = mark.Item?.[searchAttr.createdKey];
  if (typeof key !== 'string') return undefined;
  if (snapshot) {
    const texts = foldedTexts(indexedText(snapshot));
    return entry.type === 'created' ? { key, after: texts } : { key, before: texts };
  }
  const code = searchFields.title.code;
  return {
    key,
    before: { [code]: foldForComparison(String(title?.before)) },
    after: { [code]: foldForComparison(String(title?.after)) },
  };
}

/** Removes an action's pending mark, unless a change newer than `version` wrote it again. */
async function clearMark(actionId: string, version: number): Promise<void> {
  await sendConditional(
    new DeleteCommand({
      TableName: tableName(),
      Key: { [attr.id]: pendingPartition(actionId), [attr.sortKey]: actionId },
      ConditionExpression: '#v <= :v',
      ExpressionAttributeNames: { '#v': searchAttr.version },
      ExpressionAttributeValues: { ':v': version },
    }),
  );
}

/** Reads and removals of pending marks in flight at once. */
const WIDTH = 4;

/**
 * The stream's part: the postings of every create, title edit and delete among `entries`
 * (stream order), then the removal of their pending marks. In rounds, so one action's entries
 * go in version order: round r takes each action's r-th entry, and a round's postings go out
 * together, 25 a request, which keeps a burst of creates from queueing thousands of small
 * requests in front of the next batch's events. Writing the same entries again changes nothing,
 * so a batch the stream delivers twice is harmless. The values the entries give their actions
 * go to the value registry first (`../registry.ts`: a put only for a value this process has not
 * written yet).
 */
export async function indexChanges(entries: readonly RecordedEntry[]): Promise<void> {
  await registerEntries(entries);
  const rounds: RecordedEntry[][] = [];
  const seen = new Map<string, number>();
  for (const entry of entries) {
    const round = seen.get(entry.actionId) ?? 0;
    seen.set(entry.actionId, round + 1);
    if (round === rounds.length) rounds.push([]);
    rounds[round]?.push(entry);
  }
  for (const round of rounds) {
    const changes: Array<{ entry: RecordedEntry; requests: WriteRequest[] }> = [];
    const entriesLeft = [...round];
    await inPool(
      WIDTH,
      () => entriesLeft.shift(),
      async (entry) => {
        const change = await entryTexts(entry);
        if (change) changes.push({ entry, requests: postingRequests(change.key, change.before, change.after) });
      },
    );
    // The stream would rather wait out a throttle than fail its batch: as many tries as a bulk load.
    await batchWriteRequests(
      changes.flatMap((c) => c.requests),
      { width: 2, maxAttempts: 20, table: postingsTableName() },
    );
    const marksLeft = [...changes];
    await inPool(
      WIDTH,
      () => marksLeft.shift(),
      ({ entry }) => clearMark(entry.actionId, entry.version),
    );
  }
}

/**
 * The store upgrade's part when the fold changed (`upgrade.ts`): moves an action's postings from
 * the texts folded the earlier way (`before`, as its item stored them) to the texts folded now,
 * writing only where the fold changed them. `target` is the postings' table.
 */
export async function refoldPostings(
  action: Parameters<typeof indexedText>[0],
  before: { title: unknown; reference: unknown },
  target: { documents: DynamoDBDocumentClient; table: string },
): Promise<void> {
  const text = indexedText(action);
  const earlier: Texts = {
    [searchFields.title.code]: typeof before.title === 'string' ? before.title : '',
    [searchFields['actionProducer.reference'].code]: typeof before.reference === 'string' ? before.reference : '',
  };
  const requests = postingRequests(createdKeyOf(text), earlier, foldedTexts(text));
  await batchWriteRequests(requests, { target, width: BULK_WIDTH, maxAttempts: 20 });
}

/** Requests of one bulk call in flight: the bulk writers run a few calls at once themselves. */
const BULK_WIDTH = 4;

/** The postings of actions written in bulk (the seed, the benchmark), replacing `before` where one was stored. */
export async function writePostingsInBulk(changes: ReadonlyArray<{ before?: IndexedText; after: IndexedText }>) {
  await batchWriteRequests(
    changes.flatMap(({ before, after }) =>
      postingRequests(createdKeyOf(after), before && foldedTexts(before), foldedTexts(after)),
    ),
    { width: BULK_WIDTH, maxAttempts: 20, table: postingsTableName() },
  );
}

/** The item that says every action stored has its postings (written by `searchBackfill`). */
const builtMark = { [attr.id]: 'g#built', [attr.sortKey]: '1' };

/**
 * The store upgrade's part: the actions of `table` get their postings in its postings' table
 * (`postingsTableOf`), once: a mark there, written by `done`, remembers it is done, and a pass
 * cut short is run again whole. So a table made before the search index, or before postings had
 * a table of their own, is indexed on its first start. Undefined when the mark is there. A new
 * table's pass reads nothing and writes only the mark.
 */
export async function searchBackfill(client: DynamoDBClient, actionsTable: string): Promise<ScanPass | undefined> {
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const table = postingsTableOf(actionsTable);
  const built = await documents.send(new GetCommand({ TableName: table, Key: builtMark, ConsistentRead: true }));
  if (built.Item) return undefined;
  return {
    async page(actions) {
      const requests = actions
        .filter((item) => !isTombstone(item))
        .flatMap((item) => {
          const text = indexedText(fromItem(item));
          return postingRequests(createdKeyOf(text), undefined, foldedTexts(text));
        });
      await batchWriteRequests(requests, { target: { documents, table }, width: BULK_WIDTH, maxAttempts: 20 });
    },
    async done() {
      await documents.send(new PutCommand({ TableName: table, Item: builtMark }));
    },
  };
}

/**
 * The store upgrade's part when postings moved to a table of their own: deletes, from the
 * service's table, the postings and the index's built mark an earlier version kept there (the
 * backfill has written them again in the postings' table). Handed every item of the one scan.
 */
export function postingsLeftInTable(client: DynamoDBClient, table: string): ScanPass {
  const documents = DynamoDBDocumentClient.from(client);
  return {
    async page(items) {
      const requests = items
        .filter((item) => isPostingPartition(String(item[attr.id])) || item[attr.id] === builtMark[attr.id])
        .map((item) => ({ DeleteRequest: { Key: { [attr.id]: item[attr.id], [attr.sortKey]: item[attr.sortKey] } } }));
      await batchWriteRequests(requests, { target: { documents, table }, width: BULK_WIDTH, maxAttempts: 20 });
    },
    async done() {},
  };
}
