import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 12: a newcomer's first hour. The local commands as a person runs them (real processes,
 * `npm run ...`): help, plain one-line errors, the stack found (or plainly not found) on
 * DATA_DIR, and `npm start` that stops when its npm process is told to.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const env = (extra: Record<string, string>) => ({ ...process.env, LOG_LEVEL: 'silent', ...extra });
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'actions-cli-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const npm = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync('npm', ['run', '--silent', ...args], { cwd: ROOT, env: env(extra), encoding: 'utf8', timeout: 60_000 });

/** The error output without npm's own notices: what the command itself said. */
const said = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'))
    .join('\n');

/** `npm start`, waiting for its banner. */
async function start(extra: Record<string, string>): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const child = spawn('npm', ['start'], { cwd: ROOT, env: env({ STORE: 'memory', PORT: '0', ...extra }) });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 45_000;
  for (;;) {
    const url = /Action tracking service on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (url && output.includes('curl')) return { child, url, banner: output };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = (url: string) =>
  fetch(`${url}/api/openapi.json`).then(
    () => true,
    () => false,
  );

describe('the local commands', () => {
  it.each(['start', 'token', 'ingest', 'seed', 'recount', 'load'])(
    'npm run %s -- --help prints its usage',
    (command) => {
      const run = npm([command, '--', '--help']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^usage: npm /);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('token on a DATA_DIR where no stack runs and no keys are: one plain line, no token', () => {
    const run = npm(['token', '--', '--sub', 'u-ann'], { DATA_DIR: tempDir() });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(said(run.stderr)).toMatch(
      /^No stack runs on DATA_DIR=\S+: start one with `npm start`.*\(It holds no token keys yet\.\)$/,
    );
  });

  it('ingest and seed on a DATA_DIR where no stack runs: one plain line, nothing written anywhere', () => {
    const dir = tempDir();
    const events = join(dir, 'events.ndjson');
    writeFileSync(events, '{"detail-type":"ActionRequested","detail":{}}\n');
    for (const args of [
      ['ingest', '--', events],
      ['seed', '--', '--actions', '5'],
    ]) {
      const run = npm(args, { DATA_DIR: dir });
      expect(run.status, args[0]).toBe(2);
      expect(said(run.stderr)).toMatch(
        /^No stack runs on DATA_DIR=\S+: start one with `npm start`, or run `DATA_DIR=.* npm run (ingest|seed)`\.$/,
      );
    }
  });

  it('npm start on a busy port: one plain line, no stack trace, nothing left running', async () => {
    const busy: Server = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const { port } = busy.address() as { port: number };
    const run = spawnSync('npm', ['start'], {
      cwd: ROOT,
      env: env({ STORE: 'memory', PORT: String(port), DATA_DIR: tempDir() }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    busy.close();
    expect(run.status).toBe(2);
    expect(said(run.stderr)).toBe(
      `Port ${port} is in use: stop what listens there, or start on another port, e.g. PORT=${port + 1} npm start.`,
    );
  }, 60_000);

  it('a second npm start on the same DATA_DIR says so in one line; SIGTERM to npm stops the first', async () => {
    const dir = tempDir();
    const first = await start({ DATA_DIR: dir });
    expect(await answers(first.url)).toBe(true);
    const second = spawnSync('npm', ['start'], {
      cwd: ROOT,
      env: env({ STORE: 'memory', PORT: '0', DATA_DIR: dir }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(2);
    expect(said(second.stderr)).toMatch(
      /^DATA_DIR=\S+ is in use by another `npm start` \(pid \d+\): stop it, or start this one with another DATA_DIR\.$/,
    );
    // The banner tells the token command with the DATA_DIR it needs.
    expect(first.banner).toContain(`DATA_DIR=${dir} npm run --silent token`);
    // SIGTERM to the npm process itself (not its group) stops the server.
    const exited = once(first.child, 'exit');
    first.child.kill('SIGTERM');
    await exited;
    const deadline = Date.now() + 10_000;
    while ((await answers(first.url)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(first.url)).toBe(false);
    // The lock went with it: the directory starts again.
    const again = await start({ DATA_DIR: dir });
    expect(await answers(again.url)).toBe(true);
    const stopped = once(again.child, 'exit');
    again.child.kill('SIGINT');
    await stopped;
  }, 120_000);
});
