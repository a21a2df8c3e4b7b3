import { describe, expect, inject, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { encodeCursor } from '../../lib/cursor';
import { loadCursorKey } from '../../lib/store/cursor-key';
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
  tokenFor,
  uniqueProducer,
  waitForEvents,
} from '../support/client';
import { Forge, issuerFilesIn } from '../support/forge';

/**
 * Issue 23, part B (contract section 12): the endorsement toggle bound, comment text kept only in
 * the comment, and every input edge the hostile pass found. Each test failed on the code before it.
 */

const owner = newUser('Olga Owner');
const stranger = newUser('Stan Stranger');

describe('endorsement toggles', () => {
  it('a caller may change their endorsement of one action 10 times an hour; the 11th is a 429 that changes nothing', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('toggles')));
    const path = `/api/actions/${id}/endorsements/me`;
    for (let i = 0; i < 10; i++) {
      const reply = await call(i % 2 === 0 ? 'PUT' : 'DELETE', path, { token: stranger.token });
      expect(reply.status).toBe(i % 2 === 0 ? 200 : 204);
    }
    const before = await getOne(owner.token, id);
    const limited = await call('PUT', path, { token: stranger.token });
    expectProblem(limited, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter > 3500 && retryAfter <= 3600).toBe(true);
    // Nothing changed: same version, not endorsed.
    const after = await getOne(owner.token, id);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(after.body.endorsedBy).toEqual([]);
    // A request that would change nothing is no toggle: withdrawing what is not there is still a 204.
    expect((await call('DELETE', path, { token: stranger.token })).status).toBe(204);
    // Another caller, and the owner's edits, are unaffected.
    expect((await call('PUT', path, { token: owner.token })).status).toBe(200);
    const etag = (await getOne(owner.token, id)).headers.get('etag') as string;
    const edit = await call('PATCH', `/api/actions/${id}`, {
      token: owner.token,
      body: { status: 3 },
      headers: { 'if-match': etag },
    });
    expect(edit.status).toBe(200);
  }, 60_000);
});

describe('comment text lives only in the comment', () => {
  it('history names each comment and its author, shows its current text while it exists, none once it or its action is deleted', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('comment-text')));
    const base = `/api/actions/${id}`;
    const secret = `first draft ${crypto.randomUUID()}`;
    const kept = await call('POST', `${base}/comments`, { token: stranger.token, body: { text: secret } });
    expect(kept.status).toBe(201);
    expect(
      (
        await call('PATCH', `${base}/comments/${kept.body.id}`, {
          token: stranger.token,
          body: { text: 'final words' },
        })
      ).status,
    ).toBe(200);
    const gone = await call('POST', `${base}/comments`, { token: stranger.token, body: { text: `regret ${secret}` } });
    expect((await call('DELETE', `${base}/comments/${gone.body.id}`, { token: owner.token })).status).toBe(204);

    const history = (await call('GET', `${base}/history`, { token: owner.token })).body.entries;
    const author = { id: stranger.id, name: stranger.name, email: stranger.email };
    expect(history.slice(1).map((e: any) => [e.type, e.comment])).toEqual([
      ['commented', { id: kept.body.id, author, text: 'final words' }],
      ['comment-edited', { id: kept.body.id, author, text: 'final words' }],
      ['commented', { id: gone.body.id, author }],
      ['comment-deleted', { id: gone.body.id, author }],
    ]);
    // The earlier texts are nowhere: not in the history, not in the published events.
    expect(JSON.stringify(history)).not.toContain(secret);
    const events = await waitForEvents((e) => e.detail.id === id, 5);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(events.find((e) => e['detail-type'] === 'ActionCommented').detail.comment).toEqual({
      id: kept.body.id,
      author,
    });

    expect((await call('DELETE', base, { token: owner.token })).status).toBe(204);
    const afterDelete = (await call('GET', `${base}/history`, { token: stranger.token })).body.entries;
    expect(afterDelete.filter((e: any) => e.comment?.text !== undefined)).toEqual([]);
    expect(JSON.stringify(afterDelete)).not.toContain('final words');
    const deleted = await waitForEvents((e) => e.detail.id === id && e['detail-type'] === 'ActionDeleted', 1);
    expect(JSON.stringify(deleted)).not.toContain('final words');
  }, 60_000);
});

