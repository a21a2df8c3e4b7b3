import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient, StoreStartError } from '../../infra/local/store';
import { postingsTableOf } from '../../lib/config';
import type { Action } from '../../lib/model/action';
import { newAction } from '../../lib/model/edits';
import type { HistoryEntry } from '../../lib/model/history';
import type { CreateActionBody } from '../../lib/model/validation';
import { toView } from '../../lib/model/view';
import { createTable } from '../../lib/store/bulk/upgrade';
import {
  addDays,
  DAY_COUNTERS,
  type DayCounted,
  type DayDeltas,
  dayAttribute,
  dayFields,
  daySortKey,
  dueByStatusOf,
} from '../../lib/store/counters/days';
import { locationCounter } from '../../lib/store/counters/prefixes';
import { globalSecondaryIndexes, indexes, indexList } from '../../lib/store/indexes';
import { historyItem, toItem } from '../../lib/store/item';
import { encodeLocation } from '../../lib/store/location-tuple';
import { referenceEntry } from '../../lib/store/reference-order';
import { type RegisteredField, registryPartition } from '../../lib/store/registry';
import { createdKeyOf, indexedText } from '../../lib/store/search/keys';
import { postingRequests } from '../../lib/store/search/postings';
import { attr, filterKey, itemKind, lowerKey, webhookKeys } from '../../lib/store/table';

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

/**
 * The ids of the actions whose postings of `field` (title `t`, reference `r`) hold `gram`, in the
 * postings' table of table `name` (or, with `where: 'table'`, left in the table itself).
 */
