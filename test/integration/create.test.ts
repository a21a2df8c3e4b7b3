import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, getOne, list, newUser, q, uniqueProducer } from '../support/client';

/** POST /api/actions through HTTP: what it accepts, how it answers, each 400 of contract section 3. */

const ann = newUser('Ann Lee');
const post = (body: unknown, headers: Record<string, string> = {}) =>
  call('POST', '/api/actions', { token: ann.token, body, headers });

describe('create', () => {
  it('answers 201 with only the id, a UUID, and a Location header', async () => {
    const reply = await post(actionBody(uniqueProducer('create')));
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body)).toEqual(['id']);
    expect(reply.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(reply.headers.get('location')).toBe(`/api/actions/${reply.body.id}`);
  });

  it('returns the seed shape: strings for numbers, ms Z dates, placeholders and empty arrays', async () => {
    const producer = uniqueProducer('shape');
    const before = new Date().toISOString();
    const id = await create(ann.token, {
      title: 'Minimal',
      actionProducer: { name: producer },
      dueAt: '2036-12-01T10:00:00Z',
      priority: 2,
      status: '1',
    });
    const { body } = await getOne(ann.token, id);
    expect(body).toEqual({
      id,
      title: 'Minimal',
      description: '',
      actionProducer: { name: producer },
      location: {
        businessUnit: '',
        site: '',
        department: '',
        workGroup: '',
        productiveUnit: '',
        team: '',
        crew: '',
      },
      allowAnonymousEdits: false,
      dueAt: '2036-12-01T10:00:00.000Z',
      priority: '2',
      status: '1',
      owner: { id: ann.id, name: 'Ann Lee', email: ann.email },
      initiator: { id: ann.id, name: 'Ann Lee', email: ann.email },
      assignee: { id: 'undefined', name: 'Unknown user', email: '' },
      endorsedBy: [],
      attachments: [],
      closedAt: null,
      tags: [],
      comments: [],
      commentCount: 0,
      overdue: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(body.updatedAt).toBe(body.createdAt);
    expect(body.createdAt >= before).toBe(true);
    const listed = await list(ann.token, q('actionProducer.name', producer));
    expect(listed).toEqual({ actions: [body], totalCount: 1, totalCountRelation: 'eq' });
  });

  it('keeps every optional field as sent', async () => {
    const producer = uniqueProducer('full');
    const body = actionBody(producer, {
      actionProducer: { name: producer, url: 'https://x.example.com/a?b=1', reference: 'INS-42' },
      allowAnonymousEdits: true,
      attachments: [{ url: 'https://files.example.com/p.jpg', name: 'p.jpg', contentType: 'image/jpeg', size: 12 }],
      tags: ['belt', 'Safety'],
      assignee: { id: 'crew-7', name: 'Crew Seven', email: 'c7@example.com' },
      description: '  spaced  ',
      title: '  Padded title ',
    });
    const id = await create(ann.token, body);
    const { body: stored } = await getOne(ann.token, id);
    expect(stored).toMatchObject({
      title: '  Padded title ',
      description: '  spaced  ',
      actionProducer: body.actionProducer,
      location: body.location,
      allowAnonymousEdits: true,
      attachments: body.attachments,
      tags: ['belt', 'Safety'],
      assignee: { id: 'crew-7', name: 'Crew Seven', email: 'c7@example.com' },
    });
  });

  it('an assignee without name shows the id, without email shows null', async () => {
    const id = await create(ann.token, actionBody(uniqueProducer('assignee'), { assignee: { id: 'crew-9' } }));
    expect((await getOne(ann.token, id)).body.assignee).toEqual({ id: 'crew-9', name: 'crew-9', email: null });
  });

  it.each([
    [2, '2'],
    ['2', '2'],
    [0, '0'],
    ['10', '10'],
    ['007', '7'],
    [999_999_999, '999999999'],
  ])('priority and status %j are returned as %j', async (sent, shown) => {
    const id = await create(ann.token, actionBody(uniqueProducer('num'), { priority: sent, status: sent }));
    const { body } = await getOne(ann.token, id);
    expect(body.priority).toBe(shown);
    expect(body.status).toBe(shown);
  });

  it.each([
    ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00Z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00:00.5Z', '2026-12-01T10:00:00.500Z'],
    ['2026-12-01T10:00:00.123456789Z', '2026-12-01T10:00:00.123Z'],
    ['2026-12-01T10:00:00.999999Z', '2026-12-01T10:00:00.999Z'],
    ['2026-12-01T12:00:00+02:00', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T00:30:00-05:30', '2026-12-01T06:00:00.000Z'],
    ['2026-12-31T23:00:00-02:00', '2027-01-01T01:00:00.000Z'],
  ])('dueAt %s is stored as %s', async (sent, shown) => {
    const id = await create(ann.token, actionBody(uniqueProducer('due'), { dueAt: sent }));
    expect((await getOne(ann.token, id)).body.dueAt).toBe(shown);
  });

  it('a producer reference sent through the API is data: the same pair twice makes two actions', async () => {
    const producer = uniqueProducer('dup');
    const body = actionBody(producer, { actionProducer: { name: producer, reference: 'R-1' } });
    const first = await post(body);
    const second = await post(body);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    const found = await list(
      ann.token,
      `${q('actionProducer.name', producer)}&${q('actionProducer.reference', 'R-1')}`,
    );
    expect(found.actions.map((a) => a.id).sort()).toEqual([first.body.id, second.body.id].sort());
    expect(found.actions.every((a) => a.actionProducer.reference === 'R-1')).toBe(true);
  });
});

describe('400 for every bad create body (contract section 3)', () => {
  const valid = () => actionBody(uniqueProducer('bad'));
  const without = (field: string) => {
    const body: Record<string, unknown> = valid();
    delete body[field];
    return body;
  };
  const cases: Array<[what: string, body: unknown, field: string]> = [
    ['missing title', without('title'), 'title'],
    ['missing dueAt', without('dueAt'), 'dueAt'],
    ['missing priority', without('priority'), 'priority'],
    ['missing status', without('status'), 'status'],
    ['missing actionProducer', without('actionProducer'), 'actionProducer'],
    ['missing producer name', { ...valid(), actionProducer: { url: 'https://a.example.com' } }, 'actionProducer.name'],
    ['empty title', { ...valid(), title: '' }, 'title'],
    ['blank title', { ...valid(), title: ' \t\n ' }, 'title'],
    ['title of 201 characters', { ...valid(), title: 'x'.repeat(201) }, 'title'],
    ['title not a string', { ...valid(), title: 42 }, 'title'],
    ['blank producer name', { ...valid(), actionProducer: { name: '   ' } }, 'actionProducer.name'],
    ['empty producer name', { ...valid(), actionProducer: { name: '' } }, 'actionProducer.name'],
    ['description too long', { ...valid(), description: 'x'.repeat(10_001) }, 'description'],
    ['dueAt without offset', { ...valid(), dueAt: '2026-12-01T10:00:00' }, 'dueAt'],
    ['dueAt a date only', { ...valid(), dueAt: '2026-12-01' }, 'dueAt'],
    ['dueAt not a date', { ...valid(), dueAt: 'tomorrow' }, 'dueAt'],
    ['dueAt impossible day', { ...valid(), dueAt: '2026-02-30T10:00:00Z' }, 'dueAt'],
    ['dueAt as a number', { ...valid(), dueAt: 1_780_000_000_000 }, 'dueAt'],
    ['priority negative', { ...valid(), priority: -1 }, 'priority'],
    ['priority fractional', { ...valid(), priority: 1.5 }, 'priority'],
    ['priority text', { ...valid(), priority: 'high' }, 'priority'],
    ['priority signed string', { ...valid(), priority: '+2' }, 'priority'],
    ['priority empty string', { ...valid(), priority: '' }, 'priority'],
    ['priority boolean', { ...valid(), priority: true }, 'priority'],
    ['status null', { ...valid(), status: null }, 'status'],
    ['status fractional string', { ...valid(), status: '1.0' }, 'status'],
    ['allowAnonymousEdits as a string', { ...valid(), allowAnonymousEdits: 'yes' }, 'allowAnonymousEdits'],
    ['unknown field', { ...valid(), colour: 'red' }, 'colour'],
    ['unknown location field', { ...valid(), location: { site: 'a', planet: 'b' } }, 'location.planet'],
    ['unknown producer field', { ...valid(), actionProducer: { name: 'p', kind: 'x' } }, 'actionProducer.kind'],
    ['location not an object', { ...valid(), location: 'north' }, 'location'],
    ['producer url not a URL', { ...valid(), actionProducer: { name: 'p', url: 'not a url' } }, 'actionProducer.url'],
    ['attachment without url', { ...valid(), attachments: [{ name: 'a' }] }, 'attachments.0.url'],
    ['attachments not an array', { ...valid(), attachments: 'a' }, 'attachments'],
    ['tags not strings', { ...valid(), tags: [1] }, 'tags.0'],
    ['assignee without id', { ...valid(), assignee: { name: 'x' } }, 'assignee.id'],
    ['assignee with a bad email', { ...valid(), assignee: { id: 'a', email: 'nope' } }, 'assignee.email'],
    ['assignee "undefined"', { ...valid(), assignee: { id: 'undefined' } }, 'assignee.id'],
    ['id', { ...valid(), id: 'mine' }, 'id'],
    ['owner', { ...valid(), owner: { id: 'x', name: 'x', email: null } }, 'owner'],
    ['initiator', { ...valid(), initiator: { id: 'x', name: 'x', email: null } }, 'initiator'],
    ['createdAt', { ...valid(), createdAt: '2026-01-01T00:00:00.000Z' }, 'createdAt'],
    ['updatedAt', { ...valid(), updatedAt: '2026-01-01T00:00:00.000Z' }, 'updatedAt'],
    ['endorsedBy', { ...valid(), endorsedBy: [] }, 'endorsedBy'],
    ['comments', { ...valid(), comments: [] }, 'comments'],
    ['a JSON array', [valid()], 'body'],
    ['JSON null', null, 'body'],
    ['a JSON string', 'hello', 'body'],
  ];
  it.each(cases)('%s -> 400 naming it', async (_what, body, field) => {
    const reply = await call('POST', '/api/actions', {
      token: ann.token,
      rawBody: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(reply, 400, { field });
  });

  it('names every wrong field at once', async () => {
    const reply = await post({ ...valid(), title: '', priority: 'x', colour: 1, id: 'x' });
    expectProblem(reply, 400);
    const named = reply.body.errors.map((e: { field: string }) => e.field).sort();
    expect(named).toEqual(['colour', 'id', 'priority', 'title']);
  });

  it('a bad body creates nothing', async () => {
    const producer = uniqueProducer('nothing');
    expect((await post(actionBody(producer, { priority: -1 }))).status).toBe(400);
    expect((await list(ann.token, q('actionProducer.name', producer))).totalCount).toBe(0);
  });
});

describe('bodies that are not acceptable JSON', () => {
  const raw = (rawBody: string | Uint8Array, contentType?: string) =>
    call('POST', '/api/actions', {
      token: ann.token,
      rawBody,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it.each(['{', '{"title": "a",}', "{'title': 'a'}", 'undefined', '{"a":1}{"b":2}'])(
    'malformed JSON %j -> 400',
    async (text) => {
      expectProblem(await raw(text, 'application/json'), 400, { field: 'body' });
    },
  );

  it('an empty body -> 400', async () => {
    expectProblem(await raw('', 'application/json'), 400, { field: 'body' });
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
    'multipart/form-data; boundary=x',
    // A create body is not a patch; and no other +json type is taken for JSON.
    'application/merge-patch+json',
    'application/evil+json',
    'application/json-patch+json',
    'application/json; charset=utf-16',
  ])('Content-Type %s -> 415', async (type) => {
    expectProblem(await raw(JSON.stringify(actionBody(uniqueProducer('type'))), type), 415);
  });

  it('no Content-Type -> 415', async () => {
    expectProblem(await raw(JSON.stringify(actionBody(uniqueProducer('type')))), 415);
  });

  it.each([
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'Application/Json; Charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;charset="UTF-8"',
  ])('Content-Type %s is JSON (media types are case-insensitive)', async (type) => {
    expect((await raw(JSON.stringify(actionBody(uniqueProducer('charset'))), type)).status).toBe(201);
  });

  it('a body over 64 KB -> 413, at 64 KB it is judged on its content', async () => {
    const base = JSON.stringify(actionBody(uniqueProducer('big'), { description: '' }));
    const pad = (bytes: number) =>
      base.replace('"description":""', `"description":"${'x'.repeat(bytes - base.length)}"`);
    expectProblem(await raw(pad(64 * 1024 + 1), 'application/json'), 413);
    // Exactly 64 KB passes the size check; its 64 K-character description is then too long.
    expectProblem(await raw(pad(64 * 1024), 'application/json'), 400, { field: 'description' });
    expectProblem(await raw('x'.repeat(2 * 1024 * 1024), 'text/plain'), 413);
    // Past what API Gateway itself takes (10 MB), the local gateway answers, in the same format.
    expectProblem(await raw('x'.repeat(11 * 1024 * 1024), 'application/json'), 413);
  });

  it('a body that is not UTF-8 text -> 400 or 415, never 500', async () => {
    const reply = await raw(new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), 'application/json');
    expect([400, 415]).toContain(reply.status);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('200 creates at once', () => {
  it('all get 201 with distinct ids, and totalCount counts every one', async () => {
    const producer = uniqueProducer('burst');
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const reply = await post(actionBody(producer, { title: `Burst ${i}`, priority: i % 7 }));
        return Object.assign(reply, { ms: Date.now() - started });
      }),
    );
    // A failure names each reply that was not a 201 with the milliseconds it took, and the first
    // one's body; `LOG_LEVEL=warn npm test` prints each 5xx's cause from the shared stack.
    expect(
      replies.filter((r) => r.status !== 201).map((r) => `${r.status} after ${r.ms} ms`),
      JSON.stringify(replies.find((r) => r.status !== 201)?.body),
    ).toEqual([]);
    const ids = new Set(replies.map((r) => r.body.id));
    expect(ids.size).toBe(200);
    const page = await list(ann.token, `${q('actionProducer.name', producer)}&limit=100`);
    expect(page.totalCount).toBe(200);
    expect(page.actions).toHaveLength(100);
    const second = await list(ann.token, `${q('actionProducer.name', producer)}&limit=100&skip=100`);
    expect(new Set([...page.actions, ...second.actions].map((a) => a.id))).toEqual(ids);
    expect(
      (await list(ann.token, `${q('actionProducer.name', producer)}&${q('priority', '>5')}&limit=0`)).totalCount,
    ).toBe(replies.filter((_, i) => i % 7 > 5).length);
  });
});
