import { describe, expect, it } from 'vitest';
import { indexes } from '../../../../lib/store/indexes';
import { Placeholders } from '../../../../lib/store/list/plan/expression';
import { queryInput } from '../../../../lib/store/query/key-query';

/** A request's key condition with its placeholders put back, to read as DynamoDB would. */
function spelled(expression: string | undefined, names: Record<string, string>, values: Record<string, unknown>) {
  return (expression ?? '')
    .replace(/#n\d+/g, (name) => names[name] as string)
    .replace(/:v\d+/g, (value) => JSON.stringify(values[value]));
}

const read = (input: ReturnType<typeof queryInput>) => ({
  key: spelled(
    input.KeyConditionExpression,
    input.ExpressionAttributeNames ?? {},
    input.ExpressionAttributeValues as Record<string, unknown>,
  ),
  filter: spelled(
    input.FilterExpression,
    input.ExpressionAttributeNames ?? {},
    input.ExpressionAttributeValues as Record<string, unknown>,
  ),
});

describe('queryInput', () => {
  it('keys a partition of the table by its own keys, with nothing else set', () => {
    const input = queryInput({ table: 't', partition: 'nr' });
    expect(input).toEqual({
      TableName: 't',
      KeyConditionExpression: '#n0 = :v0',
      ExpressionAttributeNames: { '#n0': 'id' },
      ExpressionAttributeValues: { ':v0': 'nr' },
    });
  });

  it.each([
    [{ op: '=', value: 'A' }, 'sk = "A"'],
    [{ op: '<', value: 'b$' }, 'sk < "b$"'],
    [{ op: '<=', value: 'b~' }, 'sk <= "b~"'],
    [{ op: '>', value: 'c' }, 'sk > "c"'],
    [{ op: '>=', value: 3 }, 'sk >= 3'],
    [{ op: 'between', from: 'a', to: 'z' }, 'sk BETWEEN "a" AND "z"'],
    [{ op: 'begins_with', prefix: 'h#' }, 'begins_with(sk, "h#")'],
  ] as const)('writes the sort key condition %j', (sort, written) => {
    expect(read(queryInput({ table: 't', partition: 'p', sort })).key).toBe(`id = "p" AND ${written}`);
  });

  it("names an index and queries by its keys, never the table's", () => {
    const input = queryInput({
      table: 't',
      index: indexes.remindersByDue,
      partition: 'R0#3',
      sort: { op: '<', value: 'x' },
    });
    expect(input.IndexName).toBe(indexes.remindersByDue.name);
    expect(read(input).key).toBe(
      `${indexes.remindersByDue.partitionKey.name} = "R0#3" AND ${indexes.remindersByDue.sortKey.name} < "x"`,
    );
  });

  it('sets direction, limit, consistency, start key and projection (a path named twice once) only when asked', () => {
    const input = queryInput({
      table: 't',
      partition: 'a',
      projection: ['type', 'changes.status', 'type', 'action.status'],
      descending: true,
      limit: 5,
      consistent: true,
      startKey: { id: 'a', sk: 'h#1' },
    });
    expect(input).toMatchObject({ ScanIndexForward: false, Limit: 5, ConsistentRead: true });
    expect(input.ExclusiveStartKey).toEqual({ id: 'a', sk: 'h#1' });
    expect(spelled(input.ProjectionExpression, input.ExpressionAttributeNames ?? {}, {})).toBe(
      'type, changes.status, action.status',
    );
    const plain = queryInput({ table: 't', partition: 'a', descending: false, consistent: false });
    expect(Object.keys(plain).sort()).toEqual([
      'ExpressionAttributeNames',
      'ExpressionAttributeValues',
      'KeyConditionExpression',
      'TableName',
    ]);
  });

  it('builds the filter with the same placeholders as the key, so none collide', () => {
    const input = queryInput({
      table: 't',
      partition: 'wr#1',
      filter: (p) => `${p.name('nextDue')} <= ${p.value('2026-01-01')}`,
    });
    expect(read(input)).toEqual({ key: 'id = "wr#1"', filter: 'nextDue <= "2026-01-01"' });
  });

  it("continues a caller's placeholders (a list's filter built first)", () => {
    const p = new Placeholders();
    const filter = `${p.name('f.st')} = ${p.value(1)}`;
    const input = queryInput({ table: 't', partition: 'x', sort: { op: '>', value: 'k' } }, p);
    expect(filter).toBe('#n0.#n1 = :v0');
    expect(read(input).key).toBe('id = "x" AND sk > "k"');
  });

  it('never puts a value into the expression', () => {
    const input = queryInput({
      table: 't',
      partition: "') OR id = 'x",
      sort: { op: 'begins_with', prefix: '#n0 :v1' },
    });
    expect(input.KeyConditionExpression).toBe('#n0 = :v0 AND begins_with(#n1, :v1)');
  });
});
