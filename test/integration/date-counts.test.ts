import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { evaluate, type ListedAction } from '../../contract/oracle';
import { toView } from '../../lib/model/view';
import { writeInBulk } from '../../lib/store/bulk/bulk';
import { send, tableName } from '../../lib/store/client';
import { DAY_COUNTERS, daySortKey } from '../../lib/store/counters/days';
import { recount } from '../../lib/store/counters/recount';
import { scanActions } from '../../lib/store/list/run/scan';
import { seedActions } from '../../scripts/seed-data';
import { actionBody, call, create, newUser, q, tokenFor, uniqueProducer, useOwnStack } from '../support/client';

/**
 * Issue 41: every operator on `createdAt`, `updatedAt` and `dueAt` counts exactly at any size,
 * from day counters that move in every write's transaction (`lib/store/counters/days.ts`). A stack
 * of its own, so a recount sees only this file's writes, and a read budget (30 entries) far below
 * its actions, so no list can count its matches by reading them: actions bulk-loaded with dates
 * over the past year, then created, edited (a new due date, a comment that moves `updatedAt` to
 * today) and deleted through the API; every date filter's count must be the oracle's, and the
 * recount must find no drift.
 */

const BUDGET = 30;
useOwnStack({ LIST_READ_BUDGET: String(BUDGET), RATE_LIMIT_REQUESTS: '100000', RATE_LIMIT_READS: '100000000' });

const SEEDED = 60;
const caller = newUser('Dana Dates');

async function everyAction(): Promise<ListedAction[]> {
  const actions: ListedAction[] = [];
  await scanActions(SEEDED * 2, (action) => actions.push(toView(action) as unknown as ListedAction));
  return actions;
}

/** The distinct days of a date field among the actions, in order. */
const daysOf = (actions: ListedAction[], field: 'createdAt' | 'updatedAt' | 'dueAt') =>
  [...new Set(actions.map((a) => (a[field] as string).slice(0, 10)))].sort();

describe('exact counts on the three dates, from the day counters', () => {
  it('creates, edits and deletes move the day counters: every date filter counts as the oracle does', async () => {
    const seeded = [...seedActions(SEEDED, 41)];
    await writeInBulk(seeded.map((action) => ({ action, actor: action.owner })));
    const producer = uniqueProducer('dc');
    const made: string[] = [];
    for (let n = 0; n < 6; n++)
      made.push(
        await create(
          caller.token,
          actionBody(producer, { dueAt: `2026-0${1 + (n % 3)}-1${n}T${String(3 * n).padStart(2, '0')}:30:00Z` }),
        ),
      );
    // Edits: new due dates (some on days others are due), comments that move updatedAt to today.
    for (const [n, action] of seeded.slice(0, 8).entries()) {
      const owner = tokenFor({ sub: action.owner.id, name: action.owner.name, email: action.owner.email ?? '' });
      const edit = await call('PATCH', `/api/actions/${action.id}`, {
        token: owner,
        body: { dueAt: n % 2 ? (seeded[20]?.dueAt as string) : '2027-03-04T05:06:07Z' },
      });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      const comment = await call('POST', `/api/actions/${seeded[10 + n]?.id}/comments`, {
        token: caller.token,
        body: { text: `checked ${n}` },
      });
      expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    }
    for (const action of seeded.slice(30, 34)) {
      const owner = tokenFor({ sub: action.owner.id, name: action.owner.name, email: action.owner.email ?? '' });
      expect((await call('DELETE', `/api/actions/${action.id}`, { token: owner })).status).toBe(204);
    }
    expect((await call('DELETE', `/api/actions/${made[0]}`, { token: caller.token })).status).toBe(204);

    const listed = await everyAction();
    const problems: string[] = [];
    for (const field of ['createdAt', 'updatedAt', 'dueAt'] as const) {
      const days = daysOf(listed, field);
      const [a, b] = [days[1] as string, days[Math.min(3, days.length - 1)] as string];
      const instant = listed.map((x) => x[field] as string).sort()[2] as string;
      const queries = [
        q(field, a),
        q(field, `!${a}`),
        q(field, `<${a}`),
        q(field, `>${a}`),
        q(field, `~${a},${b}`),
        `${q(field, `>${a}`)}&${q(field, `<${b}`)}`,
        `${q(field, `>${a}T12:00:00Z`)}&${q(field, `<${b}T06:30:00Z`)}`,
        q(field, instant),
        q(field, `!${instant}`),
        q(field, `~${instant},${b}`),
        q(field, `<${instant}`),
        `${q(field, `>${days[0]}`)}&${q(field, `<${days[days.length - 1]}`)}&${q(field, `!${b}`)}`,
        // The counts' `overdueAge` buckets and their kin: the due days' overdue counts by status.
        ...(field === 'dueAt'
          ? [
              `overdue=true&${q(field, `<${b}`)}`,
              `overdue=true&${q(field, `>${a}`)}`,
              `overdue=true&${q(field, `>${a}`)}&${q(field, `<${b}`)}`,
              `overdue=true&${q(field, `>${a}T12:00:00Z`)}`,
              `status=~1,2&overdue=true&${q(field, `<${b}`)}`,
            ]
          : []),
      ];
      for (const query of queries)
        for (const limit of [0, 2]) {
          const reply = await call('GET', `/api/actions?${query}&limit=${limit}`, { token: caller.token });
          const expected = evaluate(listed, `${query}&limit=${limit}`);
          if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
          if (reply.status !== 200) problems.push(`${query}: ${reply.status}`);
          else if (reply.body.totalCountRelation !== 'eq' || reply.body.totalCount !== expected.totalCount)
            problems.push(
              `${query}&limit=${limit}: ${reply.body.totalCountRelation} ${reply.body.totalCount}, the oracle ${expected.totalCount}`,
            );
        }
    }
    expect(problems).toEqual([]);
    // Some of them are overdue, so the overdue day counts were asked for something.
    expect(listed.filter((a) => a.overdue).length).toBeGreaterThan(0);
    const report = await recount();
    expect(report.drift).toEqual([]);
  }, 300_000);

  it('the recount finds a day counter that drifted, and --fix mends it', async () => {
    const listed = await everyAction();
    const day = daysOf(listed, 'dueAt')[0] as string;
    const query = q('dueAt', day);
    const truth = evaluate(listed, `${query}&limit=0`) as { totalCount: number };
    await send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { id: DAY_COUNTERS, sk: daySortKey(day, 2) },
        UpdateExpression: 'ADD d :n',
        ExpressionAttributeValues: { ':n': 3 },
      }),
    );
    const drifted = await call('GET', `/api/actions?${query}&limit=0`, { token: caller.token });
    expect(drifted.body.totalCount).toBe(truth.totalCount + 3);
    const found = await recount();
    expect(found.drift).toEqual([
      { counter: `${DAY_COUNTERS}#${day}#dueAt`, stored: truth.totalCount + 3, actual: truth.totalCount },
    ]);
    expect((await recount({ fix: true })).fixed).toBe(true);
    expect((await recount()).drift).toEqual([]);
    const mended = await call('GET', `/api/actions?${query}&limit=0`, { token: caller.token });
    expect(mended.body).toMatchObject({ totalCount: truth.totalCount, totalCountRelation: 'eq' });
  }, 300_000);
});
