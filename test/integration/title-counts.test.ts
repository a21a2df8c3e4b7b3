import { describe, expect, it } from 'vitest';
import type { ListedAction } from '../../contract/oracle';
import { recount } from '../../lib/store/counters/recount';
import { actionBody, call, create, getOne, newUser, q, uniqueProducer, useOwnStack } from '../support/client';
import { untilAllIndexed } from '../support/indexed';
import { countBesideOracle } from '../support/oracle-count';

/**
 * Contract section 4: `=`, `!` and `~` on `title` count exactly at any size, compared
 * case-insensitively. Each folded title has a counter (`n#title#<folded title>`) that moves in
 * every write's transaction. A stack of its own, so the counts and the recount see only this
 * file's actions, and a read budget of 10 entries, below every title's matches here, so no list
 * can count them by reading them: creates in mixed case, retitles (to another title, and to the
 * same title in another case) and deletes must leave every title count `eq` and the oracle's, and
 * the recount must find no drift.
 */

const BUDGET = 10;
useOwnStack({ LIST_READ_BUDGET: String(BUDGET), RATE_LIMIT_REQUESTS: '100000', RATE_LIMIT_READS: '100000000' });

const user = newUser('Tia Titles');

const titles = {
  belt: ['Belt guard missing', 'BELT GUARD MISSING', 'belt Guard missing'],
  conveyor: ['Conveyor 3 idler', 'conveyor 3 IDLER'],
  spill: ['Spill kit empty'],
};

async function views(ids: string[]): Promise<ListedAction[]> {
  const out: ListedAction[] = [];
  for (const id of ids) out.push((await getOne(user.token, id)).body as ListedAction);
  return out;
}

/** `=`, `!` and `~` on each title the actions have (and one they do not), in two spellings each. */
function queries(actions: ListedAction[]): string[] {
  const distinct = [...new Set(actions.map((a) => a.title.toLowerCase()))].sort();
  return ['Nothing titled this', ...distinct].flatMap((title, n) => {
    const other = distinct[(n + 1) % distinct.length] as string;
    return [
      q('title', title),
      q('title', title.toUpperCase()),
      q('title', `!${title.toUpperCase()}`),
      q('title', `~${title},${title.toUpperCase()}`),
      q('title', `~${title.toUpperCase()},${other}`),
    ];
  });
}

/** Every query's count that is not `eq` and the oracle's, with a page and count only. */
async function compare(actions: ListedAction[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const query of queries(actions))
    for (const limit of [0, 2]) {
      const { totalCount, totalCountRelation, oracle } = await countBesideOracle(user.token, actions, query, limit);
      if (totalCountRelation !== 'eq' || totalCount !== oracle)
        wrong.push(`${query}&limit=${limit}: ${totalCount} ${totalCountRelation}, the oracle ${oracle}`);
    }
  return wrong;
}

const retitle = async (id: string, title: string) => {
  const reply = await call('PATCH', `/api/actions/${id}`, { token: user.token, body: { title } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};

describe('title =, ! and ~ count exactly, from a counter a folded title', () => {
  it('after creates, retitles and deletes, every count is eq and the oracle’s, past the read budget', async () => {
    const producer = uniqueProducer('ti');
    const made: Record<keyof typeof titles, string[]> = { belt: [], conveyor: [], spill: [] };
    for (const [kind, n] of [
      ['belt', 20],
      ['conveyor', 14],
      ['spill', 6],
    ] as const)
      for (let i = 0; i < n; i++) {
        const spellings = titles[kind];
        made[kind].push(await create(user.token, actionBody(producer, { title: spellings[i % spellings.length] })));
      }
    let live = Object.values(made).flat();
    // Before any edit: each title's matches are past the budget, yet counted exactly.
    expect(await compare(await views(live))).toEqual([]);

    // Retitles: three belts become conveyors, a spill kit a new title, and a belt the same title
    // in another case (no counter moves: its folded value is unchanged).
    for (const id of made.belt.slice(0, 3)) await retitle(id, 'CONVEYOR 3 idler');
    await retitle(made.spill[0] as string, 'Spill kit restocked');
    await retitle(made.belt[5] as string, 'bElT gUaRd MiSsInG');
    // Deletes: two belts and a conveyor.
    const deleted = [made.belt[10], made.belt[11], made.conveyor[0]] as string[];
    for (const id of deleted)
      expect((await call('DELETE', `/api/actions/${id}`, { token: user.token })).status).toBe(204);
    live = live.filter((id) => !deleted.includes(id));

    const actions = await views(live);
    const belts = actions.filter((a) => a.title.toLowerCase() === 'belt guard missing').length;
    const conveyors = actions.filter((a) => a.title.toLowerCase() === 'conveyor 3 idler').length;
    expect([belts, conveyors]).toEqual([15, 16]);
    expect(Math.min(belts, conveyors)).toBeGreaterThan(BUDGET);
    expect(await compare(actions)).toEqual([]);

    await untilAllIndexed();
    const report = await recount();
    expect(report.drift).toEqual([]);
  }, 300_000);
});
