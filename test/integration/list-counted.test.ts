import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { parseListQuery } from '../../lib/filter/query';
import { listActions } from '../../lib/store/list/run/open';
import { actionBody, create, dataDir, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 13: the common list shapes cost the page, not the matches. These run the real list code
 * in this process, against the stack's store, to read what a call cost (the HTTP answer does not
 * say); the actions themselves are created through HTTP.
 */

beforeAll(() => {
  // The store reads its configuration at first use, which is after this.
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
});

describe('a count-only list', () => {
  it('reads only the counters, however far it skips', async () => {
    const ann = newUser();
    const producer = uniqueProducer('count-only');
    for (let i = 0; i < 6; i++) await create(ann.token, actionBody(producer));
    const scope = q('actionProducer.name', producer);

    for (const query of [`${scope}&limit=0`, `${scope}&skip=4&limit=0`, `${scope}&skip=50&limit=0`]) {
      const result = await listActions(parseListQuery(query));
      expect(result.strategy, query).toBe('counted');
      expect(result.totalCount, query).toBe(6);
      expect(result.actions, query).toEqual([]);
      // One strongly consistent Query of the counter's shards; not one index entry.
      expect(result.stats, query).toEqual({ itemsRead: 0, indexEntries: 0, readUnits: 1, requests: 1 });
    }
    // The same count through HTTP.
    expect(await list(ann.token, `${scope}&skip=4&limit=0`)).toEqual({
      actions: [],
      totalCount: 6,
      totalCountRelation: 'eq',
    });
  });
});

describe('a sort by priority or by a name, over every action', () => {
  /** Code point order, as the contract sorts strings; ties by createdAt, then id, in the same direction. */
  const byNameThenCreated =
    (createdOf: ReadonlyMap<string, string>) => (a: { name: string; id: string }, b: { name: string; id: string }) =>
      Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)) ||
      (createdOf.get(a.id) ?? '').localeCompare(createdOf.get(b.id) ?? '') ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it('reads a page of its ordered index, in exact (name, id) order, whatever a token puts in the name', async () => {
    // Names no other test makes, that sort first (three spaces), prefixes of each other, control
    // characters (a token's name keeps none: they become U+FFFD, contract section 12), and one far
    // too long for an index key (a token's name claim has no length limit of ours).
    const lead = `   ${Date.now().toString(36)}`;
    const sent = [lead, `${lead}\u0000`, `${lead}\u0001`, `${lead} `, `${lead}a`, `${lead}${'😀'.repeat(600)}`];
    const names = sent.map((name) => name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD'));
    const producer = uniqueProducer('name-order');
    const made: Array<{ name: string; id: string }> = [];
    for (const [i, name] of names.entries()) {
      const owner = newUser(sent[i]);
      for (let n = 0; n < 2; n++) made.push({ name, id: await create(owner.token, actionBody(producer)) });
    }
    const result = await listActions(parseListQuery(`sort=owner&limit=${made.length}`));
    made.sort(byNameThenCreated(new Map(result.actions.map((a) => [a.id, a.createdAt]))));

    expect(result.strategy).toBe('counted');
    expect(result.index).toBe('all-by-owner-name');
    expect(result.actions.map((a) => a.id)).toEqual(made.map((m) => m.id));
    // A page, not the table: about one page per shard of the index.
    expect(result.stats.itemsRead).toBeLessThan(4 * made.length + 16 * 2);
    // The same through HTTP, and paged.
    const viewer = newUser();
    const firstHalf = await list(viewer.token, `sort=owner&limit=${made.length / 2}`);
    const secondHalf = await list(viewer.token, `sort=owner&skip=${made.length / 2}&limit=${made.length / 2}`);
    expect([...firstHalf.actions, ...secondHalf.actions].map((a) => a.id)).toEqual(made.map((m) => m.id));
  });

  it('orders priorities as numbers, ties by createdAt, then id, in both directions', async () => {
    const ann = newUser();
    const producer = uniqueProducer('priority-order');
    const priorities = [9, 10, 100, 9, 0];
    const made = [];
    for (const priority of priorities)
      made.push({ priority, id: await create(ann.token, actionBody(producer, { priority })) });
    const scope = q('actionProducer.name', producer);
    const createdOf = new Map(
      (await list(ann.token, `${q('actionProducer.name', producer)}&limit=10`)).actions.map((a) => [a.id, a.createdAt]),
    );
    const expected = [...made]
      .sort(
        (a, b) =>
          a.priority - b.priority || createdOf.get(a.id).localeCompare(createdOf.get(b.id)) || (a.id < b.id ? -1 : 1),
      )
      .map((m) => m.id);
    // Scoped to this test's actions, the planner reads them; unscoped, the counted path merges the
    // whole index, and this test's 100 is a priority other tests may share, so only the order is checked.
    expect((await list(ann.token, `${scope}&sort=priority`)).actions.map((a) => a.id)).toEqual(expected);
    expect((await list(ann.token, `${scope}&sort=-priority`)).actions.map((a) => a.id)).toEqual(
      [...expected].reverse(),
    );
    for (const sort of ['priority', '-priority']) {
      const result = await listActions(parseListQuery(`sort=${sort}&limit=50`));
      expect(result.strategy).toBe('counted');
      expect(result.index).toBe('all-by-priority');
      const seen = result.actions.map((a) => [a.priority, a.createdAt, a.id] as const);
      const ordered = [...seen].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]) || (a[2] < b[2] ? -1 : 1));
      expect(seen).toEqual(sort === 'priority' ? ordered : ordered.reverse());
    }
  });
});
