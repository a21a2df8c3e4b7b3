import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { inPool } from '../flow/fan-out';
import { getDocumentClient, send, tableName } from './client';
import type { Item } from './item';
import { attr } from './table';

/**
 * The one full-table Scan of the store: the store upgrade (its re-key and the search backfill,
 * in one pass), the recount and the benchmark's baseline all read through it. The service itself
 * never scans.
 *
 * A Scan split into parallel segments: DynamoDB Local seeks each page's start from the beginning
 * of its segment, so paging through one large segment costs the square of its size (a
 * single-segment scan of 130,000 items takes minutes); segments of about a thousand items take a
 * page or two each, and the whole table seconds. DynamoDB charges the same read units either
 * way: every byte of every item, once.
 */

/** Items a segment is sized for. */
const ITEMS_PER_SEGMENT = 1000;
/** DynamoDB's most segments of one Scan. */
const MAX_SEGMENTS = 1_000_000;
/** Segments read at once. */
const WIDTH = 8;

/** The segments for a table of about `expectedItems` items: one per thousand, at least one. */
export const segmentsFor = (expectedItems: number): number =>
  Math.max(1, Math.min(MAX_SEGMENTS, Math.ceil(expectedItems / ITEMS_PER_SEGMENT)));

/**
 * The segments for one of the service's tables (the table when none is named), sized by the item count DescribeTable gives, for a pass
 * that is not told how large the table is. DynamoDB refreshes that count about every six hours:
 * a stale count only sizes the segments, and every item is read whatever their number.
 */
export async function segmentsForTable(table = tableName()): Promise<number> {
  const described = await send<{ Table?: { ItemCount?: number } }>(new DescribeTableCommand({ TableName: table }));
  return segmentsFor(described.Table?.ItemCount ?? 0);
}

export interface ScanOptions {
  /** Parallel segments (`segmentsFor`); one when absent. */
  segments?: number;
  /** Only items with this sort key (an `itemKind`): DynamoDB still reads, and charges for, every item. */
  kind?: string;
  /** Read only these stored attributes (names from `table.ts`'s `attr`). */
  attributes?: readonly string[];
  /**
   * Another client and table than the service's: the store upgrade reads before the service is
   * configured.
   */
  target?: { documents: DynamoDBDocumentClient; table: string };
  /** Another of the service's tables (the search postings'), through the service's client. */
  table?: string;
}

/**
 * Work over the items of a scan, a page at a time, then its end: the store upgrade hands each
 * page of its one scan of the actions to each of its passes (`bulk/upgrade.ts`).
 */
export interface ScanPass {
  page(items: readonly Item[]): Promise<void>;
  done(): Promise<void>;
}

/** What a scan read: items (before the `kind` filter), read units and requests. */
export interface ScanStats {
  itemsRead: number;
  readUnits: number;
  requests: number;
}

/** The request for one page of one segment, but for where it starts. */
export function scanRequest(table: string, segment: number, options: ScanOptions): ScanCommandInput {
  const projected = (options.attributes ?? []).map((name, i) => [`#p${i}`, name] as const);
  const names = Object.fromEntries([...projected, ...(options.kind !== undefined ? [['#kind', attr.sortKey]] : [])]);
  return {
    TableName: table,
    Segment: segment,
    TotalSegments: options.segments ?? 1,
    ReturnConsumedCapacity: 'TOTAL',
    ...(options.attributes ? { ProjectionExpression: projected.map(([placeholder]) => placeholder).join(', ') } : {}),
    ...(options.kind !== undefined
      ? { FilterExpression: '#kind = :kind', ExpressionAttributeValues: { ':kind': options.kind } }
      : {}),
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
  };
}

/**
 * Hands every item of the table (of one `kind`, when given) to `page`, a page at a time, each
 * item once; segments are read a few at a time, and a segment's next page is asked for once
 * `page` has finished with the one before, so what it writes is paced by what it reads.
 */
export async function scanTable(
  page: (items: Item[]) => void | Promise<void>,
  options: ScanOptions = {},
): Promise<ScanStats> {
  const table = options.target?.table ?? options.table ?? tableName();
  type Answer = {
    Items?: Item[];
    LastEvaluatedKey?: Item;
    ScannedCount?: number;
    ConsumedCapacity?: { CapacityUnits?: number };
  };
  const sendScan = (input: ScanCommandInput): Promise<Answer> => {
    const command = new ScanCommand(input);
    // No store timeout: that bounds a request's wait, and no request scans (a page of a scan on a
    // busy engine can take longer than a request may, and the tools that scan simply wait).
    return (options.target?.documents ?? getDocumentClient()).send(command) as Promise<Answer>;
  };
  const stats: ScanStats = { itemsRead: 0, readUnits: 0, requests: 0 };
  const segments = options.segments ?? 1;
  let next = 0;
  await inPool(
    Math.min(WIDTH, segments),
    () => (next < segments ? next++ : undefined),
    async (segment) => {
      const request = scanRequest(table, segment, options);
      let startKey: Item | undefined;
      do {
        const answer = await sendScan({ ...request, ExclusiveStartKey: startKey });
        stats.requests++;
        stats.itemsRead += answer.ScannedCount ?? 0;
        stats.readUnits += answer.ConsumedCapacity?.CapacityUnits ?? 0;
        await page(answer.Items ?? []);
        startKey = answer.LastEvaluatedKey;
      } while (startKey);
    },
  );
  return stats;
}
