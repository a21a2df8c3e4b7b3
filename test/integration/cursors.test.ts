import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { actionBody, call, create, dataDir, expectProblem, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 25, contract section 11: list cursors. A walk that follows `nextCursor` returns exactly
 * what a walk with `skip` returns, for the counted shapes and the planner's alike. A cursor that
 * is altered, truncated or made for something else is a 400 naming `cursor`.
 *
 * A walk deep into a large list (no action twice, the page `skip` reaches at the same depth, and
 * a deep page reading what the first page reads) is `npm run bench`'s, which CI runs: at 100,000
 * actions it walks past the 10,000 `skip` may reach (`bench/sync.ts`). Here it seeded 10,050
 * actions on the shared stack and took 110 s of a full run.
 */

type Page = { actions: Array<{ id: string }>; totalCount: number; nextCursor?: string };

async function skipWalk(token: string, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let skip = 0; ; skip += limit) {
    const page = (await list(token, `${query}&limit=${limit}&skip=${skip}`)) as Page;
    ids.push(...page.actions.map((a) => a.id));
    if (page.actions.length < limit || skip + limit >= page.totalCount) return ids;
  }
}

async function cursorWalk(token: string, query: string, limit: number, repeat = false) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let page = (await list(token, `${query}&limit=${limit}`)) as Page;
  for (;;) {
    ids.push(...page.actions.map((a) => a.id));
    totals.add(page.totalCount);
    if (!page.nextCursor) return { ids, totals: [...totals] };
    // The filters and sort may be repeated exactly, or left out.
    const again = repeat ? `${query}&` : '';
    page = (await list(token, `${again}cursor=${page.nextCursor}&limit=${limit}`)) as Page;
  }
}

describe('list cursors', () => {
  const ann = newUser('Ann Cursor');
  const bob = newUser('Bob Cursor');
  const producer = uniqueProducer('cursor');
  const scope = q('actionProducer.name', producer);

  beforeAll(async () => {
    const titles = ['alpha', 'Bravo', 'charlie', 'delta', 'Echo', 'alpha'];
    for (let i = 0; i < 23; i++) {
      const owner = i % 3 === 0 ? bob : ann;
      await create(
        owner.token,
        actionBody(producer, {
          title: `${titles[i % titles.length]} ${i % 4}`,
          priority: String(i % 4),
          status: String((i % 3) + 1),
          dueAt: `2026-12-${String((i % 9) + 1).padStart(2, '0')}T10:00:00Z`,
          location: { crew: i % 5 === 0 ? '' : `crew ${i % 2}` },
        }),
      );
    }
  });

  const queries = [
    scope, // counted: one value, newest first
    `${scope}&sort=createdAt`,
    `${scope}&sort=title`, // planned, ordered by the title key
    `${scope}&sort=-priority`,
    `${scope}&sort=owner`,
    `${scope}&status=~1,2&sort=dueAt`,
    `${scope}&sort=-location.crew`, // a field no index orders: value and id
    `${scope}&priority=>0&sort=status`,
  ];

  for (const query of queries) {
    it(`walks ${decodeURIComponent(query.replace(scope, 'producer'))} exactly as skip does`, async () => {
      const bySkip = await skipWalk(ann.token, query, 4);
      const byCursor = await cursorWalk(ann.token, query, 4);
      expect(byCursor.ids).toEqual(bySkip);
      expect(new Set(byCursor.ids).size).toBe(byCursor.ids.length);
      expect(byCursor.totals).toEqual([bySkip.length]);
      const repeated = await cursorWalk(ann.token, query, 7, true);
      expect(repeated.ids).toEqual(bySkip);
    });
  }

  it('gives no cursor on the last page, and one after a page reached with skip', async () => {
    const whole = (await list(ann.token, `${scope}&limit=100`)) as Page;
    expect(whole.totalCount).toBe(23);
    expect(whole.nextCursor).toBeUndefined();
    const skipped = (await list(ann.token, `${scope}&skip=10&limit=5`)) as Page;
    const next = (await list(ann.token, `cursor=${skipped.nextCursor}&limit=8`)) as Page;
    expect(next.actions.map((a) => a.id)).toEqual(whole.actions.slice(15, 23).map((a) => a.id));
    expect(next.nextCursor).toBeUndefined();
  });

  it('refuses what does not belong beside a cursor, and any cursor it did not give out', async () => {
    const first = (await list(ann.token, `${scope}&sort=title&limit=3`)) as Page;
    const cursor = first.nextCursor as string;
    const refused = async (query: string, parameter = 'cursor') =>
      expectProblem(await call('GET', `/api/actions?${query}`, { token: ann.token }), 400, { parameter });
    await refused(`cursor=${cursor}&skip=3`);
    await refused(`${scope}&sort=title&status=1&cursor=${cursor}`);
    await refused(`${scope}&cursor=${cursor}`); // the sort left out while the filter is repeated
    await refused(`sort=-title&cursor=${cursor}`);
    await refused(`cursor=`);
    await refused(`cursor=${cursor}&cursor=${cursor}`);
    await refused(`cursor=${cursor.slice(0, -3)}`); // truncated
    await refused(`cursor=${cursor.slice(0, 20)}`);
    const flipped = cursor.slice(0, 30) + (cursor[30] === 'A' ? 'B' : 'A') + cursor.slice(31);
    await refused(`cursor=${flipped}`); // altered
    await refused(`cursor=${encodeURIComponent('not a cursor!')}`);
    await refused(`cursor=${Buffer.from('{"s":"list:[]","k":1}').toString('base64url')}`);
    // Another caller's use of it, with the filters or without.
    for (const query of [`cursor=${cursor}`, `${scope}&sort=title&cursor=${cursor}`])
      expectProblem(await call('GET', `/api/actions?${query}`, { token: bob.token }), 400, { parameter: 'cursor' });
    // A comment thread's cursor is not a list's, nor a list's a thread's.
    const action = await create(ann.token, actionBody(producer));
    for (let i = 0; i < 3; i++)
      await call('POST', `/api/actions/${action}/comments`, { token: ann.token, body: { text: `c${i}` } });
    const thread = await call('GET', `/api/actions/${action}/comments?limit=1`, { token: ann.token });
    await refused(`cursor=${thread.body.nextCursor}`);
    expectProblem(await call('GET', `/api/actions/${action}/comments?cursor=${cursor}`, { token: ann.token }), 400, {
      parameter: 'cursor',
    });
    // A cursor of one list never reads another's data: another list's filters beside it are refused above,
    // and without them it continues its own.
    const own = (await list(ann.token, `cursor=${cursor}&limit=100`)) as Page;
    const all = (await list(ann.token, `${scope}&sort=title&limit=100`)) as Page;
    expect(own.actions.map((a) => a.id)).toEqual(all.actions.slice(3).map((a) => a.id));
  });
});