describe('input edges', () => {
  const producer = uniqueProducer('edges');
  const post = (body: unknown) => call('POST', '/api/actions', { token: owner.token, body });

  it('a body that is not valid UTF-8 is a 400, never stored with U+FFFD', async () => {
    const json = Buffer.from(JSON.stringify(actionBody(producer, { title: 'Caf__' })));
    const at = json.indexOf('__');
    json[at] = 0xc3; // a lead byte followed by '_' is no UTF-8
    json[at + 1] = 0x28;
    const reply = await call('POST', '/api/actions', {
      token: owner.token,
      rawBody: new Uint8Array(json),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(reply, 400, { field: 'body' });
    expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(0);
  });

  it.each([
    [' https://a.example/x'],
    ['https://a.example/x '],
    ['https://a.example/x\r\n'],
    ['https://a.example/a b'],
    ['https://a.example/\tx'],
    ['https://a.example/x\u00a0'],
  ])('a URL with white space or a control character anywhere (%j) is a 400, never trimmed', async (url) => {
    expectProblem(await post(actionBody(producer, { actionProducer: { name: producer, url } })), 400, {
      field: 'actionProducer.url',
    });
    expectProblem(await post(actionBody(producer, { attachments: [{ url }] })), 400, { field: 'attachments.0.url' });
  });

  it('a field of the wrong type is a 400 saying the type it must be, not "is required"', async () => {
    const wrong = await post(actionBody(producer, { title: 5, priority: true, tags: 'x' }));
    expectProblem(wrong, 400);
    const messages = Object.fromEntries(wrong.body.errors.map((e: any) => [e.field, e.message]));
    expect(messages).toEqual({
      title: 'must be a string',
      priority: 'must be a number or a string',
      tags: 'must be an array',
    });
    const { title: _title, ...untitled } = actionBody(producer);
    const missing = await post(untitled);
    expect(missing.body.errors).toEqual([{ field: 'title', message: 'is required' }]);
  });

  it.each([['\u200b'], ['\u3164'], ['\u200b \u3164\u2060\ufeff']])(
    'a title or name of invisible characters only (%j) is blank: 400',
    async (blank) => {
      expectProblem(await post(actionBody(producer, { title: blank })), 400, { field: 'title' });
      expectProblem(await post(actionBody(producer, { actionProducer: { name: blank } })), 400, {
        field: 'actionProducer.name',
      });
      const id = await create(owner.token, actionBody(producer));
      expectProblem(await call('PATCH', `/api/actions/${id}`, { token: owner.token, body: { title: blank } }), 400, {
        field: 'title',
      });
    },
  );

  it('If-Match ETags compare as exact strings: "01" never matches "1"', async () => {
    const id = await create(owner.token, actionBody(producer));
    expect((await getOne(owner.token, id)).headers.get('etag')).toBe('"1"');
    for (const tag of ['"01"', '"1.0"', '"001", "0001"']) {
      const reply = await call('PATCH', `/api/actions/${id}`, {
        token: owner.token,
        body: { status: 2 },
        headers: { 'if-match': tag },
      });
      expectProblem(reply, 412);
    }
    const exact = await call('PATCH', `/api/actions/${id}`, {
      token: owner.token,
      body: { status: 2 },
      headers: { 'if-match': '"1"' },
    });
    expect(exact.status).toBe(200);
  });

  it('a token with a crit header is a 401', async () => {
    const forge = new Forge(issuerFilesIn(dataDir()));
    const user = { sub: crypto.randomUUID(), name: 'Crit Carrier' };
    const token = forge.signed(user, {}, { crit: ['exp'] });
    const reply = await call('GET', '/api/actions?limit=1', { token });
    expectProblem(reply, 401);
    expect(reply.headers.get('www-authenticate')).toMatch(/invalid_token/);
    // The same token without the header is fine.
    expect((await call('GET', '/api/actions?limit=1', { token: forge.signed(user) })).status).toBe(200);
  });

  it('a name from a token follows the one-line rules: control and bidi formatting characters become U+FFFD', async () => {
    const token = tokenFor({ sub: crypto.randomUUID(), name: 'Eve\u0007\u202eevil\u2066\n', email: 'eve@example.com' });
    const id = await create(token, actionBody(producer));
    const got = (await getOne(owner.token, id)).body;
    expect(got.owner.name).toBe('Eve\ufffd\ufffdevil\ufffd\ufffd');
    expect(got.initiator.name).toBe(got.owner.name);
  });

  it('the history of an id that never existed is a 404 whatever the cursor', async () => {
    const never = crypto.randomUUID();
    // As the service makes them (lib/cursor.ts, sealed with the table's key): a well-formed cursor of the thread asked for, for its caller.
    // The shared stack's table: a file before this one in the same worker may have pointed the env elsewhere.
    Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
    await loadCursorKey();
    const forged = encodeCursor({ scope: `thread:h#${never}`, caller: owner.id }, 'h#0000000001');
    expectProblem(await call('GET', `/api/actions/${never}/history`, { token: owner.token }), 404);
    expectProblem(await call('GET', `/api/actions/${never}/history?cursor=${forged}`, { token: owner.token }), 404);
    // A cursor past the end of a real action's history is still an empty page of it.
    const id = await create(owner.token, actionBody(producer));
    const past = encodeCursor({ scope: `thread:h#${id}`, caller: owner.id }, 'h#0000000009');
    const reply = await call('GET', `/api/actions/${id}/history?cursor=${past}`, { token: owner.token });
    expect(reply.status).toBe(200);
    expect(reply.body.entries).toEqual([]);
  });
});
