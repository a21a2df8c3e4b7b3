import { describe, expect, it } from 'vitest';
import { evaluate } from '../../contract/oracle';
import { oracleList, useBudgetedStack } from '../support/budgeted-stack';
import { q } from '../support/client';

/**
 * Issue 53: the daily combinations count exactly from counters kept by status (the overdue
 * count, each priority's, each due day's) and read their page from an index in the list's order,
 * also when reading every match would pass the read budget. A small seeded store of its own,
 * with a budget far below its size, so only a walk of about the page can answer; every answer is
 * the oracle's page with the oracle's count, said `eq`.
 */

const SEEDED = 400;
const BUDGET = 80;
const LIMIT = 4;

const { listed, send } = useBudgetedStack({
  name: 'daily',
  seeded: SEEDED,
  seed: 53,
  budget: BUDGET,
  reader: { sub: 'u-daily', name: 'Daily Reader' },
});

/** The `n`th distinct due day some action has (`2026-03-01`). */
const dueDay = (n: number) => [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].sort()[n] as string;

describe(`the daily combinations, at a read budget of ${BUDGET} for ${SEEDED} actions`, () => {
  it('answer the oracle page with an exact count', async () => {
    const unit = listed.map((a) => a.location.businessUnit).find((u) => u !== '') ?? '';
    const days = [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].length;
    // The titles most actions share (no comma: `~` separates its values with one).
    const byTitle = new Map<string, number>();
    for (const a of listed) if (!a.title.includes(',')) byTitle.set(a.title, (byTitle.get(a.title) ?? 0) + 1);
    const titles = [...byTitle].sort((a, b) => b[1] - a[1]).map(([title]) => title);
    const budgetCut = `status=~1,2&${q('dueAt', `<${dueDay(Math.floor(days / 2))}T12:00:00Z`)}&sort=dueAt`;
    const queries = [
      'overdue=true&status=~1,2&sort=dueAt',
      'overdue=true&status=~1,2,5&sort=-dueAt',
      'overdue=true&status=!2&sort=dueAt',
      'status=!3&status=!4',
      'status=<3&sort=-createdAt',
      'status=1&priority=>3',
      'status=~1,2&priority=~1,2',
      `status=~1,2,5&${q('dueAt', `>${dueDay(Math.floor(days / 3))}`)}&${q('dueAt', `<${dueDay(Math.floor(days / 2))}`)}&sort=dueAt`,
      `${q('location.businessUnit', unit)}&overdue=true&sort=dueAt`,
      // Open actions due before an instant, oldest due first, start where most are closed: at this
      // budget the first page may be cut short, then with a cursor (the next test walks it).
      budgetCut,
      // A list of exact titles: each title's key range of the title index, counted by its counter.
      `${q('title', `~${titles[0]},${titles[1]?.toUpperCase()}`)}`,
      `${q('title', `~${titles[0]},${titles[2]}`)}&sort=-title`,
    ];
    const problems: string[] = [];
    for (const query of queries) {
      const reply = await send(`/api/actions?${query}&limit=${LIMIT}`);
      const expected = evaluate(listed, `${query}&limit=${LIMIT}`);
      if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
      if (reply.status !== 200) {
        problems.push(`${query}: ${reply.status} ${JSON.stringify(reply.body)}`);
        continue;
      }
      const ids = (reply.body.actions as Array<{ id: string }>).map((a) => a.id);
      // A page the budget cut is the oracle's page's beginning, and says where to go on.
      const cut = query === budgetCut && typeof reply.body.nextCursor === 'string';
      if (JSON.stringify(ids) !== JSON.stringify(cut ? expected.ids.slice(0, ids.length) : expected.ids))
        problems.push(`${query}: page ${ids.join(',')}, the oracle ${expected.ids.join(',')}`);
      if (ids.length < expected.ids.length && typeof reply.body.nextCursor !== 'string')
        problems.push(`${query}: a short page (${ids.length} of ${expected.ids.length}) without a nextCursor`);
      if (reply.body.totalCountRelation !== 'eq' || reply.body.totalCount !== expected.totalCount)
        problems.push(
          `${query}: totalCount ${reply.body.totalCount} (${reply.body.totalCountRelation}), the oracle ${expected.totalCount}`,
        );
    }
    expect(problems).toEqual([]);
    // The seed has overdue open actions, so the walk of the overdue levels had something to find.
    expect(listed.filter((a) => a.overdue && [1, 2].includes(Number(a.status))).length).toBeGreaterThan(LIMIT);
  }, 300_000);

  it('walk by cursor to the oracle list, every page the budget cuts carrying where to go on', async () => {
    const days = [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].length;
    // Open actions due before an instant, oldest due first: the earliest due are mostly closed,
    // so at this budget a page is cut before it is full, and its cursor must go on from there.
    const queries = [
      `status=~1,2&${q('dueAt', `<${dueDay(Math.floor(days / 2))}T12:00:00Z`)}&sort=dueAt`,
      `status=~1,2&${q('dueAt', `>${dueDay(Math.floor(days / 2))}T12:00:00Z`)}&sort=-dueAt`,
      'overdue=true&status=~1,2&sort=dueAt',
    ];
    for (const [n, query] of queries.entries()) {
      const all = oracleList(listed, query);
      expect(all.length, query).toBeGreaterThan(3 * LIMIT);
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      let short = 0;
      do {
        const reply = await send(`/api/actions?${query}&limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200);
        const page = (reply.body.actions as Array<{ id: string }>).map((a) => a.id);
        ids.push(...page);
        cursor = reply.body.nextCursor as string | undefined;
        if (page.length < LIMIT && cursor) short++;
        // A page without a cursor ends the list: everything the oracle lists was shown by then.
        if (!cursor) expect(ids.length, `${query}: no cursor after ${ids.length} of ${all.length}`).toBe(all.length);
        pages++;
      } while (cursor && pages < 20 * (all.length / LIMIT + 1));
      expect(cursor, `${query}: still a cursor after ${pages} pages`).toBeUndefined();
      expect(ids, query).toEqual(all);
      if (n === 0) expect(short, `${query}: no page was cut`).toBeGreaterThan(0);
    }
  }, 300_000);
});
