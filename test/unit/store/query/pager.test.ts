import type { QueryCommand, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newStats } from '../../../../lib/store/list/plan/result';
import { BudgetSpent, ReadBudget } from '../../../../lib/store/query/budget';
import { QueryCursor, type QueryPage, queryAll, queryPage, queryPages } from '../../../../lib/store/query/pager';

/**
 * A partition of `size` items served as DynamoDB pages it: at most `Limit` (or `pageSize`)
 * evaluated a request, continuing after `ExclusiveStartKey`, half a read unit an item. Records
 * every request it is sent.
 */
function partition(size: number, pageSize = 4) {
  const items = Array.from({ length: size }, (_, i) => ({ id: 'p', sk: String(i).padStart(3, '0') }));
  const sent: Array<Record<string, unknown>> = [];
  const via = async <T>(command: object): Promise<T> => {
    const input = (command as QueryCommand).input;
    sent.push(input);
    const after = (input.ExclusiveStartKey?.sk as string | undefined) ?? '';
    const rest = items.filter((item) => item.sk > after);
    const page = rest.slice(0, Math.min(input.Limit ?? pageSize, pageSize));
    const last = page[page.length - 1];
    const answer: QueryPage = {
      Items: page,
      ScannedCount: page.length,
      ...(input.ReturnConsumedCapacity ? { ConsumedCapacity: { CapacityUnits: page.length / 2 } } : {}),
      ...(last && rest.length > page.length ? { LastEvaluatedKey: last } : {}),
    };
    return answer as T;
  };
  return { items, sent, via };
}

const input = { TableName: 't', KeyConditionExpression: '#n0 = :v0' };

describe('the pager', () => {
  it('follows LastEvaluatedKey to the end, each request starting where the last stopped', async () => {
    const { items, sent, via } = partition(10);
    expect(await queryAll(input, { via })).toEqual(items);
    expect(sent.map((request) => request.ExclusiveStartKey)).toEqual([undefined, items[3], items[7]]);
    // Nothing counted, nothing asked of DynamoDB about capacity.
    expect(sent.every((request) => request.ReturnConsumedCapacity === undefined)).toBe(true);
  });

  it('hands the pages out one by one as an async iterator', async () => {
    const { via } = partition(9);
    const sizes: number[] = [];
    for await (const page of queryPages(input, { via })) sizes.push(page.Items?.length ?? 0);
    expect(sizes).toEqual([4, 4, 1]);
  });

  it('counts requests and read units where the caller counts them, entries only when asked', async () => {
    const units = { requests: 0, readUnits: 0 };
    await queryAll(input, { via: partition(10).via, stats: units });
    expect(units).toEqual({ requests: 3, readUnits: 5 });
    const stats = newStats();
    await queryAll(input, { via: partition(10).via, stats, countEntries: true });
    expect(stats).toEqual({ requests: 3, readUnits: 5, itemsRead: 10, indexEntries: 0 });
  });

  it('stops at maxItems, each request limited to what is left', async () => {
    const { sent, via } = partition(10);
    expect(await queryAll(input, { via, maxItems: 6 })).toHaveLength(6);
    expect(sent.map((request) => request.Limit)).toEqual([6, 2]);
  });

  it('starts after the start key of the request itself', async () => {
    const { items, via } = partition(6);
    const found = await queryAll({ ...input, ExclusiveStartKey: items[1] }, { via });
    expect(found).toEqual(items.slice(2));
  });

  it('under a budget, asks for each page first, passes the grant as its Limit, and stops with BudgetSpent', async () => {
    const { sent, via } = partition(20);
    const budget = new ReadBudget(6);
    const stats = newStats();
    const cursor = new QueryCursor(input, { via, budget, stats });
    expect((await cursor.next(4)).Items).toHaveLength(4);
    expect((await cursor.next(4)).Items).toHaveLength(2);
    await expect(cursor.next(4)).rejects.toBeInstanceOf(BudgetSpent);
    expect(sent.map((request) => [request.Limit, request.ReturnConsumedCapacity])).toEqual([
      [4, 'TOTAL'],
      [2, 'TOTAL'],
    ]);
    expect(budget.spent).toBe(6);
    expect(stats).toEqual({ requests: 2, readUnits: 3, itemsRead: 6, indexEntries: 6 });
  });

  it("reads through another owner's reader, passing what each page may read", async () => {
    const asked: number[] = [];
    const { via } = partition(5);
    const read = async (request: QueryCommandInput, want: number) => {
      asked.push(want);
      return queryPage(request, { via }, want);
    };
    expect(await queryAll(input, { read, want: 2 })).toHaveLength(5);
    expect(asked).toEqual([2, 2, 2]);
  });
});
