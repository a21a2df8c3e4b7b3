import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type ListedAction } from '../../contract/oracle';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { toView } from '../../lib/model/view';
import { scanActions } from '../../lib/store/list/run/scan';
import { seedActions } from '../../scripts/seed-data';
import { call, q } from '../support/client';

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

let stack: LocalStack;
let token: string;
const listed: ListedAction[] = [];

beforeAll(async () => {
  Object.assign(process.env, {
    LIST_READ_BUDGET: String(BUDGET),
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_READS: '1000000000',
    LOG_LEVEL: 'silent',
  });
  stack = await startSeededStack('daily', seedActions(SEEDED, 53));
  token = issueToken(stack.issuer, { sub: 'u-daily', name: 'Daily Reader' });
  await scanActions(SEEDED * 2, (action) => listed.push(toView(action) as unknown as ListedAction));
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

/** The `n`th distinct due day some action has (`2026-03-01`). */
const dueDay = (n: number) => [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].sort()[n] as string;

describe(`the daily combinations, at a read budget of ${BUDGET} for ${SEEDED} actions`, () => {
  it('answer the oracle page with an exact count', async () => {
    const unit = listed.map((a) => a.location.businessUnit).find((u) => u !== '') ?? '';
    const days = [...new Set(listed.map((a) => String(a.dueAt).slice(0, 10)))].length;
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
    ];
    const problems: string[] = [];
    for (const query of queries) {
      const reply = await call('GET', `/api/actions?${query}&limit=${LIMIT}`, { token, baseUrl: stack.url });
      const expected = evaluate(listed, `${query}&limit=${LIMIT}`);
      if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
      if (reply.status !== 200) {
        problems.push(`${query}: ${reply.status} ${JSON.stringify(reply.body)}`);
        continue;
      }
      const ids = (reply.body.actions as Array<{ id: string }>).map((a) => a.id);
      if (JSON.stringify(ids) !== JSON.stringify(expected.ids))
        problems.push(`${query}: page ${ids.join(',')}, the oracle ${expected.ids.join(',')}`);
      if (reply.body.totalCountRelation !== 'eq' || reply.body.totalCount !== expected.totalCount)
        problems.push(
          `${query}: totalCount ${reply.body.totalCount} (${reply.body.totalCountRelation}), the oracle ${expected.totalCount}`,
        );
    }
    expect(problems).toEqual([]);
    // The seed has overdue open actions, so the walk of the overdue levels had something to find.
    expect(listed.filter((a) => a.overdue && [1, 2].includes(Number(a.status))).length).toBeGreaterThan(LIMIT);
  }, 300_000);
});
