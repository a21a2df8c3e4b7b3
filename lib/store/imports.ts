import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { instantMs } from '../dates';
import { canBeKey, send, sendConditional, tableName } from './client';
import type { Item } from './item';
import { queryInput } from './query/key-query';
import { queryAll } from './query/pager';
import { attr } from './table';

/**
 * Imports (contract section 18) live in partitions of their own beside the actions, one an
 * import (`im#<import id>`), all expiring after 7 days:
 * - `I`: the import itself: who, which file, where it stands and where its worker resumes;
 * - `e#<chunk>`: its first 1,000 row problems, in chunks of `PROBLEMS_PER_CHUNK`;
 * - `a#<chunk>`: how many of its valid rows name each assignee, for the one email each gets.
 * Attribute names here are long words on purpose: the short ones of `attr` are index keys, and an
 * item of this file must never enter an index. DynamoDB's TTL deletes late: reads ignore expired items.
 */

const partition = (id: string) => `im#${id}`;
const RECORD = 'I';
const chunkKey = (kind: 'e' | 'a', index: number) => `${kind}#${String(index).padStart(4, '0')}`;
const DAYS = 7;
const expiry = (createdAt: string) => Math.floor(instantMs(createdAt) / 1000) + DAYS * 86_400;
const live = (item: Item | undefined) => item !== undefined && Number(item[attr.expiresAt]) * 1000 > Date.now();

/** Where a worker is: checking every row, creating the valid ones, telling the assignees, or finished. */
export type ImportPhase = 'check' | 'create' | 'notify' | 'finished';
export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ImportRecord {
  id: string;
  importerId: string;
  /** The importer's name when they asked: the emails to assignees say who imported. */
  importerName: string;
  /** The importer's verified email, or null: the owner and initiator of every action created. */
  importerEmail: string | null;
  uploadId: string;
  /** The file's object key and its name as uploaded. */
  fileKey: string;
  fileName: string;
  dryRun: boolean;
  status: ImportStatus;
  phase: ImportPhase;
  rows: number;
  valid: number;
  invalid: number;
  created: number;
  /** The columns ignored (set by the service, or unknown), as the file names them. */
  ignoredColumns: string[];
  /** How many problems in all; the first 1,000 are in the problem chunks. */
  problemCount: number;
  /** The object key of every problem as CSV, when there are more than 1,000. */
  problemsKey?: string;
  /** The row the create phase goes on from (the header is row 1). */
  nextRow: number;
  error?: string;
  createdAt: string;
  finishedAt?: string;
}

const FIELDS: Array<keyof ImportRecord> = [
  'importerId',
  'importerName',
  'importerEmail',
  'uploadId',
  'fileKey',
  'fileName',
  'dryRun',
  'status',
  'phase',
  'rows',
  'valid',
  'invalid',
  'created',
  'ignoredColumns',
  'problemCount',
  'problemsKey',
  'nextRow',
  'error',
  'createdAt',
  'finishedAt',
];

/** The record as stored: its id is the item's `importId` (the item's own `id` is the partition key). */
const recordOf = (item: Item): ImportRecord =>
  ({
    id: item.importId,
    ...Object.fromEntries(FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])),
  }) as unknown as ImportRecord;

/** Stores a new import; `false` when one with this id exists already (the same real run asked again). */
export async function putImport(record: ImportRecord): Promise<boolean> {
  return sendConditional(
    new PutCommand({
      TableName: tableName(),
      Item: {
        [attr.id]: partition(record.id),
        ...Object.fromEntries(FIELDS.filter((f) => record[f] !== undefined).map((f) => [f, record[f]])),
        [attr.sortKey]: RECORD,
        importId: record.id,
        [attr.expiresAt]: expiry(record.createdAt),
      },
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeNames: { '#id': attr.id },
    }),
  );
}

/** The import, unless there is none or it has expired. */
export async function readImport(id: string): Promise<ImportRecord | undefined> {
  if (!canBeKey(partition(id))) return undefined;
  const { Item: item } = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: partition(id), [attr.sortKey]: RECORD },
      ConsistentRead: true,
    }),
  );
  return live(item) ? recordOf(item as Item) : undefined;
}

/** Sets some of an import's fields (its progress, its phase, its outcome). */
export async function updateImport(
  id: string,
  changes: Partial<Omit<ImportRecord, 'id' | 'importerId' | 'createdAt'>>,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  await send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { [attr.id]: partition(id), [attr.sortKey]: RECORD },
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
}

/** Problems a chunk item holds (a chunk stays far below DynamoDB's 400 KB with problems of ~300 bytes). */
export const PROBLEMS_PER_CHUNK = 100;

/** Stores one chunk of problems or of assignee counts; writing the same chunk again replaces it. */
export async function putChunk(id: string, kind: 'e' | 'a', index: number, entries: unknown[], createdAt: string) {
  await send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        [attr.id]: partition(id),
        [attr.sortKey]: chunkKey(kind, index),
        entries: JSON.stringify(entries),
        [attr.expiresAt]: expiry(createdAt),
      },
    }),
  );
}

/** Every chunk of one kind, in order, concatenated. */
export async function readChunks<T>(id: string, kind: 'e' | 'a'): Promise<T[]> {
  const entries: T[] = [];
  const items = await queryAll(
    queryInput({ partition: partition(id), sort: { op: 'begins_with', prefix: `${kind}#` } }),
  );
  for (const item of items) if (live(item)) entries.push(...(JSON.parse(String(item.entries)) as T[]));
  return entries;
}
