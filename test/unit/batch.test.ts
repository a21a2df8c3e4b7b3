import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceUnavailableError } from '../../lib/errors';
import { batchGet, batchWrite } from '../../lib/store/batch';
import type { Item } from '../../lib/store/item';

/**
 * The store's one batch loop (`lib/store/batch.ts`). DynamoDB Local never leaves keys or items
 * unprocessed (it does not throttle), so the store's `send` is replaced here by a fake DynamoDB
 * that answers the way a throttled table does: the one fault the integration tests cannot make.
 */

const TABLE = 'unit-table';
const sent: Array<{ input: Record<string, unknown> }> = [];
let answer: (input: Record<string, unknown>) => unknown;

vi.mock('../../lib/store/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/store/client')>()),
  tableName: () => TABLE,
  send: async (command: { input: Record<string, unknown> }) => {
    sent.push(command);
    return answer(command.input);
  },
}));

const keysOf = (n: number, from = 0): Item[] => Array.from({ length: n }, (_, i) => ({ id: `a${from + i}`, sk: 'A' }));
const requested = (input: Record<string, unknown>) =>
  ((input.RequestItems as Record<string, { Keys: Item[] }>)[TABLE] as { Keys: Item[] }).Keys;
const puts = (input: Record<string, unknown>) =>
  (input.RequestItems as Record<string, Array<{ PutRequest: { Item: Item } }>>)[TABLE] as Array<{
    PutRequest: { Item: Item };
  }>;

beforeEach(() => {
  sent.length = 0;
});

describe('batchGet', () => {
  it('reads 100 keys a request and returns every item found, with what the requests cost', async () => {
    answer = (input) => ({
      Responses: { [TABLE]: requested(input).map((key) => ({ ...key, title: 't' })) },
      ConsumedCapacity: [{ CapacityUnits: 1.5 }],
    });
    const result = await batchGet(keysOf(250));
    expect(sent.map((c) => requested(c.input).length)).toEqual([100, 100, 50]);
    expect(result.items.map((item) => item.id)).toEqual(keysOf(250).map((key) => key.id));
    expect(result.requests).toBe(3);
    expect(result.readUnits).toBe(4.5);
  });

  it('asks again for the unprocessed keys alone, until none is left', async () => {
    let round = 0;
    answer = (input) => {
      const keys = requested(input);
      round++;
      // The first two answers leave the last 30, then the last 10, unprocessed.
      const left = round === 1 ? 30 : round === 2 ? 10 : 0;
      return {
        Responses: { [TABLE]: keys.slice(0, keys.length - left) },
        UnprocessedKeys: left ? { [TABLE]: { Keys: keys.slice(keys.length - left) } } : {},
      };
    };
    const result = await batchGet(keysOf(100));
    expect(sent.map((c) => requested(c.input).length)).toEqual([100, 30, 10]);
    expect(new Set(result.items.map((item) => item.id)).size).toBe(100);
  });

  it('gives up after maxAttempts requests for one chunk: a 503, not a loop without end', async () => {
    answer = (input) => ({ Responses: { [TABLE]: [] }, UnprocessedKeys: { [TABLE]: { Keys: requested(input) } } });
    const failed = await batchGet(keysOf(5), { maxAttempts: 3 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ServiceUnavailableError);
    expect((failed as ServiceUnavailableError).status).toBe(503);
    expect(sent).toHaveLength(3);
  });

  it('reads strongly consistent and only the attributes asked for, when asked', async () => {
    answer = () => ({ Responses: { [TABLE]: [] } });
    await batchGet(keysOf(1), { consistent: true, attributes: ['id', 'text'] });
    expect(sent).toHaveLength(1);
    const request = (sent[0] as (typeof sent)[number]).input.RequestItems as Record<string, Record<string, unknown>>;
    expect(request[TABLE]).toMatchObject({
      ConsistentRead: true,
      ProjectionExpression: '#a0, #a1',
      ExpressionAttributeNames: { '#a0': 'id', '#a1': 'text' },
    });
  });

  it('sends nothing for no keys', async () => {
    expect((await batchGet([])).items).toEqual([]);
    expect(sent).toHaveLength(0);
  });
});

describe('batchWrite', () => {
  it('puts 25 items a request and sends the unprocessed ones again', async () => {
    let first = true;
    answer = (input) => {
      const requests = puts(input);
      // The first request leaves its last 5 puts unprocessed.
      const unprocessed = first ? requests.slice(20) : [];
      first = false;
      return { UnprocessedItems: unprocessed.length ? { [TABLE]: unprocessed } : {} };
    };
    await batchWrite(keysOf(60));
    expect(sent.map((c) => puts(c.input).length)).toEqual([25, 5, 25, 10]);
    expect(sent.flatMap((c) => puts(c.input).map((p) => p.PutRequest.Item.id)).sort()).toEqual(
      [...keysOf(60), ...keysOf(5, 20)].map((key) => key.id).sort(),
    );
  });

  it('gives up after maxAttempts requests for one chunk', async () => {
    answer = (input) => ({ UnprocessedItems: { [TABLE]: puts(input) } });
    await expect(batchWrite(keysOf(3), { maxAttempts: 2 })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(sent).toHaveLength(2);
  });
});
