import { describe, expect, it } from 'vitest';
import {
  actionBody,
  call,
  create,
  expectProblem,
  getOne,
  list,
  newUser,
  q,
  type Reply,
  uniqueProducer,
} from '../support/client';

/**
 * Resource limits (OWASP API4, unrestricted resource consumption): each limit is a 4xx that
 * names what is wrong and says the limit, just past it; just at it the request is served. A
 * refused create stores nothing and a refused patch changes nothing.
 */

const user = newUser('Lena Limits');

/** The problem names `name` and its message states `limit`. */
function expectNamed(reply: Reply, status: number, name: { field: string } | { parameter: string }, limit?: RegExp) {
  expectProblem(reply, status, name);
  if (limit) {
    const [key, value] = Object.entries(name)[0] as [string, string];
    const problem = reply.body.errors.find((e: Record<string, string>) => e[key] === value);
    expect(problem.message, JSON.stringify(reply.body)).toMatch(limit);
  }
}

const post = (body: unknown) => call('POST', '/api/actions', { token: user.token, body });
const postRaw = (rawBody: string) =>
  call('POST', '/api/actions', { token: user.token, rawBody, headers: { 'content-type': 'application/json' } });
const storedFor = async (producer: string) => (await list(user.token, q('actionProducer.name', producer))).totalCount;

