import { describe, expect, it } from 'vitest';
import { oracleList, useBudgetedStack } from '../support/budgeted-stack';
import { q } from '../support/client';

/**
 * Issue 53's known bug, fixed: open actions due before an instant, oldest due first, walk
 * `all-by-due`'s 16 partitions between the cursor and the instant. At a budget under two entries
 * a partition each partition's first page is one entry, and a read that began at the cursor's own
 * key spent the page of the partition holding it on that key: the walk, cut there, never got past
 * it and every cursor after that one named the same place. Now the read starts just after the
 * cursor's key, and walking by cursor reaches the oracle's whole list, nothing skipped or doubled.
 */

const SEEDED = 200;
const BUDGET = 24;
const LIMIT = 4;

const { listed, send } = useBudgetedStack({
  name: 'daily-walk',
  seeded: SEEDED,
  seed: 53,
  budget: BUDGET,
  reader: { sub: 'u-walk', name: 'Walk Reader' },
});

describe(`open actions due before an instant, oldest due first, at a read budget of ${BUDGET}`, () => {
  it('walk by cursor to the oracle list, every cursor moving on', async () => {
    const days = [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].sort();
    const query = `status=~1,2&${q('dueAt', `<${days[Math.floor(days.length / 3)]}T12:00:00Z`)}&sort=dueAt`;
    const all = oracleList(listed, query);
    expect(all.length).toBeGreaterThan(LIMIT);
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const reply = await send(`/api/actions?${query}&limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      ids.push(...(reply.body.actions as Array<{ id: string }>).map((a) => a.id));
      cursor = reply.body.nextCursor as string | undefined;
      pages++;
      // A walk whose cursor names the same place again goes round for ever: a few hundred pages
      // are far more than one that moves on needs.
    } while (cursor && pages < 300);
    expect(cursor, `still a cursor after ${pages} pages, ${ids.length} of ${all.length} shown`).toBeUndefined();
    expect(ids).toEqual(all);
    // The budget cut pages short: more pages than the list's length needs at a full page each.
    expect(pages).toBeGreaterThan(Math.ceil(all.length / LIMIT));
  }, 300_000);
});