const gramIds = async (name: string, field: 't' | 'r', gram: string, where: 'postings' | 'table' = 'postings') => {
  const page = await client().send(
    new QueryCommand({
      TableName: where === 'postings' ? postingsTableOf(name) : name,
      KeyConditionExpression: '#id = :p',
      ExpressionAttributeNames: { '#id': attr.id },
      ExpressionAttributeValues: { ':p': `g#${field}#${gram}` },
    }),
  );
  return (page.Items ?? []).map((i) => String(i[attr.sortKey]).split('#').pop());
};

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
    // The same pass over the actions wrote their search postings (the table had none: no mark).
    expect((await gramIds(name, 't', 'gua')).sort()).toEqual(old.map((a) => a.id).sort());

    // A second start finds nothing to do.
    await ensureTable(endpoint, name);
  });

  it('registers the values its actions have (a store made before the value registry), once', async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const south = action(2);
    const old = [action(3), { ...south, location: { ...south.location, site: 'South Pit', businessUnit: 'Iron Ore' } }];
    for (const a of old) await client().send(new PutCommand({ TableName: name, Item: toItem(a) }));

    await ensureTable(endpoint, name);

    const registered = async (field: RegisteredField) => {
      const page = await client().send(
        new QueryCommand({
          TableName: postingsTableOf(name),
          KeyConditionExpression: '#id = :p',
          ExpressionAttributeNames: { '#id': attr.id },
          ExpressionAttributeValues: { ':p': registryPartition(field) },
        }),
      );
      return (page.Items ?? []).map((i) => i[attr.sortKey]);
    };
    // In value order; '' (the first action's business unit) is never registered.
    expect(await registered('location.site')).toEqual(['North Pit', 'South Pit']);
    expect(await registered('location.businessUnit')).toEqual(['Iron Ore']);
    expect(await registered('actionProducer.name')).toEqual(['Inspections']);
    expect(await registered('owner')).toEqual(old.map((a) => a.owner.id).sort());
    expect(await registered('assignee')).toEqual(['undefined']);
    const mark = await client().send(
      new GetCommand({ TableName: postingsTableOf(name), Key: { [attr.id]: 'g#registry', [attr.sortKey]: '3' } }),
    );
    expect(mark.Item).toBeDefined();
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
    // A counter item as version 4 kept it (a status of its own, no status in the sort key).
    await client().send(
      new PutCommand({ TableName: name, Item: { [attr.id]: 'n#status#3', [attr.sortKey]: '00', [attr.count]: 7 } }),
    );
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
    // Every counter is counted again from the actions, the status in its sort key (version 5),
    // and the items of the earlier layout are gone.
    const counter = async (id: string, sk: string) =>
      (await client().send(new GetCommand({ TableName: name, Key: { [attr.id]: id, [attr.sortKey]: sk } }))).Item;
    expect((await counter('n#location.site#North Pit', '00#1'))?.[attr.count]).toBe(2);
    expect((await counter('n#all#', '00#1'))?.[attr.count]).toBe(2);
    expect(await counter('n#status#3', '00')).toBeUndefined();
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

  it('counts the day counters of a store made before them (key version 6), once', async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const old = [action(1), action(2), { ...action(3), dueAt: '2030-05-06T07:08:09.000Z' }];
    for (const put of [...old.map((a) => toItem(a)), { [attr.id]: 'm#keys', [attr.sortKey]: 'm', [attr.count]: 6 }])
      await client().send(new PutCommand({ TableName: name, Item: put }));
    const days = async () => {
      const page = await client().send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: '#id = :p',
          ExpressionAttributeNames: { '#id': attr.id },
          ExpressionAttributeValues: { ':p': DAY_COUNTERS },
        }),
      );
      return (page.Items ?? []).map(({ sk, c, u, d }) => ({ sk, c, u, d }));
    };
    await ensureTable(endpoint, name);
    const created = (old[0] as Action).createdAt.slice(0, 10);
    const due = (old[0] as Action).dueAt.slice(0, 10);
    const expected =
      created === due
        ? [
            { sk: daySortKey(created, 0), c: 3, u: 3, d: 2 },
            { sk: daySortKey('2030-05-06', 0), c: undefined, u: undefined, d: 1 },
          ]
        : expect.arrayContaining([{ sk: daySortKey('2030-05-06', 0), c: undefined, u: undefined, d: 1 }]);
    expect(await days()).toEqual(expected);
    // Marked: a second start counts nothing again.
    await ensureTable(endpoint, name);
    expect(await days()).toEqual(expected);
  });

  it("keeps each whole location's counter under the location in shared partitions (key version 7), the day counters kept", async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const north = action(1);
    const south = { ...action(2), location: { ...north.location, site: 'South Pit' } };
    const old = [north, south, { ...north, id: randomUUID() }];
    // Version 7: a whole location's counter named by a digest; day counters already counted.
    for (const put of [
      ...old.map((a) => toItem(a)),
      { [attr.id]: 'm#keys', [attr.sortKey]: 'm', [attr.count]: 7 },
      { [attr.id]: 'n#scope&7#digest', [attr.sortKey]: '00', [attr.count]: 3 },
      { [attr.id]: DAY_COUNTERS, [attr.sortKey]: daySortKey('2030-01-01', 0), d: 1 },
    ])
      await client().send(new PutCommand({ TableName: name, Item: put }));

    await ensureTable(endpoint, name);

    const items = (await client().send(new ScanCommand({ TableName: name }))).Items ?? [];
    const counters = items.filter((i) => String(i[attr.id]).startsWith('n#'));
    expect(counters.find((i) => i[attr.id] === 'n#scope&7#digest')).toBeUndefined();
    const locations = counters.filter((i) => String(i[attr.id]).startsWith(`n#${locationCounter}@`));
    expect(Object.fromEntries(locations.map((i) => [i[attr.sortKey], i[attr.count]]))).toEqual({
      [encodeLocation(north.location) as string]: 2,
      [encodeLocation(south.location) as string]: 1,
    });
    // Counted again from the actions: the stray day is gone, the actions' days are there.
    const days = counters.filter((i) => i[attr.id] === DAY_COUNTERS);
    expect(days.some((i) => i[attr.sortKey] === daySortKey('2030-01-01', 0))).toBe(false);
    expect(days.reduce((sum, i) => sum + Number(i.c ?? 0), 0)).toBe(3);
    // And every action its entry in reference order.
    const order = items.filter((i) => String(i[attr.id]).startsWith('o#reference#'));
    expect(order.map((i) => i[attr.sortKey]).sort()).toEqual(old.map((a) => referenceEntry(a)[attr.sortKey]).sort());
  });

  it("fills closedAt from each closed action's history (key version 8), and counts it by day, once", async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const actor = { id: 'u-ann', name: 'Ann Lee', email: null };
    /**
     * An action created at `createdAt` with `status`, then moved through `moves` ([time, status]),
     * stored as version 8 left it: its last status, no `closedAt`, and its history entries.
     */
    const stored = (createdAt: string, status: number, moves: Array<[string, number]>) => {
      const created: Action = { ...action(2), status, createdAt, updatedAt: createdAt, closedAt: null };
      const entries: HistoryEntry[] = [{ version: 1, type: 'created', actor, time: createdAt }];
      let now = created;
      for (const [time, next] of moves) {
        const version = now.version + 1;
        entries.push({
          version,
          type: 'updated',
          actor,
          time,
          changes: { status: { before: now.status, after: next } },
        });
        now = { ...now, status: next, updatedAt: time, version };
      }
      const items = [
        toItem(now),
        ...entries.map((e, i) =>
          historyItem({ ...e, actionId: now.id, ...(i === 0 ? { action: toView(created) } : {}) }),
        ),
      ];
      return { action: now, items };
    };
    // Closed once (1 -> 3); created closed (4); closed, reopened, closed again, then moved
    // between closed statuses (4 -> 3, not a close); closed and reopened (open: null); never closed.
    const closedOnce = stored('2026-03-01T08:00:00.000Z', 1, [['2026-03-02T10:00:00.000Z', 3]]);
    const createdClosed = stored('2026-03-03T09:00:00.000Z', 4, []);
    const reclosed = stored('2026-03-01T08:30:00.000Z', 1, [
      ['2026-03-02T11:00:00.000Z', 3],
      ['2026-03-04T12:00:00.000Z', 1],
      ['2026-03-05T13:00:00.000Z', 4],
      ['2026-03-06T14:00:00.000Z', 3],
    ]);
    const reopened = stored('2026-03-01T09:00:00.000Z', 1, [
      ['2026-03-02T12:00:00.000Z', 4],
      ['2026-03-03T12:00:00.000Z', 2],
    ]);
    const open = stored('2026-03-01T10:00:00.000Z', 1, []);
    const all = [closedOnce, createdClosed, reclosed, reopened, open];
    const expected: Record<string, string | null> = {
      [closedOnce.action.id]: '2026-03-02T10:00:00.000Z',
      [createdClosed.action.id]: '2026-03-03T09:00:00.000Z',
      [reclosed.action.id]: '2026-03-05T13:00:00.000Z',
      [reopened.action.id]: null,
      [open.action.id]: null,
    };
    // Version 8's day counters: right for created, updated and due; a stray closedAt count
    // (on a day no action closed) that the recount of `x` must remove.
    const before: DayDeltas = new Map();
    for (const { action: a } of all) addDays(before, a, 1);
    const dayPuts = [...before].reduce<Map<string, Record<string, unknown>>>((items, [key, n]) => {
      const [day, field] = key.split('\u0000') as [string, DayCounted];
      const item = items.get(day) ?? { [attr.id]: DAY_COUNTERS, [attr.sortKey]: daySortKey(day, 0) };
      items.set(day, { ...item, [dayAttribute(field)]: n });
      return items;
    }, new Map());
    for (const put of [
      ...all.flatMap((s) => s.items),
      ...dayPuts.values(),
      { [attr.id]: DAY_COUNTERS, [attr.sortKey]: daySortKey('2026-03-09', 2), [dayFields.closedAt]: 5 },
      { [attr.id]: 'm#keys', [attr.sortKey]: 'm', [attr.count]: 8 },
    ])
      await client().send(new PutCommand({ TableName: name, Item: put }));

    await ensureTable(endpoint, name);

    const read = async (id: string) =>
      (
        await client().send(
          new GetCommand({
            TableName: name,
            Key: { [attr.id]: id, [attr.sortKey]: itemKind.action },
            ConsistentRead: true,
          }),
        )
      ).Item;
    for (const { action: a } of all) {
      const item = await read(a.id);
      expect(item?.[attr.filters]?.[filterKey.closedAt] ?? null, a.id).toBe(expected[a.id]);
      // Nothing else moved: not the version, not the other values.
      expect(item?.[attr.version]).toBe(a.version);
      expect(item).toEqual(toItem({ ...a, closedAt: expected[a.id] ?? null }));
    }
    // Every day counter exactly what the filled actions make, summed over shards.
    const days = async () => {
      const page = await client().send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: '#id = :p',
          ExpressionAttributeNames: { '#id': attr.id },
          ExpressionAttributeValues: { ':p': DAY_COUNTERS },
          ConsistentRead: true,
        }),
      );
      const sums = new Map<string, number>();
      for (const item of page.Items ?? [])
        for (const [field, a] of Object.entries(dayFields)) {
          const n = Number(item[a] ?? 0);
          const key = `${String(item[attr.sortKey]).slice(0, 10)} ${field}`;
          if (n !== 0) sums.set(key, (sums.get(key) ?? 0) + n);
        }
      // And the due days by status (`d<status>`, issue 53), counted again by the recount of 10.
      for (const item of page.Items ?? [])
        for (const [status, n] of dueByStatusOf(item)) {
          const key = `${String(item[attr.sortKey]).slice(0, 10)} dueAt@${status}`;
          if (n !== 0) sums.set(key, (sums.get(key) ?? 0) + n);
        }
      return Object.fromEntries([...sums].sort());
    };
    const after: DayDeltas = new Map();
    for (const { action: a } of all) addDays(after, { ...a, closedAt: expected[a.id] ?? null }, 1);
    // The service's days (`<partition>\u0000<day>\u0000<field>`): no action here is overdue, so no site has overdue days.
    const want = Object.fromEntries(
      [...after]
        .filter(([key]) => key.startsWith(`${DAY_COUNTERS}\u0000`))
        .map(([key, n]) => [key.slice(DAY_COUNTERS.length + 1).replace('\u0000', ' '), n] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    expect([...after.keys()].every((key) => key.startsWith(`${DAY_COUNTERS}\u0000`))).toBe(true);
    expect(want).toMatchObject({ '2026-03-02 closedAt': 1, '2026-03-03 closedAt': 1, '2026-03-05 closedAt': 1 });
    expect(await days()).toEqual(want);

    // Marked: a second start fills and counts nothing again (a closed action's closedAt taken
    // away by hand stays away).
    await client().send(new PutCommand({ TableName: name, Item: closedOnce.items[0] }));
    await ensureTable(endpoint, name);
    expect((await read(closedOnce.action.id))?.[attr.filters]?.[filterKey.closedAt]).toBeUndefined();
    expect(await days()).toEqual(want);
  });

  it('refuses, naming it, an index whose keys changed', async () => {
    const name = `upgrade-${randomUUID()}`;
    await earlierTable(name, (earlier) => {
      const title = earlier.find((i) => i.IndexName === indexes.allByTitle.name);
      if (title) title.KeySchema = [{ AttributeName: attr.everything, KeyType: 'HASH' }] as never;
    });
    const failure = await ensureTable(endpoint, name).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreStartError);
    expect((failure as Error).message).toMatch(/index all-by-title differs.*move DATA_DIR's dynamodb folder aside/);
  });

  it('builds again an index whose projection changed (reminders-by-due, keys only before issue 53), its entries projected as now', async () => {
    const name = `upgrade-${randomUUID()}`;
    await earlierTable(name, (earlier) => {
      const reminders = earlier.find((i) => i.IndexName === indexes.remindersByDue.name);
      if (reminders) reminders.Projection = { ProjectionType: 'KEYS_ONLY' } as never;
    });
    const open = action(2);
    await client().send(new PutCommand({ TableName: name, Item: toItem(open) }));
    const projected = async () =>
      (
        await localClient(endpoint).send(new DescribeTableCommand({ TableName: name }))
      ).Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexes.remindersByDue.name)?.Projection;
    expect((await projected())?.ProjectionType).toBe('KEYS_ONLY');

    await ensureTable(endpoint, name);
    expect(await projected()).toMatchObject({ ProjectionType: 'INCLUDE', NonKeyAttributes: [attr.filters] });
    const { Items } = await client().send(
      new QueryCommand({
        TableName: name,
        IndexName: indexes.remindersByDue.name,
        KeyConditionExpression: '#k = :k',
        ExpressionAttributeNames: { '#k': attr.reminderKey },
        ExpressionAttributeValues: { ':k': toItem(open)[attr.reminderKey] },
      }),
    );
    // The item stored before the rebuild is in it, with its filter values.
    expect(Items?.map((i) => [i[attr.id], i[attr.filters]?.[filterKey.priority]])).toEqual([[open.id, 2]]);
  });
});

