import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 42: a cursor carries a keyed MAC (HMAC-SHA256 under a key the table keeps and no client
 * knows), so nobody can mint one: a cursor rewritten for another filter, or re-digested as cursors
 * were before (an unkeyed checksum), is a 400 naming `cursor`, never another query's data.
 */

const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
/** What anyone could do before: recompute the unkeyed checksum over a scope and key of their choice. */
const mint = (scope: string, key: unknown) =>
  Buffer.from(
    JSON.stringify({
      s: scope,
      k: key,
      d: createHash('sha256')
        .update(JSON.stringify([scope, key]))
        .digest('base64url')
        .slice(0, 16),
    }),
  ).toString('base64url');

describe('a list cursor', () => {
  it('cannot be minted for another filter, nor re-digested without the key', async () => {
    const user = newUser('Cursor Forger');
    const mine = uniqueProducer('forge-mine');
    const theirs = uniqueProducer('forge-theirs');
    for (let i = 0; i < 3; i++) await create(user.token, actionBody(mine, { title: `Mine ${i}` }));
    for (let i = 0; i < 3; i++) await create(user.token, actionBody(theirs, { title: `Theirs ${i}` }));

    const first = await list(user.token, `${q('actionProducer.name', mine)}&limit=1`);
    const cursor = (first as { nextCursor?: string }).nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    // The genuine cursor goes on.
    const second = await list(user.token, `cursor=${cursor}&limit=1`);
    expect(second.actions[0]?.actionProducer.name).toBe(mine);

    const { s, k } = decode(cursor);
    expect(s).toContain(mine);
    const forgeries = {
      'another filter': mint(s.replace(mine, theirs), k),
      'its own scope and key, unkeyed (a cursor made before issue 42)': mint(s, k),
      'another position': mint(s, typeof k === 'string' ? `${k}x` : k),
    };
    for (const [what, forged] of Object.entries(forgeries)) {
      const reply = await call('GET', `/api/actions?cursor=${forged}&limit=10`, { token: user.token });
      expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(400);
      expectProblem(reply, 400, { parameter: 'cursor' });
    }
  });

  it('of the change feed and of a history cannot be minted either', async () => {
    const user = newUser('Feed Forger');
    const id = await create(user.token, actionBody(uniqueProducer('forge-feed')));
    const feed = await call('GET', '/api/changes?limit=1', { token: user.token });
    expect(feed.status).toBe(200);
    const { s, k } = decode(feed.body.nextCursor);
    expectProblem(await call('GET', `/api/changes?after=${mint(s, k)}`, { token: user.token }), 400, {
      parameter: 'after',
    });
    expectProblem(
      await call('GET', `/api/actions/${id}/history?cursor=${mint(id, 'h#0000000000')}`, { token: user.token }),
      400,
      { parameter: 'cursor' },
    );
  });
});
