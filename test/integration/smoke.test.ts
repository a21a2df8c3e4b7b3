import { describe, expect, it } from 'vitest';
import { actionBody, call, expectProblem, newUser, uniqueProducer } from '../support/client';

describe('create and list', () => {
  it('creates an action and lists it back in the seed shape', async () => {
    const ann = newUser('Ann');
    const producer = uniqueProducer('smoke');
    const created = await call('POST', '/api/actions', { token: ann.token, body: actionBody(producer) });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id']);
    const listed = await call('GET', `/api/actions?actionProducer.name=${producer}`, { token: ann.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(listed.body.totalCount).toBe(1);
    const [action] = listed.body.actions;
    expect(action).toMatchObject({
      id: created.body.id,
      priority: '2',
      status: '1',
      dueAt: '2036-12-01T10:00:00.000Z',
      owner: { id: ann.id, name: 'Ann', email: ann.email },
      initiator: { id: ann.id, name: 'Ann', email: ann.email },
      assignee: { id: 'undefined', name: 'Unknown user', email: '' },
      endorsedBy: [],
      tags: [],
      comments: [],
      attachments: [],
    });
    expect(action.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('401 for a missing or bad token, on every route', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/actions'],
    ['POST', '/api/actions'],
    ['GET', '/api/actions/some-id'],
    ['PATCH', '/api/actions/some-id'],
    ['DELETE', '/api/actions/some-id'],
  ];
  const headers: Array<[string, Record<string, string>]> = [
    ['no Authorization', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['garbage', { authorization: 'Bearer garbage' }],
    ['three garbage parts', { authorization: 'Bearer aaa.bbb.ccc' }],
    ['Basic credentials', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a token without the Bearer word', { authorization: newUser().token }],
  ];
  it.each(routes.flatMap(([method, path]) => headers.map(([what, h]) => [method, path, what, h] as const)))(
    '%s %s with %s -> 401',
    async (method, path, _what, h) => {
      const body = method === 'POST' || method === 'PATCH' ? { title: 'x' } : undefined;
      const reply = await call(method, path, { headers: h, body });
      expectProblem(reply, 401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(JSON.stringify(reply.body)).not.toMatch(/signature|expired|issuer|audience|jwk/i);
    },
  );
});

describe('routes nobody serves', () => {
  const user = newUser();
  it.each([
    ['GET', '/nope'],
    ['GET', '/api'],
    ['GET', '/api/action'],
    ['GET', '/api/actions/a/b'],
    ['POST', '/nope'],
    ['GET', '/api/actions/'],
  ])('%s %s -> 404 problem+json', async (method, path) => {
    expectProblem(await call(method, path, { token: user.token }), 404);
  });

  it.each([
    ['PUT', '/api/actions', 'GET, POST'],
    ['DELETE', '/api/actions', 'GET, POST'],
    ['PATCH', '/api/actions', 'GET, POST'],
    ['POST', '/api/actions/x', 'GET, PATCH, DELETE'],
    ['PUT', '/api/actions/x', 'GET, PATCH, DELETE'],
  ])('%s %s -> 405 with Allow', async (method, path, allow) => {
    const reply = await call(method, path, { token: user.token });
    expectProblem(reply, 405);
    expect(reply.headers.get('allow')?.split(/,\s*/).sort()).toEqual(allow.split(', ').sort());
  });

  it('an id longer than any key can hold is simply not found, and not echoed in full', async () => {
    const reply = await call('GET', `/api/actions/${'x'.repeat(2100)}`, { token: user.token });
    expectProblem(reply, 404);
    expect(reply.body.detail.length).toBeLessThan(200);
  });

  it('odd query strings, paths and bodies never yield a 500', async () => {
    const odd = [
      await call('GET', '/api/actions?%', { token: user.token }),
      await call('GET', '/api/actions?&&&=&', { token: user.token }),
      await call('GET', '/api/actions/%E0%A4%A', { token: user.token }),
      await call('GET', `/api/actions?${'a'.repeat(5000)}=1`, { token: user.token }),
      await call('PATCH', '/api/actions/x', { token: user.token, headers: { 'content-type': 'application/json' } }),
      await call('GET', `/api/actions/${'x'.repeat(2100)}`, { token: user.token }),
      await call('GET', `/api/actions/${'€'.repeat(1000)}`, { token: user.token }),
      await call('PATCH', `/api/actions/${'x'.repeat(2100)}`, { token: user.token, body: { title: 'x' } }),
      await call('DELETE', `/api/actions/${'x'.repeat(2100)}`, { token: user.token }),
    ];
    for (const reply of odd) {
      expect(reply.status).toBeLessThan(500);
      if (reply.status >= 400) expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});
