import { describe, expect, it } from 'vitest';
import { actionBody, call, create, getOne, list, newUser, q, uniqueProducer, useOwnStack } from '../support/client';

/**
 * Concurrent edits: the store's conditional write, not a stale read, decides who wins. On a stack
 * of its own: on the shared one, the other files' requests queue in the same store and spend the
 * contended writes' retry budget (5 s) for them.
 */

useOwnStack();

const owner = newUser('Race Owner');
const stranger = newUser('Race Stranger');
const N = 50;

const patch = (id: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', `/api/actions/${id}`, { token, body, headers });

const count = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((c, s) => {
    c[s] = (c[s] ?? 0) + 1;
    return c;
  }, {});

describe('races', () => {
  it(`${N} concurrent patches with the same If-Match: exactly one 200, ${N - 1} 412`, async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('race')));
    const { headers, body: before } = await getOne(owner.token, id);
    const etag = headers.get('etag') as string;
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) => patch(id, owner.token, { title: `Writer ${i}` }, { 'if-match': etag })),
    );
    expect(count(replies.map((r) => r.status))).toEqual({ 200: 1, 412: N - 1 });
    const winner = replies.find((r) => r.status === 200);
    const after = await getOne(owner.token, id);
    // What is stored is exactly the winner's write, one version on.
    expect(after.body).toEqual(winner?.body);
    expect(after.headers.get('etag')).toBe(winner?.headers.get('etag'));
    expect(after.body.createdAt).toBe(before.createdAt);
    for (const r of replies.filter((r) => r.status === 412)) {
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it(`${N} concurrent patches from a non-owner: ${N} 403, and no change`, async () => {
    const producer = uniqueProducer('race');
    const id = await create(owner.token, actionBody(producer));
    const before = await getOne(owner.token, id);
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) => patch(id, stranger.token, { title: `Intruder ${i}`, status: i })),
    );
    expect(count(replies.map((r) => r.status))).toEqual({ 403: N });
    const after = await getOne(owner.token, id);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(
      (await list(owner.token, `${q('actionProducer.name', producer)}&title=${encodeURIComponent('*intruder')}`))
        .totalCount,
    ).toBe(0);
  });

  it('a stranger racing the owner who closes anonymous edits never gets an edit in after the close', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('race'), { allowAnonymousEdits: true }));
    const strangers = Array.from({ length: N }, (_, i) => patch(id, stranger.token, { description: `anon ${i}` }));
    const close = patch(id, owner.token, { allowAnonymousEdits: false });
    const [closed, ...rest] = await Promise.all([close, ...strangers]);
    expect(closed?.status).toBe(200);
    for (const r of rest) expect([200, 403]).toContain(r.status);
    // Every stranger edit that succeeded came before the close: the final state has the flag off,
    // and a stranger's 200 never carries a version later than the close.
    const closedVersion = Number(JSON.parse(closed?.headers.get('etag') as string));
    for (const r of rest.filter((r) => r.status === 200)) {
      expect(Number(JSON.parse(r.headers.get('etag') as string))).toBeLessThan(closedVersion);
      expect(r.body.allowAnonymousEdits).toBe(true);
    }
    const after = await getOne(owner.token, id);
    expect(after.body.allowAnonymousEdits).toBe(false);
  });

  it(`${N} concurrent deletes by the owner: one 204, ${N - 1} 404, and it is gone`, async () => {
    const producer = uniqueProducer('race');
    const id = await create(owner.token, actionBody(producer));
    const replies = await Promise.all(
      Array.from({ length: N }, () => call('DELETE', `/api/actions/${id}`, { token: owner.token })),
    );
    expect(count(replies.map((r) => r.status))).toEqual({ 204: 1, 404: N - 1 });
    expect((await call('GET', `/api/actions/${id}`, { token: owner.token })).status).toBe(404);
    expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(0);
  });

  it('edits racing a delete either land before it or find nothing (404); none revives it', async () => {
    const producer = uniqueProducer('race');
    const id = await create(owner.token, actionBody(producer));
    const edits = Array.from({ length: 20 }, (_, i) => patch(id, owner.token, { title: `Edit ${i}` }));
    const [deleted, ...rest] = await Promise.all([
      call('DELETE', `/api/actions/${id}`, { token: owner.token }),
      ...edits,
    ]);
    expect(deleted?.status).toBe(204);
    for (const r of rest) expect([200, 404]).toContain(r.status);
    expect((await call('GET', `/api/actions/${id}`, { token: owner.token })).status).toBe(404);
    expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(0);
  });

  // Without If-Match an edit applies to whatever is current, so losing a race is retried, not
  // refused. (20, not 50: the embedded store serializes writes at ~10 ms each on this machine.)
  it('20 concurrent patches without If-Match all land, each on its own version', async () => {
    const M = 20;
    const id = await create(owner.token, actionBody(uniqueProducer('race'), { tags: [] }));
    const { body: before } = await getOne(owner.token, id);
    const replies = await Promise.all(Array.from({ length: M }, (_, i) => patch(id, owner.token, { tags: [`t${i}`] })));
    expect(count(replies.map((r) => r.status))).toEqual({ 200: M });
    expect(new Set(replies.map((r) => r.headers.get('etag'))).size).toBe(M);
    const updatedAts = replies.map((r) => r.body.updatedAt as string).sort();
    expect(new Set(updatedAts).size).toBe(M);
    expect((updatedAts[0] as string) > before.updatedAt).toBe(true);
    // The last write is the one stored.
    const last = replies.find((r) => r.body.updatedAt === updatedAts[M - 1]);
    expect((await getOne(owner.token, id)).body).toEqual(last?.body);
  });
});
