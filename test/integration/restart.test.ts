import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureIssuer, issueToken } from '../../infra/local/issuer';
import { freePort } from '../../infra/local/store';
import { actionBody, call, create, list, q } from '../support/client';
import { npmStart, npmStop, type Running } from '../support/npm-start';

/**
 * `npm start` twice on one DATA_DIR: the real entry point as a child process, stopped with
 * SIGTERM in between. Whatever the first run stored, the second lists back unchanged.
 */

describe('restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'actions-restart-'));
  const running: Running[] = [];

  afterAll(async () => {
    for (const r of running) await npmStop(r);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second `npm start` on the same DATA_DIR lists everything the first stored', async () => {
    const issuer = ensureIssuer(dataDir);
    const owner = { sub: 'restart-owner', name: 'Rita Restart', email: 'rita@example.com' };
    const token = issueToken(issuer, owner);
    const producer = 'restart-producer';
    const scope = `${q('actionProducer.name', producer)}&limit=100`;

    const first = await npmStart(dataDir, await freePort());
    running.push(first);
    expect(existsSync(join(dataDir, 'stack.json'))).toBe(true);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(
        await create(
          token,
          actionBody(producer, {
            title: `Restart ${i}`,
            priority: i,
            status: i % 3,
            tags: [`t${i}`],
            ...(i === 0 ? { actionProducer: { name: producer, reference: 'REF-0' } } : {}),
            ...(i % 4 === 0 ? { assignee: { id: `crew-${i}`, name: `Crew ${i}` } } : {}),
          }),
          first.url,
        ),
      );
    }
    const edited = await call('PATCH', `/api/actions/${ids[1]}`, {
      token,
      body: { title: 'Edited before restart' },
      baseUrl: first.url,
    });
    expect(edited.status).toBe(200);
    expect((await call('DELETE', `/api/actions/${ids[2]}`, { token, baseUrl: first.url })).status).toBe(204);
    const before = await list(token, `${scope}&sort=priority`, first.url);
    expect(before.totalCount).toBe(11);

    expect(await npmStop(first), first.output()).toBe(true);

    // Another port, the same data; a token minted before the restart still verifies.
    const second = await npmStart(dataDir, await freePort());
    running.push(second);
    const after = await list(token, `${scope}&sort=priority`, second.url);
    expect(after).toEqual(before);
    const one = await call('GET', `/api/actions/${ids[1]}`, { token, baseUrl: second.url });
    expect(one.status).toBe(200);
    expect(one.headers.get('etag')).toBe(edited.headers.get('etag'));
    expect(one.body).toEqual(edited.body);
    // The deleted one stays deleted, and every history survives: created, edited, deleted.
    expect((await call('GET', `/api/actions/${ids[2]}`, { token, baseUrl: second.url })).status).toBe(404);
    const history = await call('GET', `/api/actions/${ids[2]}/history`, { token, baseUrl: second.url });
    expect(history.body.entries.map((e: { type: string }) => e.type)).toEqual(['created', 'deleted']);
    const edits = await call('GET', `/api/actions/${ids[1]}/history`, { token, baseUrl: second.url });
    expect(edits.body.entries.map((e: { version: number }) => e.version)).toEqual([1, 2]);
    const byReference = await list(token, `${scope}&${q('actionProducer.reference', 'REF-0')}`, second.url);
    expect(byReference.actions.map((a) => a.id)).toEqual([ids[0]]);
    // Indexes came back too: filtered and counted lists agree with the first run.
    expect((await list(token, `${scope}&${q('priority', '>5')}`, second.url)).totalCount).toBe(6);
    expect((await list(token, `${scope}&assignee=undefined`, second.url)).totalCount).toBe(8);
    // And it keeps working: a new action joins the old ones.
    await create(token, actionBody(producer), second.url);
    expect((await list(token, scope, second.url)).totalCount).toBe(12);
    expect(await npmStop(second), second.output()).toBe(true);
  }, 120_000);
});
