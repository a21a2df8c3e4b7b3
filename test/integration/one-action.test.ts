import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, getOne, list, newUser, q, uniqueProducer } from '../support/client';

/** One action through HTTP (contract section 5): get, merge-patch under the edit rule, delete. */

const owner = newUser('Olive Owner');
const assignee = newUser('Andy Assignee');
const stranger = newUser('Sam Stranger');

const patch = (id: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', `/api/actions/${id}`, { token, body, headers });

/** A fresh action owned by `owner` and assigned to `assignee`. */
async function fresh(overrides: Record<string, unknown> = {}) {
  const producer = uniqueProducer('one');
  const id = await create(
    owner.token,
    actionBody(producer, {
      assignee: { id: assignee.id, name: assignee.name, email: assignee.email },
      tags: ['a'],
      attachments: [{ url: 'https://files.example.com/1.png' }],
      ...overrides,
    }),
  );
  const { body, headers } = await getOne(owner.token, id);
  return { id, producer, action: body, etag: headers.get('etag') as string };
}

describe('GET /api/actions/{id}', () => {
  it('200 with the action (as listed) and an ETag', async () => {
    const { id, producer, action, etag } = await fresh();
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(action.id).toBe(id);
    const listed = await list(stranger.token, q('actionProducer.name', producer));
    expect(listed.actions).toEqual([action]);
    // Any authenticated caller may read.
    expect((await getOne(stranger.token, id)).body).toEqual(action);
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'x'.repeat(300), '%F0%9F%98%80'])(
    'unknown id %s -> 404',
    async (id) => {
      expectProblem(await call('GET', `/api/actions/${id}`, { token: owner.token }), 404);
    },
  );

  it('401 without a token, even for an unknown id', async () => {
    expectProblem(await call('GET', '/api/actions/nope'), 401);
  });
});

describe('PATCH: who may edit', () => {
  it('the owner may (200, the updated action and a new ETag)', async () => {
    const { id, etag } = await fresh();
    const reply = await patch(id, owner.token, { title: 'By owner' });
    expect(reply.status).toBe(200);
    expect(reply.body.title).toBe('By owner');
    expect(reply.headers.get('etag')).not.toBe(etag);
    expect((await getOne(owner.token, id)).body).toEqual(reply.body);
    expect((await getOne(owner.token, id)).headers.get('etag')).toBe(reply.headers.get('etag'));
  });

  it('the assignee may (200)', async () => {
    const { id } = await fresh();
    const reply = await patch(id, assignee.token, { status: '2', description: 'started' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: '2', description: 'started' });
  });

  it('a stranger may not (403) and nothing changes', async () => {
    const { id, action, etag } = await fresh();
    expectProblem(await patch(id, stranger.token, { title: 'Hijacked' }), 403);
    expectProblem(await patch(id, stranger.token, { assignee: { id: stranger.id } }), 403);
    expectProblem(await patch(id, stranger.token, {}), 403);
    const after = await getOne(owner.token, id);
    expect(after.body).toEqual(action);
    expect(after.headers.get('etag')).toBe(etag);
  });

  it('a former assignee may not, once reassigned', async () => {
    const { id } = await fresh();
    expect((await patch(id, owner.token, { assignee: { id: stranger.id } })).status).toBe(200);
    expectProblem(await patch(id, assignee.token, { title: 'Too late' }), 403);
    expect((await patch(id, stranger.token, { title: 'New assignee' })).status).toBe(200);
  });

  it('anyone may edit an allowAnonymousEdits action, but only the owner may change the flag', async () => {
    const { id } = await fresh({ allowAnonymousEdits: true });
    const edited = await patch(id, stranger.token, { title: 'Community edit', priority: 5 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Community edit', priority: '5', allowAnonymousEdits: true });

    const before = await getOne(owner.token, id);
    expectProblem(await patch(id, stranger.token, { allowAnonymousEdits: false }), 403);
    expectProblem(await patch(id, stranger.token, { allowAnonymousEdits: true, title: 'Sneaky' }), 403);
    expectProblem(await patch(id, assignee.token, { allowAnonymousEdits: false }), 403);
    const after = await getOne(owner.token, id);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));

    const closed = await patch(id, owner.token, { allowAnonymousEdits: false });
    expect(closed.status).toBe(200);
    expect(closed.body.allowAnonymousEdits).toBe(false);
    expectProblem(await patch(id, stranger.token, { title: 'Locked out' }), 403);
  });

  it('the owner may open an action to anonymous edits', async () => {
    const { id } = await fresh();
    expect((await patch(id, owner.token, { allowAnonymousEdits: true })).status).toBe(200);
    expect((await patch(id, stranger.token, { title: 'Now open' })).status).toBe(200);
  });

  it('an unknown id -> 404', async () => {
    expectProblem(await patch('00000000-0000-4000-8000-000000000000', owner.token, { title: 'x' }), 404);
  });
});

describe('PATCH: which error wins (400 > 404 > 403 > 412)', () => {
  const unknown = '00000000-0000-4000-8000-00000000dead';

  it('a bad body is 400 even on an unknown id, for a stranger, with a stale If-Match', async () => {
    const { id } = await fresh();
    const stale = { 'if-match': '"999999"' };
    expectProblem(await patch(unknown, stranger.token, { title: '' }, stale), 400, { field: 'title' });
    expectProblem(await patch(id, stranger.token, { owner: { id: stranger.id } }, stale), 400, { field: 'owner' });
  });

  it('an unknown id is 404 for a stranger with a stale If-Match', async () => {
    expectProblem(await patch(unknown, stranger.token, { title: 'ok' }, { 'if-match': '"1"' }), 404);
  });

  it('a stranger is 403 even with a stale If-Match', async () => {
    const { id } = await fresh();
    expectProblem(await patch(id, stranger.token, { title: 'ok' }, { 'if-match': '"999999"' }), 403);
  });

  it('the owner with a stale If-Match is 412', async () => {
    const { id } = await fresh();
    expectProblem(await patch(id, owner.token, { title: 'ok' }, { 'if-match': '"999999"' }), 412);
  });
});

describe('PATCH: If-Match', () => {
  it('the current ETag -> 200; the one it replaced -> 412 and nothing changes', async () => {
    const { id, etag } = await fresh();
    const first = await patch(id, owner.token, { title: 'First' }, { 'if-match': etag });
    expect(first.status).toBe(200);
    const current = first.headers.get('etag') as string;
    expectProblem(await patch(id, assignee.token, { title: 'Stale' }, { 'if-match': etag }), 412);
    expect((await getOne(owner.token, id)).body.title).toBe('First');
    expect((await patch(id, assignee.token, { title: 'Second' }, { 'if-match': current })).status).toBe(200);
  });

  it('If-Match: * matches; a weak ETag never does (strong comparison); an ETag never issued is stale', async () => {
    const { id, etag } = await fresh();
    expect((await patch(id, owner.token, { title: 'Star' }, { 'if-match': '*' })).status).toBe(200);
    const current = (await getOne(owner.token, id)).headers.get('etag') as string;
    for (const stale of [`W/${current}`, '"never-issued"', etag, '"-1"']) {
      const reply = await patch(id, owner.token, { title: 'x' }, { 'if-match': stale });
      expectProblem(reply, 412);
      expect(reply.headers.get('etag'), stale).toBe(current);
    }
    expect((await getOne(owner.token, id)).body.title).toBe('Star');
  });
});

describe('PATCH: merge-patch semantics', () => {
  it('null resets description, tags and attachments to their defaults', async () => {
    const { id } = await fresh();
    const reply = await patch(id, owner.token, { description: null, tags: null, attachments: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ description: '', tags: [], attachments: [] });
  });

  it.each(['title', 'dueAt', 'priority', 'status', 'allowAnonymousEdits'])(
    'null on required %s -> 400 naming it',
    async (field) => {
      const { id, action } = await fresh();
      expectProblem(await patch(id, owner.token, { [field]: null }), 400, { field });
      expect((await getOne(owner.token, id)).body).toEqual(action);
    },
  );

  it('fields left out stay as they were', async () => {
    const { id, action } = await fresh();
    const reply = await patch(id, owner.token, { priority: 7 });
    expect(reply.status).toBe(200);
    const { priority, updatedAt, version, ...rest } = reply.body;
    const { priority: _p, updatedAt: _u, version: _v, ...before } = action;
    expect(priority).toBe('7');
    expect(version).toBe(2);
    expect(rest).toEqual(before);
  });

  it('assignee is replaced whole; a missing name shows the id, a missing email null; null unassigns', async () => {
    const { id } = await fresh();
    const bare = await patch(id, owner.token, { assignee: { id: 'crew-12' } });
    expect(bare.status).toBe(200);
    expect(bare.body.assignee).toEqual({ id: 'crew-12', name: 'crew-12', email: null });
    const full = await patch(id, owner.token, {
      assignee: { id: 'crew-13', name: 'Crew 13', email: 'c13@example.com' },
    });
    expect(full.body.assignee).toEqual({ id: 'crew-13', name: 'Crew 13', email: 'c13@example.com' });
    const named = await patch(id, owner.token, { assignee: { id: 'crew-13', name: 'Renamed' } });
    expect(named.body.assignee).toEqual({ id: 'crew-13', name: 'Renamed', email: null });
    const none = await patch(id, owner.token, { assignee: null });
    expect(none.status).toBe(200);
    expect(none.body.assignee).toEqual({ id: 'undefined', name: 'Unknown user', email: '' });
    const listed = await list(owner.token, `${q('owner', owner.id)}&${q('assignee', 'undefined')}&limit=100`);
    expect(listed.actions.map((a) => a.id)).toContain(id);
    // The old assignee lost the right to edit with it.
    expectProblem(await patch(id, assignee.token, { title: 'x' }), 403);
  });

  it('location is merged field by field; null in a field empties it', async () => {
    const { id, action } = await fresh();
    const reply = await patch(id, owner.token, { location: { site: 'South Pit', crew: null } });
    expect(reply.status).toBe(200);
    expect(reply.body.location).toEqual({ ...action.location, site: 'South Pit', crew: '' });
    const listed = await list(owner.token, `${q('location.site', 'South Pit')}&${q('owner', owner.id)}&limit=100`);
    expect(listed.actions.map((a) => a.id)).toContain(id);
  });

  it('actionProducer.url can change; its name and reference cannot (400 naming the field)', async () => {
    const { id, producer } = await fresh({ actionProducer: { name: 'placeholder', reference: 'REF-1' } });
    const reply = await patch(id, owner.token, { actionProducer: { url: 'https://new.example.com/x' } });
    expect(reply.status).toBe(200);
    expect(reply.body.actionProducer).toEqual({
      name: 'placeholder',
      url: 'https://new.example.com/x',
      reference: 'REF-1',
    });
    const cleared = await patch(id, owner.token, { actionProducer: { url: null } });
    expect(cleared.body.actionProducer).toEqual({ name: 'placeholder', reference: 'REF-1' });
    const { body: before, headers } = await getOne(owner.token, id);
    for (const [actionProducer, field] of [
      [{ name: 'other' }, 'actionProducer.name'],
      [{ name: 'placeholder' }, 'actionProducer.name'],
      [{ reference: 'REF-2' }, 'actionProducer.reference'],
      [{ reference: null }, 'actionProducer.reference'],
      [{ reference: 'REF-1' }, 'actionProducer.reference'],
      [{ url: 'https://x.example.com', reference: 'REF-2' }, 'actionProducer.reference'],
    ] as const) {
      const refused = await patch(id, owner.token, { actionProducer });
      expectProblem(refused, 400, { field });
      const named = refused.body.errors.find((e: { field: string }) => e.field === field);
      expect(named.message).toBe('cannot be changed after creation');
    }
    expect((await getOne(owner.token, id)).body).toEqual(before);
    expect((await getOne(owner.token, id)).headers.get('etag')).toBe(headers.get('etag'));
    expect(producer).toBeDefined();
  });

  it('values are validated as on create', async () => {
    const { id, action } = await fresh();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ dueAt: '2026-12-01T10:00:00' }, 'dueAt'],
      [{ priority: -3 }, 'priority'],
      [{ status: 'open' }, 'status'],
      [{ tags: [''] }, 'tags.0'],
      [{ attachments: [{ name: 'no url' }] }, 'attachments.0.url'],
      [{ location: { planet: 'Mars' } }, 'location.planet'],
      [{ assignee: { name: 'no id' } }, 'assignee.id'],
      [{ allowAnonymousEdits: 'yes' }, 'allowAnonymousEdits'],
    ];
    for (const [body, field] of cases) expectProblem(await patch(id, owner.token, body), 400, { field });
    expect((await getOne(owner.token, id)).body).toEqual(action);
  });

  it('patched values come back normalized: numbers as strings, dueAt in ms Z', async () => {
    const { id } = await fresh();
    const reply = await patch(id, owner.token, {
      priority: 10,
      status: '9',
      dueAt: '2027-02-03T04:05:06.789123+01:00',
    });
    expect(reply.body).toMatchObject({ priority: '10', status: '9', dueAt: '2027-02-03T03:05:06.789Z' });
  });

  it.each(['id', 'owner', 'initiator', 'createdAt', 'updatedAt', 'endorsedBy', 'comments', 'colour'])(
    'mass assignment of %s -> 400 naming it, nothing changes',
    async (field) => {
      const { id, action } = await fresh();
      const value = field === 'endorsedBy' || field === 'comments' ? [] : { id: stranger.id, name: 'x', email: null };
      const plain = ['id', 'createdAt', 'updatedAt', 'colour'].includes(field) ? 'x' : value;
      expectProblem(await patch(id, owner.token, { title: 'ok', [field]: plain }), 400, { field });
      expect((await getOne(owner.token, id)).body).toEqual(action);
    },
  );

  it('application/merge-patch+json is accepted; other types are 415; bad JSON is 400', async () => {
    const { id } = await fresh();
    const typed = await call('PATCH', `/api/actions/${id}`, {
      token: owner.token,
      rawBody: JSON.stringify({ title: 'Merge patch' }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(typed.status).toBe(200);
    expect(typed.body.title).toBe('Merge patch');
    expectProblem(
      await call('PATCH', `/api/actions/${id}`, {
        token: owner.token,
        rawBody: '{"title":"x"}',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
    );
    expectProblem(
      await call('PATCH', `/api/actions/${id}`, {
        token: owner.token,
        rawBody: '{"title":',
        headers: { 'content-type': 'application/merge-patch+json' },
      }),
      400,
      { field: 'body' },
    );
    expectProblem(
      await call('PATCH', `/api/actions/${id}`, {
        token: owner.token,
        rawBody: '[]',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      { field: 'body' },
    );
  });
});

describe('PATCH: timestamps', () => {
  it('updatedAt moves forward on every edit; createdAt never changes', async () => {
    const { id, action } = await fresh();
    let last = action.updatedAt as string;
    for (let i = 0; i < 5; i++) {
      const reply = await patch(id, i % 2 ? assignee.token : owner.token, { description: `edit ${i}` });
      expect(reply.status).toBe(200);
      expect(reply.body.updatedAt > last).toBe(true);
      expect(reply.body.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(reply.body.createdAt).toBe(action.createdAt);
      last = reply.body.updatedAt;
    }
    // Lists see the new updatedAt too (the index keys moved with it).
    const listed = await list(owner.token, `${q('owner', owner.id)}&${q('updatedAt', last)}&limit=100`);
    expect(listed.actions.map((a) => a.id)).toEqual([id]);
  });
});

describe('DELETE /api/actions/{id}', () => {
  it('the assignee may not (403), a stranger may not (403); the owner may (204, then 404)', async () => {
    const { id, producer, action } = await fresh();
    expectProblem(await call('DELETE', `/api/actions/${id}`, { token: assignee.token }), 403);
    expectProblem(await call('DELETE', `/api/actions/${id}`, { token: stranger.token }), 403);
    expect((await getOne(owner.token, id)).body).toEqual(action);
    expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(1);

    const gone = await call('DELETE', `/api/actions/${id}`, { token: owner.token });
    expect(gone.status).toBe(204);
    expect(gone.body).toBeUndefined();
    expectProblem(await call('GET', `/api/actions/${id}`, { token: owner.token }), 404);
    expectProblem(await patch(id, owner.token, { title: 'Back?' }), 404);
    expectProblem(await call('DELETE', `/api/actions/${id}`, { token: owner.token }), 404);
    expect(await list(owner.token, q('actionProducer.name', producer))).toEqual({
      actions: [],
      totalCount: 0,
      totalCountRelation: 'eq',
    });
  });

  it('a stranger may not delete even an allowAnonymousEdits action', async () => {
    const { id } = await fresh({ allowAnonymousEdits: true });
    expectProblem(await call('DELETE', `/api/actions/${id}`, { token: stranger.token }), 403);
    expect((await getOne(owner.token, id)).status).toBe(200);
  });

  it('totalCount drops by one under every filter that matched it', async () => {
    const producer = uniqueProducer('del');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await create(owner.token, actionBody(producer, { status: i })));
    const scope = q('actionProducer.name', producer);
    expect((await list(owner.token, scope)).totalCount).toBe(3);
    expect((await call('DELETE', `/api/actions/${ids[1]}`, { token: owner.token })).status).toBe(204);
    expect((await list(owner.token, scope)).totalCount).toBe(2);
    expect((await list(owner.token, `${scope}&status=1`)).totalCount).toBe(0);
    expect((await list(owner.token, `${scope}&sort=title`)).actions.map((a) => a.id).sort()).toEqual(
      [ids[0], ids[2]].sort(),
    );
  });

  it('an unknown id -> 404; a stale If-Match -> 412', async () => {
    expectProblem(
      await call('DELETE', '/api/actions/00000000-0000-4000-8000-000000000000', { token: owner.token }),
      404,
    );
    const { id } = await fresh();
    expectProblem(
      await call('DELETE', `/api/actions/${id}`, { token: owner.token, headers: { 'if-match': '"99"' } }),
      412,
    );
    expect((await getOne(owner.token, id)).status).toBe(200);
  });

  it('a deleted action stays deleted; its producer reference, being data, blocks nothing', async () => {
    const producer = uniqueProducer('tomb');
    const body = actionBody(producer, { actionProducer: { name: producer, reference: 'R-9' } });
    const id = await create(owner.token, body);
    expect((await call('DELETE', `/api/actions/${id}`, { token: owner.token })).status).toBe(204);
    const again = await create(owner.token, body);
    expect(again).not.toBe(id);
    expectProblem(await call('GET', `/api/actions/${id}`, { token: owner.token }), 404);
    expect((await list(owner.token, q('actionProducer.name', producer))).actions.map((a) => a.id)).toEqual([again]);
  });
});
