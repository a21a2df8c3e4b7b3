import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, newUser, uniqueProducer } from '../support/client';

/**
 * Contract section 17, `closedAt` (issue 50), through HTTP on the shared stack: set when the
 * status enters a closed one (3, 4 by default), cleared on reopen, set again on a new close, equal
 * to `createdAt` for an action created closed; read-only; shown by GET, the list and the change
 * feed; a date filter (every operator, an open action matching only `!`), a sort, and a count
 * (`GET /api/actions/counts`) that agree with an oracle over the actions.
 */

const user = newUser('Cleo Closer');
const get = async (id: string) => (await call('GET', `/api/actions/${id}`, { token: user.token })).body;
const patch = (id: string, body: unknown) => call('PATCH', `/api/actions/${id}`, { token: user.token, body });

describe('closedAt', () => {
  it('is set on close, kept while closed, cleared on reopen, set again on the next close', async () => {
    const producer = uniqueProducer('closed-at');
    const id = await create(user.token, actionBody(producer));
    expect((await get(id)).closedAt).toBeNull();
    const closed = await patch(id, { status: 3 });
    expect(closed.status).toBe(200);
    expect(closed.body.closedAt).toBe(closed.body.updatedAt);
    expect((await get(id)).closedAt).toBe(closed.body.closedAt);
    // Closed to closed (done to cancelled): still closed since then.
    const recast = await patch(id, { status: 4 });
    expect(recast.body.closedAt).toBe(closed.body.closedAt);
    const edited = await patch(id, { title: 'Still closed' });
    expect(edited.body.closedAt).toBe(closed.body.closedAt);
    const reopened = await patch(id, { status: 2 });
    expect(reopened.body.closedAt).toBeNull();
    const again = await patch(id, { status: 3 });
    expect(again.body.closedAt).toBe(again.body.updatedAt);
    expect(again.body.closedAt > closed.body.closedAt).toBe(true);
    // The list shows it too.
    const listed = await call('GET', `/api/actions?actionProducer.name=${producer}`, { token: user.token });
    expect(listed.body.actions[0].closedAt).toBe(again.body.closedAt);
  });

  it('equals createdAt for an action created closed; a body sending it is a 400 naming it', async () => {
    const producer = uniqueProducer('closed-at');
    const reply = await call('POST', '/api/actions', { token: user.token, body: actionBody(producer, { status: 4 }) });
    expect(reply.status).toBe(201);
    const created = await get(reply.body.id);
    expect(created.closedAt).toBe(created.createdAt);
    expectProblem(
      await call('POST', '/api/actions', {
        token: user.token,
        body: actionBody(producer, { closedAt: '2026-01-01T00:00:00Z' }),
      }),
      400,
      { field: 'closedAt' },
    );
    expectProblem(await patch(reply.body.id, { closedAt: null }), 400, { field: 'closedAt' });
  });

  it('filters, sorts and counts exactly (oracle over the actions)', async () => {
    const producer = uniqueProducer('closed-at');
    const ids: string[] = [];
    for (const status of [1, 3, 2, 4, 3, 1]) ids.push(await create(user.token, actionBody(producer, { status })));
    // One closed later, one reopened.
    await patch(ids[0] as string, { status: 3 });
    await patch(ids[1] as string, { status: 1 });
    const actions = await Promise.all(ids.map(get));
    const closedAts = actions.flatMap((a) => (a.closedAt ? [a.closedAt as string] : [])).sort();
    expect(closedAts).toHaveLength(3);
    const middle = closedAts[1] as string;
    const today = middle.slice(0, 10);
    const base = `/api/actions?actionProducer.name=${producer}&limit=100`;
    const cases: Array<[string, (at: string | null) => boolean]> = [
      [`closedAt=${encodeURIComponent(middle)}`, (at) => at === middle],
      [`closedAt=<${encodeURIComponent(middle)}`, (at) => at !== null && at < middle],
      [`closedAt=>${encodeURIComponent(middle)}`, (at) => at !== null && at > middle],
      [`closedAt=!${encodeURIComponent(middle)}`, (at) => at !== middle],
      [`closedAt=${today}`, (at) => at?.startsWith(today) === true],
      [`closedAt=!${today}`, (at) => at?.startsWith(today) !== true],
      [`closedAt=>${today}`, () => false],
      [`closedAt=<${today}`, () => false],
      [`closedAt=~${today},2020-01-01`, (at) => at?.startsWith(today) === true],
    ];
    for (const [filter, holds] of cases) {
      const reply = await call('GET', `${base}&${filter}`, { token: user.token });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const want = actions.filter((a) => holds(a.closedAt)).map((a) => a.id);
      expect(reply.body.actions.map((a: { id: string }) => a.id).sort(), filter).toEqual([...want].sort());
      expect(reply.body, filter).toMatchObject({ totalCount: want.length, totalCountRelation: 'eq' });
    }
    // Sorts: open actions (null) first ascending, last descending; ties by createdAt.
    const order = (a: { closedAt: string | null; createdAt: string }) => `${a.closedAt ?? ''}#${a.createdAt}`;
    const ascending = [...actions].sort((a, b) => (order(a) < order(b) ? -1 : 1)).map((a) => a.id);
    const sorted = await call('GET', `${base}&sort=closedAt`, { token: user.token });
    expect(sorted.body.actions.map((a: { id: string }) => a.id)).toEqual(ascending);
    const descending = await call('GET', `${base}&sort=-closedAt`, { token: user.token });
    expect(descending.body.actions.map((a: { id: string }) => a.id)).toEqual([...ascending].reverse());
    // Counts with a closedAt filter: each status group equals the list.
    const counts = await call(
      'GET',
      `/api/actions/counts?by=status&actionProducer.name=${producer}&closedAt=${today}`,
      {
        token: user.token,
      },
    );
    expect(counts.status).toBe(200);
    expect(counts.body.totalCount).toBe(closedAts.filter((at) => at.startsWith(today)).length);
    for (const group of counts.body.groups) {
      const list = await call('GET', `${base}&closedAt=${today}&status==${group.key.status}`, {
        token: user.token,
      });
      expect(list.body.totalCount).toBe(group.count);
    }
  });
});
