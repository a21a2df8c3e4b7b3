import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { actionBody, type CallOptions, call, type Reply } from '../support/client';

/**
 * A hostile pass over every single-action route (contract section 14: "nothing leaks"): a
 * stranger on a scoped stack throws every kind of request at an action they may not see, and at
 * an id that never existed, and nothing in any answer (status, body, headers) tells the two
 * apart, nor carries the action's title, text, people, ETag, version or counts.
 */

let stack: LocalStack;
let dataDir: string;
const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

const SECRET = `Gas leak behind shed ${randomUUID().slice(0, 6)}`;
const COMMENT = `Valve ${randomUUID().slice(0, 6)} is cracked`;
let id: string;
let commentId: string;
let stranger: string;
let ownerId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-access-hostile-'));
  process.env.LOG_LEVEL = 'silent';
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0, access: { mode: 'scoped', cacheSeconds: 1 } });
  ownerId = `owner-${randomUUID().slice(0, 8)}`;
  const owner = issueToken(stack.issuer, { sub: ownerId, name: 'Olga Secretname', email: `${ownerId}@example.com` });
  stranger = issueToken(stack.issuer, { sub: `stranger-${randomUUID().slice(0, 8)}`, name: 'Sam' });
  const created = await send('POST', '/api/actions', {
    token: owner,
    body: actionBody('hostile', { title: SECRET, allowAnonymousEdits: true, tags: ['hazard'] }),
  });
  id = created.body.id;
  const comment = await send('POST', `/api/actions/${id}/comments`, { token: owner, body: { text: COMMENT } });
  commentId = comment.body.id;
  await send('PUT', `/api/actions/${id}/endorsements/me`, { token: owner });
  // A few versions, so guessing an ETag has something to find.
  for (const status of ['2', '5', '2']) await send('PATCH', `/api/actions/${id}`, { token: owner, body: { status } });
});

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ETAGS = [undefined, '*', '"1"', '"3"', '"6"', '"99"', 'W/"6"', 'nonsense'];
const BODIES = [
  undefined,
  {},
  { title: 'x' },
  { text: 'x' },
  { status: '3' },
  { location: { site: 'X' } },
  { title: '' },
  'not json',
];
const QUERIES = ['', '?limit=1', '?limit=0', '?cursor=abc', '?limit=100&cursor=eyJzIjoieCJ9', '?unknown=1'];

/** Every request the stranger tries: each route, with every If-Match, body and query above. */
function requests(target: string): Array<{ method: string; path: string; options: CallOptions }> {
  const paths: Array<[string, string]> = [
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['GET', '/comments'],
    ['POST', '/comments'],
    ['PATCH', `/comments/${commentId}`],
    ['DELETE', `/comments/${commentId}`],
    ['PUT', '/endorsements/me'],
    ['DELETE', '/endorsements/me'],
    ['GET', '/history'],
  ];
  const out: Array<{ method: string; path: string; options: CallOptions }> = [];
  for (const [method, sub] of paths) {
    const base = `/api/actions/${target}${sub}`;
    if (method === 'GET') for (const query of QUERIES) out.push({ method, path: base + query, options: {} });
    else
      for (const body of method === 'PATCH' || method === 'POST' ? BODIES : [undefined])
        for (const etag of ETAGS)
          out.push({
            method,
            path: base,
            options: {
              ...(typeof body === 'string' ? { rawBody: body } : body !== undefined ? { body } : {}),
              headers: {
                ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
                ...(etag ? { 'if-match': etag } : {}),
              },
            },
          });
  }
  return out;
}

/** Everything an answer shows, but what differs on every request (correlation id, quota fields). */
function visible(reply: Reply): string {
  const headers = [...reply.headers.entries()].filter(
    ([name]) =>
      !['x-correlation-id', 'apigw-requestid', 'date', 'ratelimit', 'ratelimit-policy', 'content-length'].includes(
        name,
      ),
  );
  return JSON.stringify({ status: reply.status, headers, body: reply.body });
}

describe('a stranger on every single-action route', () => {
  it('learns nothing of an action they may not see: every answer is the answer for an id that never existed', async () => {
    const never = randomUUID();
    const mine = requests(id);
    const theirs = requests(never);
    let compared = 0;
    for (const [i, request] of mine.entries()) {
      const fake = theirs[i] as (typeof theirs)[number];
      const real = await send(request.method, request.path, { ...request.options, token: stranger });
      const none = await send(fake.method, fake.path, { ...fake.options, token: stranger });
      const what = `${request.method} ${request.path} ${JSON.stringify(request.options)}`;
      expect(visible(real).replaceAll(id, '<id>'), what).toBe(visible(none).replaceAll(never, '<id>'));
      expect([400, 404, 415], what).toContain(real.status);
      const text = visible(real);
      for (const secret of [SECRET, COMMENT, 'Olga Secretname', ownerId]) expect(text, what).not.toContain(secret);
      expect(real.headers.get('etag'), what).toBeNull();
      expect(text, what).not.toMatch(/"version"|commentCount|totalCount/);
      compared++;
    }
    expect(compared).toBe(mine.length);
    expect(compared).toBeGreaterThan(150);
  }, 600_000);

  it('changed nothing while trying', async () => {
    const owner = issueToken(stack.issuer, { sub: ownerId, name: 'Olga Secretname' });
    const now = await send('GET', `/api/actions/${id}`, { token: owner });
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ title: SECRET, version: 6, commentCount: 1 });
    expect(now.body.endorsedBy).toHaveLength(1);
  });
});
