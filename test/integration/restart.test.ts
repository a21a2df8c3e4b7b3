import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureIssuer, issueToken } from '../../infra/local/issuer';
import { freePort } from '../../infra/local/store';
import { actionBody, call, create, list, q } from '../support/client';

/**
 * `npm start` twice on one DATA_DIR: the real entry point as a child process, stopped with
 * SIGTERM in between. Whatever the first run stored, the second lists back unchanged.
 */

const ROOT = join(import.meta.dirname, '..', '..');

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Spawns `npx tsx infra/local/start.ts` and waits for it to print its URL. */
async function start(dataDir: string, port: number): Promise<Running> {
  // Its own process group, so SIGTERM reaches the server behind npx's shell wrapper as Ctrl-C would.
  const child = spawn('npx', ['tsx', 'infra/local/start.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      STORE: '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  while (!output.includes(`Action tracking service on ${url}`)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output };
}

/**
 * SIGTERM to the whole group, as Ctrl-C reaches every process of `npm start`. npx itself dies of
 * the signal; the server behind it closes its store and removes `stack.json` on the way out, so
 * that file going away is the sign it shut down cleanly rather than being killed.
 */
async function stop(running: Running, dataDir: string): Promise<boolean> {
  const exited = running.child.exitCode === null && running.child.signalCode === null;
  const exit = exited ? once(running.child, 'exit') : Promise.resolve();
  process.kill(-(running.child.pid as number), 'SIGTERM');
  await exit;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const alive = await fetch(running.url).then(
      () => true,
      () => false,
    );
    if (!alive && !existsSync(join(dataDir, 'stack.json'))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'actions-restart-'));
  const running: Running[] = [];

  afterAll(async () => {
    for (const r of running) {
      if (r.child.exitCode === null && r.child.signalCode === null) await stop(r, dataDir);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second `npm start` on the same DATA_DIR lists everything the first stored', async () => {
    const issuer = ensureIssuer(dataDir);
    const owner = { sub: 'restart-owner', name: 'Rita Restart', email: 'rita@example.com' };
    const token = issueToken(issuer, owner);
    const producer = 'restart-producer';
    const scope = `${q('actionProducer.name', producer)}&limit=100`;

    const first = await start(dataDir, await freePort());
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

    expect(await stop(first, dataDir), first.output()).toBe(true);

    // Another port, the same data; a token minted before the restart still verifies.
    const second = await start(dataDir, await freePort());
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
    expect(await stop(second, dataDir), second.output()).toBe(true);
  }, 120_000);
});