describe('npm start on a store whose text was folded by lower-casing (issue 42: Unicode full case folding)', () => {
  /** How an earlier version folded: NFC, lower case, NFC. */
  const lowerFold = (text: string) => text.normalize('NFC').toLowerCase().normalize('NFC');

  it('re-keys the folded copies, the title key and the search postings of the texts the new fold changes', async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const a = { ...action(2), title: 'ΟΔΟΣ Straße', actionProducer: { name: 'Inspections', reference: 'ΟΔΟΣ-7' } };
    const plain = { ...action(2), title: 'Plain pump guard' };
    const oldTitle = lowerFold(a.title);
    const item = toItem(a);
    const filters = item[attr.filters] as Record<string, unknown>;
    filters[filterKey.titleLower] = oldTitle;
    filters[lowerKey(filterKey.producerReference)] = lowerFold('ΟΔΟΣ-7');
    item[attr.titleLower] = oldTitle;
    item[attr.titleKey] = `${oldTitle}\u0001${a.createdAt}\u0001${a.id}`;
    for (const put of [item, toItem(plain), { [attr.id]: 'm#keys', [attr.sortKey]: 'm', [attr.count]: 3 }])
      await client().send(new PutCommand({ TableName: name, Item: put }));
    // The postings as the earlier version wrote them, in the table itself (the index was built:
    // its mark is there too); this version keeps them in a table of its own.
    await client().send(new PutCommand({ TableName: name, Item: { [attr.id]: 'g#built', [attr.sortKey]: '1' } }));
    const earlier = { t: oldTitle, r: lowerFold('ΟΔΟΣ-7') };
    for (const request of postingRequests(createdKeyOf(indexedText(a)), undefined, earlier))
      await client().send(new PutCommand({ TableName: name, Item: request.PutRequest?.Item }));

    await ensureTable(endpoint, name);
    const { Item } = await client().send(
      new GetCommand({ TableName: name, Key: { [attr.id]: a.id, [attr.sortKey]: itemKind.action } }),
    );
    const expected = toItem(a);
    expect(Item?.[attr.titleLower]).toBe('οδοσ strasse');
    expect(Item?.[attr.titleKey]).toBe(expected[attr.titleKey]);
    expect(Item?.[attr.filters]).toEqual(expected[attr.filters]);
    expect(Item?.[attr.version]).toBe(1);
    // Grams only the old fold had are gone; the new fold's are there.
    for (const gram of ['δος', 'ος ', 'aße']) expect(await gramIds(name, 't', gram), gram).toEqual([]);
    for (const gram of ['δοσ', 'οσ ', 'sse']) expect(await gramIds(name, 't', gram), gram).toEqual([a.id]);
    expect(await gramIds(name, 'r', 'οσ-')).toEqual([a.id]);
    expect(await gramIds(name, 'r', 'ος-')).toEqual([]);
    // Nothing of the index is left in the table: its postings and its mark moved.
    for (const gram of ['δος', 'ος ', 'aße', 'ος-']) expect(await gramIds(name, 't', gram, 'table'), gram).toEqual([]);
    const { Item: built } = await client().send(
      new GetCommand({ TableName: name, Key: { [attr.id]: 'g#built', [attr.sortKey]: '1' } }),
    );
    expect(built).toBeUndefined();
  });
});

