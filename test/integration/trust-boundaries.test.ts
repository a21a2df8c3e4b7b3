import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureIssuer } from '../../infra/local/issuer';
import {
  actionBody,
  call,
  create,
  dataDir,
  expectProblem,
  getOne,
  list,
  newUser,
  q,
  uniqueProducer,
} from '../support/client';
import { runIngest } from '../support/ingest-cli';

/**
 * Issue 11, findings 3 and 5, through HTTP (and `npm run ingest` for events): unknown docs paths,
 * If-Match syntax and the 412's ETag, the media types a PATCH takes, capped error lists,
 * correlation ids, non-object events, and who may read the files in DATA_DIR. (The 401s, the
 * bearer scheme and `email_verified` are in auth.test.ts.)
 */

const owner = newUser('Olive Owner');

describe('GET /docs/{file}: every unknown file is a 404, none reaches Object.prototype', () => {
  it.each([
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
    '__defineGetter__',
    '__lookupSetter__',
    'missing.js',
  ])('/docs/%s without a token -> 404 problem+json', async (file) => {
    const reply = await call('GET', `/docs/${file}`);
    expectProblem(reply, 404);
    expect(reply.body.type).toBe('https://action-tracking.dev/problems/not-found');
    expect(reply.body.detail).toBe(`No documentation file is called '${file}'.`);
  });

  it('the real files are still served', async () => {
    expect((await call('GET', '/docs/swagger-ui.css')).status).toBe(200);
    expect((await call('GET', '/docs/start.js')).status).toBe(200);
  });
});

describe('If-Match: * or quoted strong ETags; anything else is a 400 naming it', () => {
  const patch = (id: string, ifMatch: string, body: unknown = { title: 'Matched' }) =>
    call('PATCH', `/api/actions/${id}`, { token: owner.token, body, headers: { 'if-match': ifMatch } });

  it.each(['2', '1', 'W/1', '"1', '1"', "'1'", '*, "1"', '"1" "2"', 'garbage', ''])(
    'If-Match %j -> 400 naming If-Match, nothing changes',
    async (ifMatch) => {
      const id = await create(owner.token, actionBody(uniqueProducer('ifmatch')));
      const before = await getOne(owner.token, id);
      const reply = await patch(id, ifMatch);
      expectProblem(reply, 400, { parameter: 'If-Match' });
      expectProblem(
        await call('DELETE', `/api/actions/${id}`, { token: owner.token, headers: { 'if-match': ifMatch } }),
        400,
        { parameter: 'If-Match' },
      );
      expect((await getOne(owner.token, id)).body).toEqual(before.body);
    },
  );

  it('a list of ETags matches when one of them is current; a weak one never does', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('ifmatch')));
    expect((await patch(id, '"7", "1"')).status).toBe(200);
    expectProblem(await patch(id, 'W/"2"'), 412);
    expect((await patch(id, ' "5" , W/"2", "2" ')).status).toBe(200);
  });

  it('a 412 carries the current ETag, on PATCH and on DELETE', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('ifmatch')));
    const edited = await patch(id, '"1"', { title: 'Second version' });
    expect(edited.headers.get('etag')).toBe('"2"');
    const stale = await patch(id, '"1"', { title: 'Lost update' });
    expectProblem(stale, 412);
    expect(stale.headers.get('etag')).toBe('"2"');
    const staleDelete = await call('DELETE', `/api/actions/${id}`, {
      token: owner.token,
      headers: { 'if-match': '"1"' },
    });
    expectProblem(staleDelete, 412);
    expect(staleDelete.headers.get('etag')).toBe('"2"');
    // The ETag it gave is the one that works.
    expect((await patch(id, stale.headers.get('etag') as string, { title: 'Third' })).status).toBe(200);
  });
});

describe('PATCH takes application/json and application/merge-patch+json only', () => {
  const patchAs = (id: string, type: string) =>
    call('PATCH', `/api/actions/${id}`, {
      token: owner.token,
      rawBody: JSON.stringify({ title: `As ${type}` }),
      headers: { 'content-type': type },
    });

  it.each([
    'application/evil+json',
    'application/json-patch+json',
    'application/problem+json',
    'application/vnd.api+json',
    'text/json',
    'application/merge-patch+json; charset=utf-16',
  ])('%s -> 415 and nothing changes', async (type) => {
    const id = await create(owner.token, actionBody(uniqueProducer('media')));
    const before = (await getOne(owner.token, id)).body;
    const reply = await patchAs(id, type);
    expectProblem(reply, 415);
    expect(reply.body.detail).toMatch(/application\/json or application\/merge-patch\+json|UTF-8/);
    expect((await getOne(owner.token, id)).body).toEqual(before);
  });

  it.each([
    'application/json',
    'application/merge-patch+json',
    'application/merge-patch+json; charset=utf-8',
    'Application/Merge-Patch+JSON;charset="UTF-8"',
  ])('%s -> 200', async (type) => {
    const id = await create(owner.token, actionBody(uniqueProducer('media')));
    const reply = await patchAs(id, type);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.title).toBe(`As ${type}`);
  });
});

