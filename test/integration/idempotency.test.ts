import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { actionBody, call, create, dataDir, expectProblem, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 25, contract section 11: `Idempotency-Key` on the creating POSTs. A repeat gets the first
 * response again and creates nothing; another body is a 422, a repeat while the first still runs
 * a 409; ten repeats at once make one action; another caller's same key is another key.
 */

const post = (path: string, token: string, body: unknown, key?: string) =>
  call('POST', path, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

const count = async (token: string, producer: string) =>
  (await list(token, `${q('actionProducer.name', producer)}&limit=0`)).totalCount;

describe('Idempotency-Key', () => {
  beforeAll(() => {
    Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
  });

  it('answers a repeat with the first response and creates nothing; another body is a 422', async () => {
    const ann = newUser();
    const producer = uniqueProducer('idem');
    const key = randomUUID();
    const first = await post('/api/actions', ann.token, actionBody(producer), key);
    expect(first.status).toBe(201);
    // The same body with its fields in another order is the same request.
    const { title, ...rest } = actionBody(producer);
    const again = await post('/api/actions', ann.token, { ...rest, title }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await count(ann.token, producer)).toBe(1);

    const other = await post('/api/actions', ann.token, actionBody(producer, { title: 'Another' }), key);
    expectProblem(other, 422, { parameter: 'Idempotency-Key' });
    // The draft's structured-field form names the same key.
    const quoted = await post('/api/actions', ann.token, actionBody(producer), `"${key}"`);
    expect(quoted.body).toEqual(first.body);
    // Without a key, or with a new one, each POST creates.
    await post('/api/actions', ann.token, actionBody(producer));
    await post('/api/actions', ann.token, actionBody(producer), randomUUID());
    expect(await count(ann.token, producer)).toBe(3);
  });

  it('keeps one caller’s key from another’s', async () => {
    const [ann, bob] = [newUser(), newUser()];
    const producer = uniqueProducer('idem-callers');
    const key = 'shared-key-1';
    const a = await post('/api/actions', ann.token, actionBody(producer), key);
    const b = await post('/api/actions', bob.token, actionBody(producer), key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    expect(await count(ann.token, producer)).toBe(2);
  });

  it('makes one action of ten repeats sent at once', async () => {
    const ann = newUser();
    const producer = uniqueProducer('idem-ten');
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/actions', ann.token, actionBody(producer), key)),
    );
    const created = replies.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const reply of replies.filter((r) => r.status !== 201))
      expectProblem(reply, 409, { parameter: 'Idempotency-Key' });
    expect(await count(ann.token, producer)).toBe(1);
  });

  it('answers a repeat while the first is still being processed with a 409, then with the first response', async () => {
    const ann = newUser('Ann Slow');
    const producer = uniqueProducer('idem-flight');
    const key = randomUUID();
    const body = actionBody(producer);
    const { once } = await import('../../lib/actions/idempotency');
    const { createAction } = await import('../../lib/actions/action-service');
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const caller = { id: ann.id, name: ann.name, email: ann.email };
    // The first request, held in flight in this process, through the same code the handler runs.
    const first = once(
      { caller, header: key, method: 'POST', path: '/api/actions', body },
      (action: { id: string }) => ({ status: 201, body: { id: action.id }, location: `/api/actions/${action.id}` }),
      async (remember) => {
        await gate;
        return createAction(caller, body, remember);
      },
    );
    await new Promise((r) => setTimeout(r, 300));
    expectProblem(await post('/api/actions', ann.token, body, key), 409, { parameter: 'Idempotency-Key' });
    expectProblem(await post('/api/actions', ann.token, { ...body, title: 'other' }, key), 422, {
      parameter: 'Idempotency-Key',
    });
    open();
    const made = await first;
    const repeat = await post('/api/actions', ann.token, body, key);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(made.body);
    expect(repeat.headers.get('location')).toBe(made.location);
    expect(await count(ann.token, producer)).toBe(1);
  });

  it('frees a key whose request failed, so a corrected repeat creates', async () => {
    const ann = newUser();
    const producer = uniqueProducer('idem-fail');
    const key = randomUUID();
    expectProblem(await post('/api/actions', ann.token, { ...actionBody(producer), title: '' }, key), 400);
    expect((await post('/api/actions', ann.token, actionBody(producer), key)).status).toBe(201);
  });

  it('applies to comments: the same comment again, one in the thread', async () => {
    const ann = newUser();
    const bob = newUser();
    const id = await create(ann.token, actionBody(uniqueProducer('idem-comment')));
    const key = randomUUID();
    const path = `/api/actions/${id}/comments`;
    const first = await post(path, bob.token, { text: 'Checked the belt' }, key);
    expect(first.status).toBe(201);
    const again = await post(path, bob.token, { text: 'Checked the belt' }, key);
    expect(again.status).toBe(201);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expectProblem(await post(path, bob.token, { text: 'Something else' }, key), 422, { parameter: 'Idempotency-Key' });
    // The same key on another route is another request: a 422, never a comment made from an action's reply.
    expectProblem(await post('/api/actions', bob.token, { text: 'Checked the belt' }, key), 422, {
      parameter: 'Idempotency-Key',
    });
    const thread = await call('GET', path, { token: ann.token });
    expect(thread.body.comments).toHaveLength(1);
  });

  it('refuses a key that is not 1-255 printable ASCII characters', async () => {
    const ann = newUser();
    const body = actionBody(uniqueProducer('idem-bad'));
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9', 'tab\there'])
      expectProblem(await post('/api/actions', ann.token, body, key), 400, { parameter: 'Idempotency-Key' });
    expect((await post('/api/actions', ann.token, body, 'x'.repeat(255))).status).toBe(201);
  });
});