describe('npm start on a store holding webhook attempts in the shared partitions', () => {
  it('moves each to its subscription queue, with a marker, once', async () => {
    const name = `upgrade-${randomUUID()}`;
    await createTable(localClient(endpoint), name);
    const subscriptionId = randomUUID();
    const deliveryId = randomUUID();
    const dueAt = new Date(Date.now() - 1000).toISOString();
    const key = `${dueAt}#${deliveryId}#AAAAAAAA`;
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    // As the version before per-subscription queues stored a retry: in `wq#<shard of delivery>`.
    const oldItem = {
      [attr.id]: 'wq#1',
      [attr.sortKey]: key,
      ownerId: 'u-owner',
      subscriptionId,
      deliveryId,
      manual: false,
      [attr.expiresAt]: expiresAt,
    };
    await client().send(new PutCommand({ TableName: name, Item: oldItem }));
    const everything = async () =>
      ((await client().send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? []).sort((a, b) =>
        `${a[attr.id]}${a[attr.sortKey]}`.localeCompare(`${b[attr.id]}${b[attr.sortKey]}`),
      );

    await ensureTable(endpoint, name);

    const after = await everything();
    expect(after.filter((i) => /^wq#[0-3]$/.test(i[attr.id] as string))).toEqual([]);
    expect(after.filter((i) => i[attr.id] === webhookKeys.due(subscriptionId))).toEqual([
      {
        [attr.id]: webhookKeys.due(subscriptionId),
        [attr.sortKey]: key,
        ownerId: 'u-owner',
        deliveryId,
        manual: false,
        [attr.expiresAt]: expiresAt,
      },
    ]);
    const markers = after.filter((i) => (i[attr.id] as string).startsWith('wr#'));
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({ [attr.sortKey]: subscriptionId, ownerId: 'u-owner', nextDue: dueAt, writes: 1 });
    expect(Array.from({ length: webhookKeys.readyShards }, (_, s) => webhookKeys.ready(s))).toContain(
      markers[0]?.[attr.id],
    );

    // A second start finds nothing to move and changes nothing.
    await ensureTable(endpoint, name);
    expect(await everything()).toEqual(after);

    // A move cut short between the new put and the old delete, run again, leaves one attempt.
    await client().send(new PutCommand({ TableName: name, Item: oldItem }));
    await ensureTable(endpoint, name);
    const again = await everything();
    expect(again.filter((i) => /^wq#[0-3]$/.test(i[attr.id] as string))).toEqual([]);
    expect(again.filter((i) => i[attr.id] === webhookKeys.due(subscriptionId))).toHaveLength(1);
  });
});
