import { describe, expect, it } from 'vitest';
import { actionBody, call, newUser, uniqueProducer } from '../support/client';

describe('create and list', () => {
  it('creates an action and lists it back in the seed shape', async () => {
    const ann = newUser('Ann');
    const producer = uniqueProducer('smoke');
    const created = await call('POST', '/api/actions', { token: ann.token, body: actionBody(producer) });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id']);
    const listed = await call('GET', `/api/actions?actionProducer.name=${producer}`, { token: ann.token });
    expect(listed.status).toBe(200);
    expect(listed.body.totalCount).toBe(1);
    const [action] = listed.body.actions;
    expect(action).toMatchObject({
      id: created.body.id,
      priority: '2',
      status: '1',
      dueAt: '2026-12-01T10:00:00.000Z',
      owner: { id: ann.id, name: 'Ann', email: ann.email },
      assignee: { id: 'undefined', name: 'Unknown user', email: '' },
      endorsedBy: [],
      tags: [],
      comments: [],
    });
  });
});