describe('a problem lists at most 20 errors and says how many more there were', () => {
  const unknownFields = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_field_${i}_${'x'.repeat(30)}`, i]));

  it('800 unknown fields on create -> a small 400 with 20 errors', async () => {
    const reply = await call('POST', '/api/actions', {
      token: owner.token,
      body: { ...actionBody(uniqueProducer('many')), ...unknownFields(800) },
    });
    expectProblem(reply, 400);
    expect(reply.body.errors).toHaveLength(20);
    expect(reply.body.detail).toMatch(/and 780 more errors not listed$/);
    expect(JSON.stringify(reply.body).length).toBeLessThan(8 * 1024);
  });

  it('800 unknown fields on patch -> the same, and nothing changes', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('many')));
    const before = (await getOne(owner.token, id)).body;
    const reply = await call('PATCH', `/api/actions/${id}`, { token: owner.token, body: unknownFields(800) });
    expectProblem(reply, 400);
    expect(reply.body.errors).toHaveLength(20);
    expect(reply.body.detail).toMatch(/and 780 more errors not listed$/);
    expect((await getOne(owner.token, id)).body).toEqual(before);
  });

  it('exactly 20 errors are all listed, with no count of more', async () => {
    const reply = await call('POST', '/api/actions', {
      token: owner.token,
      body: { ...actionBody(uniqueProducer('many')), ...unknownFields(20) },
    });
    expect(reply.body.errors).toHaveLength(20);
    expect(reply.body.detail).not.toMatch(/more/);
  });

  it('a list query with many bad parameters is capped the same way', async () => {
    const query = Array.from({ length: 50 }, (_, i) => `bogus${i}=1`).join('&');
    const reply = await call('GET', `/api/actions?${query}`, { token: owner.token });
    expectProblem(reply, 400);
    expect(reply.body.errors).toHaveLength(20);
    expect(reply.body.detail).toMatch(/and 30 more errors not listed$/);
  });
});

describe('x-correlation-id: used only when short and plain', () => {
  const PLAIN = /^[A-Za-z0-9._:-]{1,128}$/;
  const correlated = async (id: string) =>
    (
      await call('GET', '/api/actions?limit=0', { token: owner.token, headers: { 'x-correlation-id': id } })
    ).headers.get('x-correlation-id');

  it.each(['abc-123', 'req:2026-01-01T10:00:00.000Z', 'a'.repeat(128), 'A.b_C-d:9'])('%s is kept', async (id) => {
    expect(await correlated(id)).toBe(id);
  });

  it.each([
    ['8,000 characters', 'x'.repeat(8000)],
    ['129 characters', 'a'.repeat(129)],
    ['JSON', '{"level":"error","message":"forged"}'],
    ['spaces', 'a b'],
    ['a quote', 'a"b'],
    ['percent escapes', '%0Aforged'],
  ])('%s are replaced by a fresh id', async (_, id) => {
    const used = await correlated(id);
    expect(used).not.toBe(id);
    expect(used).toMatch(PLAIN);
  });

  it('without one, a fresh id is made, and every error carries it too', async () => {
    const fresh = (await call('GET', '/api/actions?limit=0', { token: owner.token })).headers.get('x-correlation-id');
    expect(fresh).toMatch(PLAIN);
    const error = await call('GET', '/api/actions?bogus=1', {
      token: owner.token,
      headers: { 'x-correlation-id': 'trace-400' },
    });
    expect(error.status).toBe(400);
    expect(error.headers.get('x-correlation-id')).toBe('trace-400');
  });
});

describe('ingest: an event that is not a JSON object is rejected as invalid, not as a failure', () => {
  it('null, an array, a number, a string, true, and a detail that is not an object', async () => {
    const producer = uniqueProducer('envelope');
    const lines = [
      'null',
      '[]',
      '[{"detail-type":"ActionRequested"}]',
      '42',
      '"ActionRequested"',
      'true',
      '{"detail-type":"ActionRequested","detail":null}',
      '{"detail-type":"ActionRequested","detail":[]}',
      '{"detail-type":"ActionRequested","detail":7}',
    ];
    const result = await runIngest(lines);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`0 created, 0 already existed, ${lines.length} rejected`);
    const rejected = result.stderr.split('\n').filter((line) => line.startsWith('line '));
    expect(rejected).toHaveLength(lines.length);
    for (const [index, line] of rejected.entries()) {
      const errors = JSON.parse(line.slice(line.indexOf('[')));
      const expected = index < 6 ? 'event' : 'detail';
      expect(errors, line).toEqual([{ field: expected, message: expect.stringMatching(/must be a JSON object/) }]);
    }
    expect(result.stderr).not.toMatch(/failed/);
    expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(0);
  });
});

describe('DATA_DIR is for its owner only', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('the directory is 0700; stack.json and the issuer key files are 0600', () => {
    expect(mode(dataDir()).toString(8)).toBe('700');
    for (const file of ['stack.json', 'issuer-key.json', 'jwks.json']) {
      expect(mode(join(dataDir(), file)).toString(8), file).toBe('600');
    }
  });

  it('a data directory made before this rule is closed up on the next start', () => {
    const old = mkdtempSync(join(tmpdir(), 'old-data-'));
    try {
      const files = ensureIssuer(old);
      const key = readFileSync(files.privateKeyFile, 'utf8');
      chmodSync(old, 0o755);
      for (const file of Object.values(files)) chmodSync(file, 0o644);
      const again = ensureIssuer(old);
      expect(again).toEqual(files);
      expect(mode(old).toString(8)).toBe('700');
      for (const file of Object.values(files)) expect(mode(file).toString(8), file).toBe('600');
      // The same key, so tokens issued before still verify.
      expect(readFileSync(again.privateKeyFile, 'utf8')).toBe(key);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
