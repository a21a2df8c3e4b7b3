import type { DynamoDBDocumentClient, ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../lib/store/item';
import { scanRequest, scanTable, segmentsFor } from '../../../lib/store/scan';
import { attr, itemKind } from '../../../lib/store/table';

/**
 * The store's one full-table scan: how many segments a table gets, the request each page sends,
 * and that every item reaches the caller once however the segments and pages fall (against a
 * stand-in client that answers Scan from an array, two items a page).
 */

describe('segmentsFor', () => {
  it('gives one segment a thousand items, at least one, at most DynamoDB allows', () => {
    expect(segmentsFor(0)).toBe(1);
    expect(segmentsFor(1)).toBe(1);
    expect(segmentsFor(1000)).toBe(1);
    expect(segmentsFor(1001)).toBe(2);
    expect(segmentsFor(130_000)).toBe(130);
    expect(segmentsFor(5e12)).toBe(1_000_000);
  });
});

describe('scanRequest', () => {
  it('asks for the whole item of every kind when told nothing', () => {
    expect(scanRequest('t', 0, {})).toEqual({
      TableName: 't',
      Segment: 0,
      TotalSegments: 1,
      ReturnConsumedCapacity: 'TOTAL',
    });
  });

  it('filters by sort key and projects attributes through placeholders, the filter attribute not projected', () => {
    const request = scanRequest('t', 3, { segments: 8, kind: itemKind.action, attributes: [attr.id, attr.version] });
    expect(request).toMatchObject({ Segment: 3, TotalSegments: 8 });
    expect(request.ProjectionExpression).toBe('#p0, #p1');
    expect(request.FilterExpression).toBe('#kind = :kind');
    expect(request.ExpressionAttributeValues).toEqual({ ':kind': itemKind.action });
    expect(request.ExpressionAttributeNames).toEqual({ '#p0': attr.id, '#p1': attr.version, '#kind': attr.sortKey });
  });
});

/** A client answering Scan from `items`, split by `index % TotalSegments`, two items a page. */
function standIn(items: Item[]) {
  const requests: ScanCommandInput[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const documents = {
    async send(command: { input: ScanCommandInput }) {
      const input = command.input;
      requests.push(input);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      const segment = items.filter((_, i) => i % (input.TotalSegments ?? 1) === (input.Segment ?? 0));
      const from = Number(input.ExclusiveStartKey?.at ?? 0);
      const page = segment.slice(from, from + 2);
      const kind = input.ExpressionAttributeValues?.[':kind'];
      return {
        Items: kind === undefined ? page : page.filter((item) => item[attr.sortKey] === kind),
        ScannedCount: page.length,
        ConsumedCapacity: { CapacityUnits: page.length / 2 },
        ...(from + 2 < segment.length ? { LastEvaluatedKey: { at: from + 2 } } : {}),
      };
    },
  };
  return {
    target: { documents: documents as unknown as DynamoDBDocumentClient, table: 't' },
    requests,
    mostInFlight: () => mostInFlight,
  };
}

const table = (n: number): Item[] =>
  Array.from({ length: n }, (_, i) => ({
    [attr.id]: `item-${i}`,
    [attr.sortKey]: i % 3 === 0 ? 'n' : itemKind.action,
  }));

describe('scanTable', () => {
  it('hands every item to the caller once, over many segments and pages, and sums what it read', async () => {
    const items = table(101);
    const { target, requests, mostInFlight } = standIn(items);
    const seen: string[] = [];
    const stats = await scanTable(
      async (page) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(...page.map((item) => String(item[attr.id])));
      },
      { segments: 20, target },
    );
    expect(seen.sort()).toEqual(items.map((item) => String(item[attr.id])).sort());
    expect(new Set(requests.map((r) => r.Segment))).toEqual(new Set(Array.from({ length: 20 }, (_, s) => s)));
    expect(stats).toEqual({ itemsRead: 101, readUnits: 50.5, requests: requests.length });
    // Segments are read a few at a time, not one after another nor all at once.
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(8);
  });

  it('counts every item read but hands over only the kind asked for', async () => {
    const items = table(30);
    const { target } = standIn(items);
    const seen: Item[] = [];
    const stats = await scanTable((page) => void seen.push(...page), { segments: 3, kind: itemKind.action, target });
    expect(seen).toHaveLength(20);
    expect(seen.every((item) => item[attr.sortKey] === itemKind.action)).toBe(true);
    expect(stats.itemsRead).toBe(30);
  });

  it("asks for a segment's next page only once the caller is done with the one before", async () => {
    const { target, requests } = standIn(table(10));
    const asked: number[] = [];
    await scanTable(
      async () => {
        asked.push(requests.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        asked.push(requests.length);
      },
      { target },
    );
    // One segment, five pages: no request went out while a page was being handled.
    expect(asked).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
  });

  it('fails with the first failure of its callback', async () => {
    const { target } = standIn(table(10));
    await expect(
      scanTable(
        () => {
          throw new Error('write refused');
        },
        { segments: 2, target },
      ),
    ).rejects.toThrow('write refused');
  });
});
