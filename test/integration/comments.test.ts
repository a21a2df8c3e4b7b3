import { beforeAll, describe, expect, it } from 'vitest';
import {
  actionBody,
  call,
  create,
  expectProblem,
  getOne,
  list,
  newUser,
  q,
  type TestUser,
  uniqueProducer,
} from '../support/client';

/** Issue 15, contract section 8: comments and endorsements, through HTTP. */

const comment = (user: TestUser, id: string, text: string) =>
  call('POST', `/api/actions/${id}/comments`, { token: user.token, body: { text } });
const thread = (user: TestUser, id: string, query = '') =>
  call('GET', `/api/actions/${id}/comments${query}`, { token: user.token });

describe('comments', () => {
  const owner = newUser('Olive Owner');
  const author = newUser('Arthur Author');
  const stranger = newUser('Stella Stranger');
  let id: string;

  beforeAll(async () => {
    id = await create(owner.token, actionBody(uniqueProducer('comments')));
  });

  it('anyone signed in comments: 201 with the comment and its Location; the action moves', async () => {
    const before = await getOne(owner.token, id);
    const reply = await comment(author, id, 'The photo is blurry.\nPlease retake it.');
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      id: expect.any(String),
      author: { id: author.id, name: 'Arthur Author', email: author.email },
      text: 'The photo is blurry.\nPlease retake it.',
    });
    expect(reply.body.createdAt).toBe(reply.body.updatedAt);
    expect(reply.headers.get('location')).toBe(`/api/actions/${id}/comments/${reply.body.id}`);
    const after = await getOne(owner.token, id);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body.updatedAt > before.body.updatedAt).toBe(true);
    expect(after.body.commentCount).toBe(before.body.commentCount + 1);
    expect(after.body.comments.at(-1)).toEqual(reply.body);
  });

  it('refuses blank, oversized, malformed and unknown input with a 400 naming the field', async () => {
    expectProblem(await comment(author, id, '   '), 400, { field: 'text' });
    expectProblem(await comment(author, id, 'x'.repeat(2001)), 400, { field: 'text' });
    expect((await comment(author, id, 'y'.repeat(2000))).status).toBe(201);
    expectProblem(await comment(author, id, 'half a pair \ud800'), 400, { field: 'text' });
    expectProblem(await comment(author, id, 'bell \u0007'), 400, { field: 'text' });
    const unknown = await call('POST', `/api/actions/${id}/comments`, {
      token: author.token,
      body: { text: 'ok', pinned: true },
    });
    expectProblem(unknown, 400, { field: 'pinned' });
    const missing = await call('POST', `/api/actions/${id}/comments`, { token: author.token, body: {} });
    expectProblem(missing, 400, { field: 'text' });
  });

  it('is a 404 on a missing or deleted action', async () => {
    expectProblem(await comment(author, '00000000-0000-4000-8000-000000000000', 'hello'), 404);
    const gone = await create(owner.token, actionBody(uniqueProducer('comments-gone')));
    expect((await call('DELETE', `/api/actions/${gone}`, { token: owner.token })).status).toBe(204);
    expectProblem(await comment(author, gone, 'too late'), 404);
    expectProblem(await thread(author, gone), 404);
  });

  it('only the author edits; the author or the owner deletes; anyone else gets 403', async () => {
    const written = (await comment(author, id, 'Part on order')).body;
    const path = `/api/actions/${id}/comments/${written.id}`;
    expectProblem(await call('PATCH', path, { token: owner.token, body: { text: 'Owner rewrite' } }), 403);
    expectProblem(await call('PATCH', path, { token: stranger.token, body: { text: 'Nope' } }), 403);
    const edited = await call('PATCH', path, { token: author.token, body: { text: 'Part arrived' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: written.id, text: 'Part arrived', createdAt: written.createdAt });
    expect(edited.body.updatedAt > written.updatedAt).toBe(true);
    expectProblem(await call('DELETE', path, { token: stranger.token }), 403);
    expect((await call('DELETE', path, { token: owner.token })).status).toBe(204);
    expectProblem(await call('DELETE', path, { token: owner.token }), 404);
    const mine = (await comment(author, id, 'Mine to delete')).body;
    expect((await call('DELETE', `/api/actions/${id}/comments/${mine.id}`, { token: author.token })).status).toBe(204);
    expectProblem(
      await call('PATCH', `/api/actions/${id}/comments/not-a-comment`, { token: author.token, body: { text: 'x' } }),
      404,
    );
  });

  it('shows the latest five, oldest of them first, with commentCount, in GET and in lists; a deleted one is replaced', async () => {
    const producer = uniqueProducer('latest-five');
    const action = await create(owner.token, actionBody(producer));
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) ids.push((await comment(author, action, `Comment ${i}`)).body.id);
    const got = (await getOne(owner.token, action)).body;
    expect(got.commentCount).toBe(7);
    expect(got.comments.map((c: { text: string }) => c.text)).toEqual([3, 4, 5, 6, 7].map((i) => `Comment ${i}`));
    const listed = await list(owner.token, q('actionProducer.name', producer));
    expect(listed.actions[0].commentCount).toBe(7);
    expect(listed.actions[0].comments).toEqual(got.comments);
    // Deleting one of the latest brings the one before them back into view.
    expect((await call('DELETE', `/api/actions/${action}/comments/${ids[5]}`, { token: author.token })).status).toBe(
      204,
    );
    const after = (await getOne(owner.token, action)).body;
    expect(after.commentCount).toBe(6);
    expect(after.comments.map((c: { text: string }) => c.text)).toEqual([
      'Comment 2',
      'Comment 3',
      'Comment 4',
      'Comment 5',
      'Comment 7',
    ]);
  });

  it('pages through the whole thread oldest first with an opaque cursor that only this thread accepts', async () => {
    const action = await create(owner.token, actionBody(uniqueProducer('thread')));
    const other = await create(owner.token, actionBody(uniqueProducer('thread-other')));
    await comment(author, other, 'elsewhere');
    for (let i = 0; i < 120; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => comment(author, action, `#${i + j}`)));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await thread(author, action, `?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.comments.map((c: { id: string }) => c.id));
      cursor = page.body.nextCursor;
      pages++;
      if (cursor) {
        // Another action's thread, the history, or an altered cursor: 400, never someone else's data.
        expectProblem(await thread(author, other, `?cursor=${cursor}`), 400, { parameter: 'cursor' });
        expectProblem(
          await call('GET', `/api/actions/${action}/history?cursor=${cursor}`, { token: author.token }),
          400,
          { parameter: 'cursor' },
        );
        expectProblem(await thread(author, action, `?cursor=${cursor.slice(0, -2)}xy`), 400, { parameter: 'cursor' });
      }
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    // Oldest first: comment ids are time-ordered, and the thread is in their order.
    expect(seen).toEqual([...seen].sort());
    expectProblem(await thread(author, action, '?limit=0'), 400, { parameter: 'limit' });
    expectProblem(await thread(author, action, '?limit=101'), 400, { parameter: 'limit' });
    expectProblem(await thread(author, action, '?order=desc'), 400, { parameter: 'order' });
    expect((await thread(author, action, '?limit=100')).body.comments).toHaveLength(100);
  });

  it('keeps all of 50 concurrent comments, in one gap-free history', async () => {
    const action = await create(owner.token, actionBody(uniqueProducer('race-comments')));
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => comment(author, action, `race ${i}`)));
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect((await getOne(owner.token, action)).body.commentCount).toBe(50);
    expect((await thread(author, action, '?limit=100')).body.comments).toHaveLength(50);
    const history = (await call('GET', `/api/actions/${action}/history?limit=100`, { token: author.token })).body;
    expect(history.entries.map((e: { version: number }) => e.version)).toEqual(
      Array.from({ length: 51 }, (_, i) => i + 1),
    );
    expect(history.entries.filter((e: { type: string }) => e.type === 'commented')).toHaveLength(50);
  });

  it('comments racing an If-Match edit: the edit is 200 or 412, and no comment is lost', async () => {
    const action = await create(owner.token, actionBody(uniqueProducer('race-edit')));
    const etag = (await getOne(owner.token, action)).headers.get('etag') as string;
    const [edit, ...comments] = await Promise.all([
      call('PATCH', `/api/actions/${action}`, {
        token: owner.token,
        body: { status: 3 },
        headers: { 'if-match': etag },
      }),
      ...Array.from({ length: 10 }, (_, i) => comment(author, action, `during the edit ${i}`)),
    ]);
    expect([200, 412]).toContain(edit.status);
    expect(comments.map((c) => c.status)).toEqual(Array(10).fill(201));
    const after = (await getOne(owner.token, action)).body;
    expect(after.commentCount).toBe(10);
    expect(after.status).toBe(edit.status === 200 ? '3' : '1');
  });
});

describe('endorsements', () => {
  const owner = newUser('Enid Owner');
  const fan = newUser('Frank Fan');

  it('PUT endorses once (again changes nothing), DELETE withdraws (also when there was none)', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('endorse')));
    const path = `/api/actions/${id}/endorsements/me`;
    const first = await call('PUT', path, { token: fan.token });
    expect(first.status).toBe(200);
    expect(first.body.endorsedBy).toEqual([
      { id: fan.id, name: 'Frank Fan', email: fan.email, endorsedAt: first.body.updatedAt },
    ]);
    const again = await call('PUT', path, { token: fan.token });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.body.endorsedBy).toHaveLength(1);
    const second = await call('PUT', path, { token: owner.token });
    expect(second.body.endorsedBy.map((e: { id: string }) => e.id)).toEqual([fan.id, owner.id]);
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((await call('DELETE', path, { token: fan.token })).status).toBe(204);
    const after = await getOne(owner.token, id);
    expect(after.body.endorsedBy.map((e: { id: string }) => e.id)).toEqual([owner.id]);
    const etag = after.headers.get('etag');
    expect((await call('DELETE', path, { token: fan.token })).status).toBe(204);
    expect((await getOne(owner.token, id)).headers.get('etag')).toBe(etag);
    expectProblem(
      await call('PUT', '/api/actions/00000000-0000-4000-8000-000000000000/endorsements/me', { token: fan.token }),
      404,
    );
  });

  it('holds at most 100 endorsements: the 101st is a 409', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('endorse-many')));
    const path = `/api/actions/${id}/endorsements/me`;
    const users = Array.from({ length: 101 }, (_, i) => newUser(`Endorser ${i}`));
    // Five at a time: this test is about the limit; a burst on one action is contention.test.ts's
    // subject, run alone (20 at once on the shared stack met the store timeout in a full run).
    for (let i = 0; i < 100; i += 5) {
      const replies = await Promise.all(users.slice(i, i + 5).map((u) => call('PUT', path, { token: u.token })));
      expect(replies.map((r) => r.status)).toEqual(Array(5).fill(200));
    }
    expectProblem(await call('PUT', path, { token: (users[100] as TestUser).token }), 409);
    const got = (await getOne(owner.token, id)).body;
    expect(got.endorsedBy).toHaveLength(100);
    // Read back at its fullest, the action still lists and edits.
    expect((await call('PATCH', `/api/actions/${id}`, { token: owner.token, body: { status: 2 } })).status).toBe(200);
  });
});

describe('size limits at their edges', () => {
  const owner = newUser('Lena Limits');

  it('an action at its largest (long text, 5 longest comments, 100 endorsers) still reads, lists, edits and has its history', async () => {
    const producer = uniqueProducer('largest');
    // '€' is one character and three bytes of UTF-8.
    const id = await create(
      owner.token,
      actionBody(producer, { description: '€'.repeat(10_000), tags: Array(50).fill('€'.repeat(100)) }),
    );
    for (let i = 0; i < 5; i++) {
      expect((await comment(owner, id, `${i}${'€'.repeat(1999)}`)).status).toBe(201);
    }
    for (let i = 0; i < 100; i += 25) {
      const users = Array.from({ length: 25 }, (_, j) => newUser(`Endorser ${'€'.repeat(150)} ${i + j}`));
      const replies = await Promise.all(
        users.map((u) => call('PUT', `/api/actions/${id}/endorsements/me`, { token: u.token })),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(25).fill(200));
    }
    const got = await getOne(owner.token, id);
    expect(got.body.endorsedBy).toHaveLength(100);
    expect(got.body.comments).toHaveLength(5);
    expect((await call('PATCH', `/api/actions/${id}`, { token: owner.token, body: { status: 4 } })).status).toBe(200);
    expect((await list(owner.token, `${q('actionProducer.name', producer)}&limit=100`)).actions).toHaveLength(1);
    const history = await call('GET', `/api/actions/${id}/history?limit=100`, { token: owner.token });
    expect(history.body.entries).toHaveLength(100);
    const rest = await call('GET', `/api/actions/${id}/history?cursor=${history.body.nextCursor}`, {
      token: owner.token,
    });
    expect(rest.body.entries.map((e: { version: number }) => e.version)).toEqual([101, 102, 103, 104, 105, 106, 107]);
  }, 120_000);

  it('refuses, with a 409 that says why, a change that would outgrow what one action can hold', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('too-large')));
    // Names come from tokens (a header: about 9 KB of name fits); 40 such endorsers outgrow 300 KB.
    const statuses: number[] = [];
    let refusal: any;
    for (let i = 0; i < 40; i++) {
      const reply = await call('PUT', `/api/actions/${id}/endorsements/me`, {
        token: newUser(`${i}${'€'.repeat(3_000)}`).token,
      });
      statuses.push(reply.status);
      if (reply.status === 409) refusal = reply;
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toContain(409);
    expectProblem(refusal, 409);
    expect(refusal.body.detail).toMatch(/more than the 300000 one action can hold/);
    expect((await getOne(owner.token, id)).body.endorsedBy.length).toBe(statuses.filter((s) => s === 200).length);
  }, 60_000);
});
