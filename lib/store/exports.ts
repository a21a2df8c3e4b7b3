import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { instantMs } from '../dates';
import type { Person } from '../model/action';
import { canBeKey, send, sendConditional, tableName } from './client';
import type { Item } from './item';
import { queryInput } from './query/key-query';
import { queryPages } from './query/pager';
import { attr } from './table';

/**
 * Exports (contract section 18) live in partitions of their own beside the actions:
 * `xp#<owner id>` / `x#<export id>`. The partition is the owner's, so another person's export
 * is a key nobody else ever reads (a 404 by construction), and the ids are time-ordered (UUIDv7),
 * so the partition read backwards is newest first. Each item expires after 7 days (`ttl`);
 * DynamoDB's TTL deletes late (locally never), so every read here treats an expired item as absent.
 * Attribute names are long words on purpose: the short ones of `attr` are index keys.
 */

export type ExportFormat = 'csv' | 'xlsx';
export type ExportStatus = 'queued' | 'running' | 'done' | 'failed';

/** Where a CSV export's multipart upload stands after its last part: what a resumed run continues from. */
export interface UploadState {
  uploadId: string;
  /** The parts written so far, in order. */
  parts: Array<{ PartNumber: number; ETag: string }>;
  /** The list cursor just past the last row of the last part; absent before the first part. */
  cursor?: string;
  /** Every part is stored; only completing the upload is left. */
  written?: boolean;
}

export interface ExportRecord {
  id: string;
  owner: Person;
  /** The owner's groups when they asked: their sight is judged with these (section 14). */
  groups: string[];
  format: ExportFormat;
  query: string;
  status: ExportStatus;
  /** Rows written to parts stored so far (the header not counted). */
  rows: number;
  createdAt: string;
  finishedAt?: string;
  /** ISO time the record and its file go. */
  expiresAt: string;
  error?: string;
  /** The object key of its file. */
  key: string;
  upload?: UploadState;
  /** Runs that failed since the last progress. */
  failures: number;
}

const partition = (ownerId: string) => `xp#${ownerId}`;
const sortKey = (id: string) => `x#${id}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const live = (item: Item | undefined): item is Item =>
  item !== undefined && (item[attr.expiresAt] === undefined || Number(item[attr.expiresAt]) > nowSeconds());

const fromItem = (item: Item): ExportRecord => JSON.parse(String(item.record)) as ExportRecord;

/** Stores a new export. */
export async function putExport(record: ExportRecord): Promise<void> {
  await send(
    new PutCommand({
      TableName: tableName(),
      Item: itemOf(record),
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeNames: { '#id': attr.id },
    }),
  );
}

function itemOf(record: ExportRecord): Item {
  return {
    [attr.id]: partition(record.owner.id),
    [attr.sortKey]: sortKey(record.id),
    record: JSON.stringify(record),
    progress: progressOf(record),
    [attr.expiresAt]: Math.floor(instantMs(record.expiresAt) / 1000),
  };
}

/** What a write must find to replace the record: no two runs of one export both move it on. */
const progressOf = (record: ExportRecord) =>
  `${record.status}#${record.upload?.uploadId ?? ''}#${record.upload?.parts.length ?? 0}#${record.upload?.written ? 'w' : ''}#${record.failures}`;

/** One export of its owner, or `undefined` (none, another person's, or expired). */
export async function getExport(ownerId: string, id: string): Promise<ExportRecord | undefined> {
  if (!canBeKey(partition(ownerId)) || !canBeKey(sortKey(id))) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: partition(ownerId), [attr.sortKey]: sortKey(id) },
      ConsistentRead: true,
    }),
  );
  return live(item) ? fromItem(item) : undefined;
}

/** The owner's exports, newest first, at most `limit`. */
export async function listExports(ownerId: string, limit: number): Promise<ExportRecord[]> {
  if (!canBeKey(partition(ownerId))) return [];
  const found: ExportRecord[] = [];
  const input = queryInput({ partition: partition(ownerId), descending: true, limit });
  for await (const page of queryPages(input)) {
    for (const item of page.Items ?? []) if (live(item) && found.length < limit) found.push(fromItem(item));
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * Replaces `before` with `after`, only if nobody moved it on since `before` was read; `false`
 * when someone did (another run of the same export): the caller stops.
 */
export async function replaceExport(before: ExportRecord, after: ExportRecord): Promise<boolean> {
  const { [attr.id]: _id, [attr.sortKey]: _sk, ...values } = itemOf(after);
  return sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: { [attr.id]: partition(before.owner.id), [attr.sortKey]: sortKey(before.id) },
      UpdateExpression: 'SET #record = :record, #progress = :progress, #ttl = :ttl',
      ConditionExpression: '#progress = :before',
      ExpressionAttributeNames: { '#record': 'record', '#progress': 'progress', '#ttl': attr.expiresAt },
      ExpressionAttributeValues: {
        ':record': values.record,
        ':progress': values.progress,
        ':ttl': values[attr.expiresAt],
        ':before': progressOf(before),
      },
    }),
  );
}
