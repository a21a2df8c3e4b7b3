import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type Sender, send } from '../client';
import type { Item } from '../item';
import { BudgetSpent } from './budget';

/**
 * The one pager: every Query the store sends (built by `key-query.ts`) is sent here, page after
 * page, following `LastEvaluatedKey`: all of it (`queryAll`), page by page as an async iterator
 * (`queryPages`), or a page at a time as its reader asks (`QueryCursor`, for merges and searches
 * that decide between pages how much more to read). Each page is counted where its caller counts
 * reads (the list's `ReadStats`, the counters' `CountStats`), and under a read budget (the list's
 * `ReadBudget`) each page asks for its entries first and stops the read with `BudgetSpent`.
 */

/** What one Query request answers. */
export interface QueryPage {
  Items?: Item[];
  Count?: number;
  ScannedCount?: number;
  LastEvaluatedKey?: Item;
  ConsumedCapacity?: { CapacityUnits?: number };
}

/** Where a caller counts what its reads cost (a `ReadStats` or a `CountStats`). */
export interface ReadCount {
  requests: number;
  readUnits: number;
  /** Entries evaluated (DynamoDB's `ScannedCount`), when the caller counts them. */
  itemsRead?: number;
  /** Index entries, under a budget: what the caller's read quota is charged. */
  indexEntries?: number;
}

/** A read budget (`lib/store/query/budget.ts`): grants entries to a page before it is read, and is told what it read. */
export interface PageBudget {
  readonly limit: number;
  take(want: number): Promise<number>;
  settle(granted: number, read: number): void;
}

/** Reads one page of a query for another owner of the budget (the list hands its budgeted read to the search). */
export type PageReader = (input: QueryCommandInput, want: number) => Promise<QueryPage>;

export interface PageOptions {
  /** Another client than the service's (the store upgrade reads before the service is configured). */
  via?: Sender;
  /** Counts every page's request and read units (asked of DynamoDB) here. */
  stats?: ReadCount;
  /** Also counts the entries each page evaluated in `stats.itemsRead` (a budget always counts them). */
  countEntries?: boolean;
  /**
   * Each page asks the budget for its entries first and evaluates at most what it was granted
   * (its `Limit`); the entries it read are charged to the caller's read quota. `BudgetSpent`
   * once the budget grants nothing.
   */
  budget?: PageBudget;
  /** Reads each page instead of sending it (a reader that owns the budget and the stats). */
  read?: PageReader;
}

/**
 * One page of `input`, evaluating at most `want` entries (none but DynamoDB's 1 MB page when
 * absent, or all a budget has left).
 */
export async function queryPage(
  input: QueryCommandInput,
  options: PageOptions = {},
  want?: number,
): Promise<QueryPage> {
  const { via = send, stats, countEntries = false, budget, read } = options;
  if (read) return read(input, want ?? Number.POSITIVE_INFINITY);
  if (!budget) {
    const page = await via<QueryPage>(
      new QueryCommand({
        ...input,
        ...(want !== undefined ? { Limit: want } : {}),
        ...(stats ? { ReturnConsumedCapacity: 'TOTAL' } : {}),
      }),
    );
    if (stats) {
      stats.requests++;
      stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
      if (countEntries && stats.itemsRead !== undefined) stats.itemsRead += page.ScannedCount ?? 0;
    }
    return page;
  }
  const granted = await budget.take(want ?? Number.POSITIVE_INFINITY);
  if (granted === 0) throw new BudgetSpent(budget.limit);
  let entries = 0;
  try {
    const page = await via<QueryPage>(new QueryCommand({ ...input, Limit: granted, ReturnConsumedCapacity: 'TOTAL' }));
    entries = page.ScannedCount ?? 0;
    if (stats) {
      stats.requests++;
      stats.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
      if (stats.itemsRead !== undefined) stats.itemsRead += entries;
      if (stats.indexEntries !== undefined) stats.indexEntries += entries;
    }
    return page;
  } finally {
    // Also counts the entries toward the request's read quota (the budget's meter).
    budget.settle(granted, entries);
  }
}

/** A query read a page at a time, each page where the last one stopped, until none is left. */
export class QueryCursor {
  private startKey: Item | undefined;
  /** No page is left. */
  done = false;

  constructor(
    private readonly input: QueryCommandInput,
    private readonly options: PageOptions = {},
  ) {
    this.startKey = input.ExclusiveStartKey as Item | undefined;
  }

  /** The next page, evaluating at most `want` entries (see `queryPage`). */
  async next(want?: number): Promise<QueryPage> {
    const page = await queryPage({ ...this.input, ExclusiveStartKey: this.startKey }, this.options, want);
    this.startKey = page.LastEvaluatedKey;
    this.done = page.LastEvaluatedKey === undefined;
    return page;
  }
}

/**
 * Every page of `input`, in order. `maxItems`: stop once this many items came back, each request
 * limited to what is left.
 */
export async function* queryPages(
  input: QueryCommandInput,
  options: PageOptions & { maxItems?: number; want?: number } = {},
): AsyncGenerator<QueryPage> {
  const { maxItems = Number.POSITIVE_INFINITY, want, ...pageOptions } = options;
  const cursor = new QueryCursor(input, pageOptions);
  let items = 0;
  do {
    const page = await cursor.next(Number.isFinite(maxItems) ? maxItems - items : want);
    items += page.Items?.length ?? 0;
    yield page;
  } while (!cursor.done && items < maxItems);
}

/** Every item of `input` (at most `maxItems`: see `queryPages`), page after page. */
export async function queryAll(
  input: QueryCommandInput,
  options: PageOptions & { maxItems?: number; want?: number } = {},
): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(input, options)) items.push(...(page.Items ?? []));
  return items;
}
