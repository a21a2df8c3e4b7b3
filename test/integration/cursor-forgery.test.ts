import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issues 42 and 54: a cursor is sealed (AES-256-GCM under a key the table keeps and no client
 * knows) and bound to its caller, so nobody can read, mint or alter one, nor use another
 * caller's: a cursor in the old readable formats, altered anywhere, spliced or foreign is a 400
 * naming `cursor` (`after` on the feed), never another query's data.
 */

/** What anyone could do before issue 42: recompute the unkeyed checksum over a scope and key of their choice. */
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

/** The cursor with one bit of byte `at` flipped: a sealed cursor's bytes are all covered by its tag. */
const flipped = (cursor: string, at: number) => {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ 1;
  return bytes.toString('base64url');
};

describe('a list cursor', () => {
  it('is opaque, and cannot be minted, altered, or spliced into another list', async () => {
    const user = newUser('Cursor Forger');
    const mine = uniqueProducer('forge-mine');
    const theirs = uniqueProducer('forge-theirs');
    for (let i = 0; i < 3; i++) await create(user.token, actionBody(mine, { title: `Mine ${i}` }));
    for (let i = 0; i < 3; i++) await create(user.token, actionBody(theirs, { title: `Theirs ${i}` }));

    const first = await list(user.token, `${q('actionProducer.name', mine)}&limit=1`);
    const cursor = (first as { nextCursor?: string }).nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    // Nothing of the list (its filter, its position's title) can be read from the cursor.
    const bytes = Buffer.from(cursor, 'base64url');
    for (const part of [mine, 'Mine', 'list', user.id]) expect(bytes.includes(Buffer.from(part))).toBe(false);
    expect(() => JSON.parse(bytes.toString('utf8'))).toThrow();
    // The genuine cursor goes on.
    const second = await list(user.token, `cursor=${cursor}&limit=1`);
    expect(second.actions[0]?.actionProducer.name).toBe(mine);

    const other = (await list(user.token, `${q('actionProducer.name', theirs)}&limit=1`)) as { nextCursor?: string };
    const otherBytes = Buffer.from(other.nextCursor as string, 'base64url');
    const forgeries = {
      'another filter, in the format before issue 42': mint(`list:[["actionProducer.name","${theirs}"]]`, 'x'),
      'one bit of the nonce flipped': flipped(cursor, 3),
      'one bit of the sealed body flipped': flipped(cursor, 40),
      'one bit of the tag flipped': flipped(cursor, -1 + bytes.length),
      "another list's nonce on this body": Buffer.concat([otherBytes.subarray(0, 24), bytes.subarray(24)]).toString(
        'base64url',
      ),
      truncated: cursor.slice(0, -4),
    };
    for (const [what, forged] of Object.entries(forgeries)) {
      const reply = await call('GET', `/api/actions?cursor=${forged}&limit=10`, { token: user.token });
      expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(400);
      expectProblem(reply, 400, { parameter: 'cursor' });
    }
  });

  it('of the change feed and of a history cannot be minted either, nor used by another caller', async () => {
    const user = newUser('Feed Forger');
    const other = newUser('Other Poller');
    const id = await create(user.token, actionBody(uniqueProducer('forge-feed')));
    const feed = await call('GET', '/api/changes?limit=1', { token: user.token });
    expect(feed.status).toBe(200);
    expectProblem(await call('GET', `/api/changes?after=${mint('changes', '')}`, { token: user.token }), 400, {
      parameter: 'after',
    });
    expectProblem(
      await call('GET', `/api/changes?after=${flipped(feed.body.nextCursor, 30)}`, { token: user.token }),
      400,
      {
        parameter: 'after',
      },
    );
    expectProblem(await call('GET', `/api/changes?after=${feed.body.nextCursor}`, { token: other.token }), 400, {
      parameter: 'after',
    });
    expect((await call('GET', `/api/changes?after=${feed.body.nextCursor}`, { token: user.token })).status).toBe(200);
    expectProblem(
      await call('GET', `/api/actions/${id}/history?cursor=${mint(id, 'h#0000000000')}`, { token: user.token }),
      400,
      { parameter: 'cursor' },
    );
  });
});
