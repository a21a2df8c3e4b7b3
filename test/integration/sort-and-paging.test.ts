import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareValues } from '../../lib/store/list/plan/positions';
import { foldForComparison } from '../../lib/text';
import { actionBody, call, create, list, newUser, q, uniqueProducer } from '../support/client';

/** Paging and sorting through HTTP: defaults, disjoint pages, both directions on every field. */

describe('paging', () => {
  const user = newUser('Pager');
  const producer = uniqueProducer('paging');
  const scope = q('actionProducer.name', producer);
  const TOTAL = 23;
  let ids: string[] = [];

  beforeAll(async () => {
    ids = await Promise.all(
      Array.from({ length: TOTAL }, (_, i) => create(user.token, actionBody(producer, { title: `Item ${i}` }))),
    );
  });

  it('defaults to skip 0, limit 10, newest createdAt first (ties by id, descending)', async () => {
    const page = await list(user.token, scope);
    expect(page.totalCount).toBe(TOTAL);
    expect(page.actions).toHaveLength(10);
    const everything = await list(user.token, `${scope}&limit=100`);
    const newestFirst = [...everything.actions].sort(
      (a, b) => (b.createdAt as string).localeCompare(a.createdAt) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
    );
    expect(everything.actions.map((a) => a.id)).toEqual(newestFirst.map((a) => a.id));
    expect(page.actions.map((a) => a.id)).toEqual(newestFirst.slice(0, 10).map((a) => a.id));
    // The same page; its cursor is sealed afresh each time (a new nonce), so only it may differ.
    const { nextCursor: again, ...same } = await list(user.token, `${scope}&skip=0&limit=10`);
    const { nextCursor: first, ...expected } = page;
    expect(same).toEqual(expected);
    expect(typeof again).toBe(typeof first);
  });

  it('pages are disjoint and together hold every match exactly once', async () => {
    const seen: string[] = [];
    for (let skip = 0; skip < TOTAL; skip += 10) {
      const page = await list(user.token, `${scope}&skip=${skip}`);
      expect(page.totalCount).toBe(TOTAL);
      expect(page.actions).toHaveLength(Math.min(10, TOTAL - skip));
      seen.push(...page.actions.map((a) => a.id));
    }
    expect(new Set(seen).size).toBe(TOTAL);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('pages of a sorted list follow the sort', async () => {
    const all = (await list(user.token, `${scope}&sort=-title&limit=100`)).actions.map((a) => a.id);
    const paged: string[] = [];
    for (let skip = 0; skip < TOTAL; skip += 7) {
      paged.push(...(await list(user.token, `${scope}&sort=-title&skip=${skip}&limit=7`)).actions.map((a) => a.id));
    }
    expect(paged).toEqual(all);
  });

  it('limit=0 returns only the totalCount; skip past the end returns none', async () => {
    expect(await list(user.token, `${scope}&limit=0`)).toEqual({
      actions: [],
      totalCount: TOTAL,
      totalCountRelation: 'eq',
    });
    expect(await list(user.token, `${scope}&skip=${TOTAL}`)).toEqual({
      actions: [],
      totalCount: TOTAL,
      totalCountRelation: 'eq',
    });
    expect(await list(user.token, `${scope}&skip=${TOTAL - 1}&limit=100`)).toMatchObject({ totalCount: TOTAL });
    expect((await list(user.token, `${scope}&skip=${TOTAL - 1}`)).actions).toHaveLength(1);
  });

  it('with no filter at all, limit and count still hold', async () => {
    const page = await list(user.token, 'limit=3');
    expect(page.actions).toHaveLength(3);
    expect(page.totalCount).toBeGreaterThanOrEqual(TOTAL);
    const none = await list(user.token, 'limit=0');
    expect(none.actions).toEqual([]);
    expect(none.totalCount).toBeGreaterThanOrEqual(TOTAL);
  });
});

/** What each sortable field orders by, as the contract says; `undefined` ids sort as text. */
const sortKeys: Record<string, (a: any) => string | number> = {
  // Canonically equivalent titles compare alike (contract section 3): NFC, then lower case.
  title: (a) => foldForComparison(a.title),
  status: (a) => Number(a.status),
  priority: (a) => Number(a.priority),
  dueAt: (a) => a.dueAt,
  createdAt: (a) => a.createdAt,
  updatedAt: (a) => a.updatedAt,
  owner: (a) => a.owner.name,
  assignee: (a) => a.assignee.name,
  'actionProducer.name': (a) => a.actionProducer.name,
  'actionProducer.reference': (a) => a.actionProducer.reference ?? '',
  ...Object.fromEntries(
    ['businessUnit', 'site', 'department', 'workGroup', 'productiveUnit', 'team', 'crew'].map((f) => [
      `location.${f}`,
      (a: any) => a.location[f],
    ]),
  ),
};

/** Numbers by value; text by code point, as DynamoDB orders it (JavaScript's `<` orders UTF-16 units). */
const compare = (x: string | number, y: string | number) =>
  typeof x === 'number' && typeof y === 'number' ? x - y : compareValues(x, y);

/** The order the contract promises: by the field, ties by createdAt, then id, all in the same direction. */
const expectedOrder = (actions: any[], field: string, descending: boolean) =>
  [...actions]
    .sort((a, b) => {
      const key = sortKeys[field] as (a: any) => string | number;
      return (
        (descending ? -1 : 1) * (compare(key(a), key(b)) || compare(a.createdAt, b.createdAt) || compare(a.id, b.id))
      );
    })
    .map((a) => a.id);

describe('sorting', () => {
  const run = randomUUID().slice(0, 8);
  const producers = [`srt-${run}-b`, `srt-${run}-A`, `srt-${run}-c`];
  const scope = q('actionProducer.name', `~${producers.join(',')}`);
  const zed = newUser('zed', `sort-z-${run}`);
  const amy = newUser('Amy', `sort-a-${run}`);
  const bob = newUser('bob', `sort-b-${run}`);
  let all: any[] = [];

  // Values repeat on purpose, so ties (broken by createdAt, then id) occur on every field.
  const specs = [
    {
      by: zed,
      p: 0,
      title: 'banana',
      priority: '10',
      status: 9,
      dueAt: '2026-05-01T00:00:00Z',
      who: 'Mia',
      ref: 'r-2',
      loc: 'b',
    },
    {
      by: amy,
      p: 1,
      title: 'Apple',
      priority: 9,
      status: '10',
      dueAt: '2026-04-01T00:00:00Z',
      who: undefined,
      ref: undefined,
      loc: 'B',
    },
    {
      by: bob,
      p: 2,
      title: 'cherry',
      priority: '2',
      status: '2',
      dueAt: '2026-05-01T00:00:00Z',
      who: 'al',
      ref: 'r-10',
      loc: 'a',
    },
    {
      by: zed,
      p: 0,
      title: 'Banana',
      priority: '10',
      status: 1,
      dueAt: '2025-01-01T00:00:00Z',
      who: 'Mia',
      ref: 'r-2b',
      loc: '',
    },
    {
      by: amy,
      p: 2,
      title: 'apple',
      priority: 0,
      status: '10',
      dueAt: '2027-01-01T00:00:00Z',
      who: 'Zoe',
      ref: undefined,
      loc: 'b',
    },
    {
      by: bob,
      p: 1,
      title: 'date',
      priority: '100',
      status: '9',
      dueAt: '2026-04-01T00:00:00Z',
      who: undefined,
      ref: 'R-1',
      loc: 'C',
    },
  ];

  beforeAll(async () => {
    for (const [i, s] of specs.entries()) {
      const loc = Object.fromEntries(
        ['businessUnit', 'site', 'department', 'workGroup', 'productiveUnit', 'team', 'crew'].map((f, j) => [
          f,
          s.loc === '' ? '' : `${s.loc}${(i + j) % 3}`,
        ]),
      );
      const id = await create(
        s.by.token,
        actionBody(producers[s.p] as string, {
          title: s.title,
          priority: s.priority,
          status: s.status,
          dueAt: s.dueAt,
          location: loc,
          actionProducer: { name: producers[s.p], ...(s.ref ? { reference: `${s.ref}-${run}` } : {}) },
          ...(s.who ? { assignee: { id: `${s.who}-${run}`, name: s.who } } : {}),
        }),
      );
      // A later edit gives updatedAt an order unlike createdAt's.
      if (i % 2 === 0) {
        const edit = await call('PATCH', `/api/actions/${id}`, { token: s.by.token, body: { tags: ['edited'] } });
        expect(edit.status).toBe(200);
      }
    }
    const page = await list(zed.token, `${scope}&limit=100`);
    expect(page.totalCount).toBe(specs.length);
    all = page.actions;
  });

  it.each(Object.keys(sortKeys).flatMap((f) => [f, `-${f}`]))('sort=%s', async (sort) => {
    const page = await list(zed.token, `${scope}&sort=${encodeURIComponent(sort)}&limit=100`);
    const descending = sort.startsWith('-');
    expect(page.totalCount).toBe(specs.length);
    expect(page.actions.map((a) => a.id)).toEqual(expectedOrder(all, descending ? sort.slice(1) : sort, descending));
  });

  it('priority and status sort as numbers, title case-insensitively', async () => {
    const byPriority = await list(zed.token, `${scope}&sort=-priority&limit=100`);
    expect(byPriority.actions.map((a) => a.priority)).toEqual(['100', '10', '10', '9', '2', '0']);
    const byStatus = await list(zed.token, `${scope}&sort=status&limit=100`);
    expect(byStatus.actions.map((a) => a.status)).toEqual(['1', '2', '9', '9', '10', '10']);
    const byTitle = await list(zed.token, `${scope}&sort=title&limit=100`);
    expect(byTitle.actions.map((a) => a.title.toLowerCase())).toEqual([
      'apple',
      'apple',
      'banana',
      'banana',
      'cherry',
      'date',
    ]);
    const byOwner = await list(zed.token, `${scope}&sort=owner&limit=100`);
    expect(byOwner.actions.map((a) => a.owner.name)).toEqual(['Amy', 'Amy', 'bob', 'bob', 'zed', 'zed']);
  });

  it('sorting with a filter sorts only the matches and pages through them', async () => {
    const filter = `${scope}&${q('status', '>1')}`;
    const expected = expectedOrder(
      all.filter((a) => Number(a.status) > 1),
      'dueAt',
      true,
    );
    const first = await list(zed.token, `${filter}&sort=-dueAt&limit=2`);
    const rest = await list(zed.token, `${filter}&sort=-dueAt&skip=2&limit=10`);
    expect(first.totalCount).toBe(expected.length);
    expect([...first.actions, ...rest.actions].map((a) => a.id)).toEqual(expected);
  });

  it.each(['createdAt', '-createdAt', 'dueAt', '-dueAt', 'updatedAt', '-updatedAt', 'title', '-title', 'priority'])(
    'with no filter, sort=%s pages in order (index read)',
    async (sort) => {
      const descending = sort.startsWith('-');
      const field = descending ? sort.slice(1) : sort;
      const page = await list(zed.token, `sort=${sort}&limit=25`);
      expect(page.actions.length).toBeGreaterThan(0);
      expect(page.actions.map((a) => a.id)).toEqual(expectedOrder(page.actions, field, descending));
    },
  );
});
