import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureIssuer, issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { freePort } from '../../infra/local/store';
import { actionBody, call } from '../support/client';

/**
 * Issue 14: events leave from the table's stream, so no stored change goes unpublished. A stack
 * killed with SIGKILL in the middle of a burst of creates, then started again on the same
 * DATA_DIR, publishes an `ActionCreated` for every action it stored; a bus that fails for a
 * while delays events but loses none, and they arrive in version order.
 */

const ROOT = join(import.meta.dirname, '..', '..');

const eventsIn = (dataDir: string): any[] => {
  const file = join(dataDir, 'events.ndjson');
  if (!existsSync(file)) return [];
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
};

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `npm start`'s entry point in a process group of its own, so SIGKILL takes every process of it. */
async function start(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', STORE: '' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  await until(`npm start on ${dataDir}\n${output}`, 45_000, () => {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    return output.includes(url) ? true : undefined;
  });
  return { child, url };
}

async function kill(child: ChildProcess, signal: NodeJS.Signals) {
  const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined;
  process.kill(-(child.pid as number), signal);
  await exited;
}

describe('events from the stream', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  let stack: LocalStack | undefined;

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) await kill(child, 'SIGKILL').catch(() => undefined);
    }
    await stack?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a stack killed mid-burst publishes ActionCreated for every stored action after its restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'actions-kill-'));
    dirs.push(dataDir);
    const token = issueToken(ensureIssuer(dataDir), { sub: 'u-kim', name: 'Kim Kill' });
    const first = await start(dataDir);
    children.push(first.child);

    let answered = 0;
    const answeredIds: string[] = [];
    const burst = Array.from({ length: 300 }, () =>
      call('POST', '/api/actions', { token, body: actionBody('kill-burst'), baseUrl: first.url }).then(
        (reply) => {
          answered++;
          if (reply.status === 201) answeredIds.push(reply.body.id);
          return reply.status;
        },
        () => 0,
      ),
    );
    // Kill the service while creates are still in flight: some stored, some not, some answered,
    // some not. The store outlives it, as DynamoDB outlives a Lambda instance.
    await until(`the first creates to answer 201 (${answered} answered)`, 60_000, () =>
      answeredIds.length >= 20 ? true : undefined,
    );
    const exited = once(first.child, 'exit');
    process.kill(first.child.pid as number, 'SIGKILL');
    await exited;
    const statuses = await Promise.all(burst);
    expect(statuses.filter((s) => s === 201).length).toBeLessThan(300);

    const second = await start(dataDir);
    children.push(second.child);
    const listed = await call('GET', '/api/actions?actionProducer.name=kill-burst&limit=100', {
      token,
      baseUrl: second.url,
    });
    const stored = listed.body.totalCount as number;
    expect(stored).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (let skip = 0; skip < stored; skip += 100) {
      const page = await call('GET', `/api/actions?actionProducer.name=kill-burst&limit=100&skip=${skip}`, {
        token,
        baseUrl: second.url,
      });
      for (const action of page.body.actions) ids.add(action.id);
    }
    expect(ids.size).toBe(stored);
    // Every create answered 201 was stored.
    expect(answeredIds.filter((id) => !ids.has(id))).toEqual([]);

    // Every stored action has its ActionCreated within 10 s of the restart; repeats carry one id.
    const created = await until('an ActionCreated for every stored action', 10_000, () => {
      const events = eventsIn(dataDir).filter((e) => e['detail-type'] === 'ActionCreated' && ids.has(e.detail.id));
      return new Set(events.map((e) => e.detail.id)).size === ids.size ? events : undefined;
    });
    const idsByAction = new Map<string, Set<string>>();
    for (const event of created) {
      const seen = idsByAction.get(event.detail.id) ?? new Set<string>();
      seen.add(event.id);
      idsByAction.set(event.detail.id, seen);
    }
    expect([...idsByAction.values()].every((eventIds) => eventIds.size === 1)).toBe(true);
    const repeats = created.length - ids.size;
    console.info(
      `kill test: ${statuses.filter((s) => s === 201).length} creates answered 201 before SIGKILL, ${stored} stored, ${ids.size} ActionCreated events (${repeats} repeated deliveries, same ids)`,
    );
    await kill(second.child, 'SIGTERM');
  }, 120_000);

  it('a bus that fails for a while loses no event, and delivers each in version order once it is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'actions-bus-down-'));
    dirs.push(dataDir);
    process.env.LOG_LEVEL = 'silent';
    stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
    const token = issueToken(stack.issuer, { sub: 'u-bea', name: 'Bea Bus' });
    // The local "bus" is events.ndjson: a directory in its place makes every publish fail.
    const file = join(dataDir, 'events.ndjson');
    mkdirSync(file);

    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await call('POST', '/api/actions', { token, body: actionBody('bus-down'), baseUrl: stack.url });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    for (const id of ids) {
      for (const title of ['First edit', 'Second edit']) {
        const edited = await call('PATCH', `/api/actions/${id}`, { token, body: { title }, baseUrl: stack.url });
        expect(edited.status).toBe(200);
      }
    }
    await new Promise((r) => setTimeout(r, 1_500));
    expect(eventsIn(dataDir)).toEqual([]);

    rmSync(file, { recursive: true });
    const events = await until('30 events once the bus is back', 10_000, () => {
      const mine = eventsIn(dataDir).filter((e) => ids.includes(e.detail.id));
      return mine.length >= 30 ? mine : undefined;
    });
    for (const id of ids) {
      const versions = events.filter((e) => e.detail.id === id).map((e) => e.detail.version);
      expect(versions).toEqual([1, 2, 3]);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(30);
  }, 60_000);
});