/** A JSON create body of exactly `bytes` UTF-8 bytes, padded inside the description with `unit`. */
function bodyOfBytes(producer: string, bytes: number, unit = 'x'): string {
  const base = JSON.stringify(actionBody(producer, { description: '' }));
  const room = bytes - Buffer.byteLength(base);
  const unitBytes = Buffer.byteLength(unit);
  const pad = unit.repeat(Math.floor(room / unitBytes)) + 'x'.repeat(room % unitBytes);
  const body = base.replace('"description":""', `"description":"${pad}"`);
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

describe('body size: at most 64 KB, counted in bytes', () => {
  it('64 KB + 1 byte -> 413 before the body is parsed or judged, on create and on patch', async () => {
    const producer = uniqueProducer('limit-size');
    const reply = await postRaw(bodyOfBytes(producer, 64 * 1024 + 1));
    expectProblem(reply, 413);
    expect(reply.body.detail).toMatch(/65536 bytes/);
    const id = await create(user.token, actionBody(uniqueProducer('limit-size-patch')));
    const before = (await getOne(user.token, id)).body;
    const patch = await call('PATCH', `/api/actions/${id}`, {
      token: user.token,
      rawBody: JSON.stringify({ description: 'y'.repeat(64 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(patch, 413);
    expect((await getOne(user.token, id)).body).toEqual(before);
    expect(await storedFor(producer)).toBe(0);
  });

  it('multi-byte characters count as bytes: 33,000 x "é" (66,000 bytes) -> 413', async () => {
    const producer = uniqueProducer('limit-bytes');
    expectProblem(await postRaw(bodyOfBytes(producer, 66_000, 'é')), 413);
    expect(await storedFor(producer)).toBe(0);
  });

  it('a 1 MB body is refused just the same (413), not read into the domain', async () => {
    const producer = uniqueProducer('limit-huge');
    expectProblem(await postRaw(bodyOfBytes(producer, 1024 * 1024)), 413);
    expect(await storedFor(producer)).toBe(0);
  });
});

describe('strings and arrays in a body', () => {
  const ok = 'at the limit -> 201';
  const cases: Array<{ name: string; at: Record<string, unknown>; past: Record<string, unknown>; limit: RegExp }> = [
    { name: 'title', at: { title: 't'.repeat(200) }, past: { title: 't'.repeat(201) }, limit: /200/ },
    {
      name: 'description',
      at: { description: 'd'.repeat(10_000) },
      past: { description: 'd'.repeat(10_001) },
      limit: /10000|10,000/,
    },
    {
      name: 'tags',
      at: { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) },
      past: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      limit: /50/,
    },
    { name: 'tags.0', at: { tags: ['g'.repeat(100)] }, past: { tags: ['g'.repeat(101)] }, limit: /100/ },
    {
      name: 'attachments',
      at: { attachments: Array.from({ length: 50 }, (_, i) => ({ url: `https://f.example.com/${i}` })) },
      past: { attachments: Array.from({ length: 51 }, (_, i) => ({ url: `https://f.example.com/${i}` })) },
      limit: /50/,
    },
    {
      name: 'location.site',
      at: { location: { site: 's'.repeat(200) } },
      past: { location: { site: 's'.repeat(201) } },
      limit: /200/,
    },
    {
      name: 'actionProducer.url',
      at: { actionProducer: { name: 'p', url: `https://e.example.com/${'u'.repeat(1978)}` } },
      past: { actionProducer: { name: 'p', url: `https://e.example.com/${'u'.repeat(1979)}` } },
      limit: /2000/,
    },
    {
      name: 'assignee.name',
      at: { assignee: { id: 'someone', name: 'n'.repeat(200) } },
      past: { assignee: { id: 'someone', name: 'n'.repeat(201) } },
      limit: /200/,
    },
    { name: 'priority', at: { priority: '999999999' }, past: { priority: '1000000000' }, limit: /999999999/ },
  ];

  it.each(cases)('$name: just past the limit -> 400 naming it and the limit; stores nothing', async (c) => {
    const producer = uniqueProducer('limit-field');
    const body = actionBody(producer, c.past);
    // Keep the producer scope when the case replaces actionProducer.
    if ('actionProducer' in c.past) (body.actionProducer as Record<string, unknown>).name = producer;
    expectNamed(await post(body), 400, { field: c.name }, c.limit);
    expect(await storedFor(producer)).toBe(0);
  });

  it.each(cases)(`$name: ${ok}`, async (c) => {
    const body = actionBody(uniqueProducer('limit-ok'), c.at);
    const reply = await post(body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  });

  it('a patch past a limit -> 400 naming it, and the action is unchanged', async () => {
    const id = await create(user.token, actionBody(uniqueProducer('limit-patch')));
    const before = (await getOne(user.token, id)).body;
    for (const c of cases) {
      if ('actionProducer' in c.past) continue; // the producer name cannot be patched at all
      const reply = await call('PATCH', `/api/actions/${id}`, { token: user.token, body: c.past });
      expectNamed(reply, 400, { field: c.name }, c.limit);
    }
    expect((await getOne(user.token, id)).body).toEqual(before);
  });
});

describe('list queries', () => {
  const scope = q('owner', user.id);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`).join(',');
  const filters = (n: number) =>
    Array.from({ length: n - 1 }, () => 'priority=>0')
      .concat(scope)
      .join('&');
  const cases: Array<[name: string, query: string, parameter: string, limit: RegExp]> = [
    ['limit above 100', `${scope}&limit=101`, 'limit', /100/],
    ['skip + limit above 10,000', `${scope}&skip=9991&limit=10`, 'skip', /10000|10,000/],
    ['skip alone above 10,000', `${scope}&skip=10001&limit=0`, 'skip', /10000|10,000/],
    ['a ~ list of 101 values', `owner=~${ids(101)}`, 'owner', /100/],
    ['21 filters', filters(21), 'query', /20/],
    ['a filter value of 1,001 characters', `${scope}&title=${'a'.repeat(1001)}`, 'title', /1000|1,000/],
    ['one ~ value of 1,001 characters', `owner=~a,${'b'.repeat(1001)}`, 'owner', /1000|1,000/],
  ];
  const atLimit: Array<[string, string]> = [
    ['limit 100', `${scope}&limit=100`],
    ['skip + limit of exactly 10,000', `${scope}&skip=9900&limit=100`],
    ['a ~ list of 100 values', `owner=~${ids(99)},${user.id}`],
    ['20 filters', filters(20)],
    ['a filter value of 1,000 characters', `${scope}&title=${'a'.repeat(1000)}`],
  ];

  it.each(cases)('%s -> 400 naming the parameter and the limit', async (_, query, parameter, limit) => {
    expectNamed(await call('GET', `/api/actions?${query}`, { token: user.token }), 400, { parameter }, limit);
  });

  it.each(atLimit)('%s -> 200', async (_, query) => {
    const reply = await call('GET', `/api/actions?${query}`, { token: user.token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });

  it('a 5,000-character unknown parameter name is refused without echoing it whole', async () => {
    const name = 'n'.repeat(5000);
    const reply = await call('GET', `/api/actions?${name}=1`, { token: user.token });
    expectProblem(reply, 400);
    expect(JSON.stringify(reply.body).length).toBeLessThan(1000);
  });

  it('a ~ list at its limit of long values is still answered (100 x 100 characters)', async () => {
    const values = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(100, 'v')).join(',');
    const reply = await call('GET', `/api/actions?owner=~${values}`, { token: user.token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.totalCount).toBe(0);
  });

  it('a request line past what the gateway reads (40 KB) is refused with a 4xx, never served', async () => {
    const reply = await call('GET', `/api/actions?${scope}&title=~${'a,'.repeat(20_000)}a`, { token: user.token });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
  });
});
