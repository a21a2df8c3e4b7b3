import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient, StoreStartError } from '../../infra/local/store';
import type { Action } from '../../lib/model/action';
import { newAction } from '../../lib/model/edits';
import type { CreateActionBody } from '../../lib/model/validation';
import { createTable } from '../../lib/store/bulk/upgrade';
import { toItem } from '../../lib/store/item';
import { attr, globalSecondaryIndexes, indexes, indexList, itemKind } from '../../lib/store/table';

/**
 * A store on disk outlives an upgrade: `npm start` on a DATA_DIR an earlier version filled must
 * add the indexes that version lacked and give its actions the keys they order by, or the new
 * sorts would miss them. Here the earlier version is a table without the priority and name
 * indexes, holding an action written without their keys, in the test stack's DynamoDB Local.
 */

let endpoint: string;
const client = () => DynamoDBDocumentClient.from(localClient(endpoint));
const added: string[] = [indexes.allByPriority.name, indexes.allByOwnerName.name, indexes.allByAssigneeName.name];
const newKeys = [attr.priorityOrderKey, attr.ownerNameKey, attr.assigneeNameKey];

beforeAll(() => {
  endpoint = inject('storeEndpoint');
});

/** A table as the version before the priority and name indexes made it, give or take `change`. */
async function earlierTable(name: string, change: (indexes: ReturnType<typeof globalSecondaryIndexes>) => void) {
  const earlier = globalSecondaryIndexes().filter((index) => !added.includes(index.IndexName));
  change(earlier);
  await createTable(localClient(endpoint), name, earlier);
}

/** An action as the service would create it, through the domain's own constructor. */
const action = (priority: number): Action => {
  const person = { id: `u-${randomUUID()}`, name: 'Ann Lee', email: null };
  const body: CreateActionBody = {
    title: 'Guard missing on tail pulley',
    actionProducer: { name: 'Inspections' },
    location: { site: 'North Pit' },
    dueAt: new Date().toISOString(),
    priority,
    status: 1,
  };
  return newAction(randomUUID(), body, person, person, new Date().toISOString());
};

describe('npm start on a store an earlier version made', () => {
  it('adds the indexes it lacks and gives its actions their keys', async () => {
    const name = `upgrade-${randomUUID()}`;
    await earlierTable(name, () => {});
    const old = [action(3), action(7)];
    for (const a of old) {
      const item = toItem(a);
      for (const key of newKeys) delete item[key];
      await client().send(new PutCommand({ TableName: name, Item: item }));
    }

    await ensureTable(endpoint, name);

    const table = (await localClient(endpoint).send(new DescribeTableCommand({ TableName: name }))).Table;
    expect(new Set(table?.GlobalSecondaryIndexes?.map((i) => i.IndexName))).toEqual(
      new Set(indexList.map((i) => i.name)),
    );
    for (const a of old) {
      const { Item } = await client().send(
        new GetCommand({ TableName: name, Key: { [attr.id]: a.id, [attr.sortKey]: itemKind.action } }),
      );
      expect(Item?.[attr.priorityOrderKey]).toBe(`00000000000000${a.priority}#${a.createdAt}#${a.id}`);
      expect(Item?.[attr.ownerNameKey]).toBe(`Ann Lee\u0001\u0001${a.createdAt}#${a.id}`);
      expect(Item?.[attr.assigneeNameKey]).toBe(`Unknown user\u0001\u0001${a.createdAt}#${a.id}`);
      // Nothing else moved: not the version, not the values.
      expect(Item?.[attr.version]).toBe(1);
      expect(Item?.[attr.filters]).toEqual(toItem(a)[attr.filters]);
    }
    // The actions are in the new index, in priority order.
    const shards = new Set(old.map((a) => toItem(a)[attr.everything] as string));
    const found: string[] = [];
    for (const shard of shards) {
      const page = await client().send(
        new QueryCommand({
          TableName: name,
          IndexName: indexes.allByPriority.name,
          KeyConditionExpression: '#k = :k',
          ExpressionAttributeNames: { '#k': attr.everything },
          ExpressionAttributeValues: { ':k': shard },
        }),
      );
      found.push(...(page.Items ?? []).map((i) => i[attr.id] as string));
    }
    expect(found.sort()).toEqual(old.map((a) => a.id).sort());

    // A second start finds nothing to do.
    await ensureTable(endpoint, name);
  });

  it('rewrites the ordered keys of a store whose ties were by id alone (keys before the createdAt tie rule)', async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const old = [action(3), action(3)];
    // Keys as version 1 composed them: `<value>#<id>`, `<title>\u0001<id>`, `<name>\u0001\u0001<id>`.
    for (const a of old) {
      const item = toItem(a);
      item[attr.dueKey] = `${a.dueAt}#${a.id}`;
      item[attr.updatedKey] = `${a.updatedAt}#${a.id}`;
      item[attr.priorityOrderKey] = `00000000000000${a.priority}#${a.id}`;
      item[attr.titleKey] = `${(item[attr.titleLower] as string) ?? ''}\u0001${a.id}`;
      item[attr.ownerNameKey] = `Ann Lee\u0001\u0001${a.id}`;
      await client().send(new PutCommand({ TableName: name, Item: item }));
    }
    await ensureTable(endpoint, name);
    for (const a of old) {
      const { Item } = await client().send(
        new GetCommand({ TableName: name, Key: { [attr.id]: a.id, [attr.sortKey]: itemKind.action } }),
      );
      const expected = toItem(a);
      for (const key of [attr.dueKey, attr.updatedKey, attr.priorityOrderKey, attr.titleKey, attr.ownerNameKey])
        expect(Item?.[key], key).toBe(expected[key]);
      expect(Item?.[attr.dueKey]).toBe(`${a.dueAt}#${a.createdAt}#${a.id}`);
      expect(Item?.[attr.version]).toBe(1);
    }
    // The counters by status an earlier version did not keep are counted from the actions.
    const { Item: pair } = await client().send(
      new GetCommand({
        TableName: name,
        Key: { [attr.id]: 'n#location.site&status#1#North Pit', [attr.sortKey]: '00' },
      }),
    );
    expect(pair?.[attr.count]).toBe(2);
    // The table is marked: a second start reads no action again (an old key put back stays).
    const [first] = old as [Action];
    await client().send(
      new PutCommand({ TableName: name, Item: { ...toItem(first), [attr.dueKey]: `${first.dueAt}#${first.id}` } }),
    );
    await ensureTable(endpoint, name);
    const { Item } = await client().send(
      new GetCommand({ TableName: name, Key: { [attr.id]: first.id, [attr.sortKey]: itemKind.action } }),
    );
    expect(Item?.[attr.dueKey]).toBe(`${first.dueAt}#${first.id}`);
  });

  it('refuses, naming it, an index whose keys or projection changed', async () => {
    const name = `upgrade-${randomUUID()}`;
    await earlierTable(name, (earlier) => {
      const title = earlier.find((i) => i.IndexName === indexes.allByTitle.name);
      if (title) title.Projection = { ProjectionType: 'KEYS_ONLY' } as never;
    });
    const failure = await ensureTable(endpoint, name).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreStartError);
    expect((failure as Error).message).toMatch(/index all-by-title differs.*move DATA_DIR's dynamodb folder aside/);
  });
});