describe('title=~ with more matches than its ranges and a page: a walk of the ranges in created order', () => {
  const cy = newUser('Cy Titles');
  const producer = uniqueProducer('titles');
  const one = `Walked pump ${randomUUID().slice(0, 6)}`;
  const two = `walked VALVE ${randomUUID().slice(0, 6)}`;
  // Two titles x 16 shards are 32 ranges' queries; 45 matches are more than those and a page of 4
  // and the one past it, so the planner walks them (issue 53) rather than read every match.
  const query = q('title', `~${one.toUpperCase()},${two}`);

  beforeAll(async () => {
    Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
    for (let i = 0; i < 48; i++) {
      const title = i % 16 === 15 ? 'Not asked for' : i % 3 === 0 ? two.toLowerCase() : one;
      await create(cy.token, actionBody(producer, { title }));
    }
  }, 120_000);

  it('is the plan: the ranges merged by the created key', async () => {
    const { parseListQuery } = await import('../../lib/filter/query');
    const { listVisible } = await import('../../lib/store/list/entry');
    const listed = await listVisible(parseListQuery(`${query}&limit=4`), undefined, undefined);
    expect(listed.plan?.walk?.mergeKey).toBe('kc');
    expect(listed.plan?.walk?.read.ranges).toHaveLength(2);
    expect(listed.index).toBe('all-by-title');
    expect({ count: listed.totalCount, relation: listed.totalCountRelation }).toEqual({ count: 45, relation: 'eq' });
  });

  for (const sort of ['', '&sort=createdAt']) {
    it(`pages every match once, in the order of the producer's own list${sort}`, async () => {
      const own = (await list(cy.token, `${q('actionProducer.name', producer)}${sort}&limit=100`)) as {
        actions: Array<{ id: string; title: string }>;
      };
      const expected = own.actions.filter((a) => a.title !== 'Not asked for').map((a) => a.id);
      expect(expected).toHaveLength(45);
      const byCursor = await cursorWalk(cy.token, `${query}${sort}`, 4);
      expect(byCursor.ids).toEqual(expected);
      expect(byCursor.totals).toEqual([45]);
      expect(await skipWalk(cy.token, `${query}${sort}`, 4)).toEqual(expected);
    });
  }
});
