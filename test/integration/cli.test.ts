import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

// 150 s: a seed of 60 actions with their search postings, beside three other files on two cores, took over 60 s.
const npm = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync('npm', ['run', '--silent', ...args], { cwd: ROOT, env: env(extra), encoding: 'utf8', timeout: 150_000 });

/** `npm run` without blocking, so several commands can start at once. */
const npmAsync = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', ...args],
      { cwd: ROOT, env: env({}), timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });

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
  const deadline = Date.now() + 90_000;
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
  // Every command of package.json that runs code of ours. --help answers before anything starts
  // (no stack, no store, no file written: `openapi` and `build:package` would write), so they run
  // side by side.
  it.concurrent.for([
    'start',
    'token',
    'ingest',
    'seed',
    'recount',
    'load',
    'bench',
    'latency',
    'fairness',
    'budget-read',
    'openapi',
    'build:package',
    'bundle-sizes',
  ])(
    'npm run %s -- --help prints its usage',
    // Each loads its command's modules through tsx: seconds alone, far more beside a busy suite.
    { timeout: 120_000 },
    async (command, { expect }) => {
      const run = await npmAsync([command, '--', '--help']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^usage: npm (run (--silent )?${command}|start)\\b`));
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('an option a command does not take: one plain line naming it, the usage, exit 2', () => {
    const run = npm(['bench', '--', '--actoins', '5000']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(said(run.stderr)).toMatch(/^Unknown option '--actoins'.*\nusage: npm run bench /s);
  });

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

  it('a refused npm start leaves nothing it did not find: no DATA_DIR made, nothing written into one that exists', async () => {
    const busy: Server = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const { port } = busy.address() as { port: number };
    const missing = join(tempDir(), 'not-yet');
    const empty = tempDir();
    for (const dir of [missing, empty]) {
      const run = spawnSync('npm', ['start'], {
        cwd: ROOT,
        env: env({ PORT: String(port), DATA_DIR: dir }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(2);
    }
    busy.close();
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
  }, 120_000);

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

/** Runs `command` on a pseudo-terminal (util-linux `script`), the way a person at a terminal sees it. */
const onTerminal = (command: string, extra: Record<string, string>) =>
  spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: env(extra),
    encoding: 'utf8',
    timeout: 240_000,
  });

describe('what long and batch commands tell a person (issue 28)', () => {
  let stack: { child: ChildProcess; url: string };
  let dir: string;
  const hasScript = spawnSync('which', ['script']).status === 0;

  beforeAll(async () => {
    dir = tempDir();
    stack = await start({ DATA_DIR: dir });
  }, 120_000);

  it('seed and recount show progress lines (rate, time left) on a terminal, and none when piped', () => {
    if (!hasScript) {
      console.info('util-linux `script` is not installed: the terminal half of this test is skipped');
    } else {
      const seeded = onTerminal('npm run --silent seed -- --actions 40 --seed 7', {
        DATA_DIR: dir,
        PROGRESS_INTERVAL_MS: '100',
      });
      expect(seeded.status, seeded.stdout).toBe(0);
      expect(seeded.stdout).toMatch(/seed: [\d,]+ of 40 \(\d+%\) actions, [\d,]+\/s/);
      expect(seeded.stdout).toMatch(/seed: 40 of 40 \(100%\) actions, .*done in/);
      expect(seeded.stdout).toMatch(/Seeded \d+ new actions/);
      const counted = onTerminal('npm run --silent recount', { DATA_DIR: dir, PROGRESS_INTERVAL_MS: '100' });
      expect(counted.stdout).toMatch(/recount: [\d,]+ items scanned, [\d,]+\/s, done in/);
      expect(counted.stdout).toContain('every counter equals its count');
    }
    const piped = npm(['seed', '--', '--actions', '20', '--seed', '8'], { DATA_DIR: dir, PROGRESS_INTERVAL_MS: '100' });
    expect(piped.status, piped.stderr).toBe(0);
    expect(said(piped.stderr)).toBe('');
    expect(piped.stdout).toMatch(/^Seeded \d+ new actions \(\d+ already there\) of 20/);
    const again = npm(['seed', '--', '--actions', '20', '--seed', '8'], { DATA_DIR: dir });
    expect(again.stdout).toMatch(/^Seeded 0 new actions \(20 already there\)/);
    const counted = npm(['recount'], { DATA_DIR: dir });
    expect(counted.status, counted.stdout).toBe(0);
    expect(counted.stdout).toContain('every counter equals its count');
  }, 900_000);

  it('ingest prints each line with its action id, created or already existed, and counts both', () => {
    const file = join(dir, 'requested.ndjson');
    const event = JSON.stringify({
      'detail-type': 'ActionRequested',
      source: 'inspections',
      detail: {
        title: 'Guard missing',
        actionProducer: { name: 'CLI test', reference: `R-${Date.now()}` },
        dueAt: '2026-12-05T08:00:00Z',
        priority: 1,
        status: 1,
        owner: { id: 'u-pat', name: 'Pat', email: 'pat@example.com' },
      },
    });
    writeFileSync(file, `${event}\n${event}\n{"detail-type":"ActionRequested","detail":{}}\n`);
    const run = npm(['ingest', '--', file], { DATA_DIR: dir });
    expect(run.status).toBe(1);
    const [first, second] = run.stdout.split('\n');
    const id = /^line 1: ([0-9a-f-]{36}) created$/.exec(first ?? '')?.[1];
    expect(id, run.stdout).toBeDefined();
    expect(second).toBe(`line 2: ${id} already existed`);
    expect(said(run.stderr)).toMatch(/^line 3: rejected: /);
    expect(run.stdout).toMatch(/^1 created, 1 already existed, 1 rejected \(of 3 events\)/m);
  }, 60_000);

  it('load says which stack it hits, never prints the token, and stops its own stack without stack traces', () => {
    const token = npm(['token', '--', '--sub', 'u-load', '--name', 'Load'], { DATA_DIR: dir }).stdout.trim();
    expect(token).toMatch(/^ey/);
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, token);
    const against = npm([
      'load',
      '--',
      '--duration',
      '2',
      '--connections',
      '2',
      '--url',
      stack.url,
      '--token-file',
      tokenFile,
    ]);
    expect(against.stdout, against.stderr).toContain(`load: against ${stack.url} (--url)`);
    expect(against.stdout).toMatch(/still in flight at the end/);
    expect(`${against.stdout}${against.stderr}`).not.toContain(token);
    const fromEnvironment = npm(['load', '--', '--duration', '1', '--connections', '1', '--url', stack.url], {
      LOAD_TOKEN: token,
    });
    // The token was taken: every answer a 200 (a run this short sends no create, only lists).
    expect(fromEnvironment.stdout).toMatch(/status: \{"200":\d+\}; non-2xx 0/);
    expect(`${fromEnvironment.stdout}${fromEnvironment.stderr}`).not.toContain(token);

    const own = npm(['load', '--', '--duration', '2', '--connections', '2']);
    expect(own.stdout, own.stderr).toMatch(
      /^load: against a stack of its own on http:\/\/127\.0\.0\.1:\d+ \(memory store, in this process; stopped at the end\)$/m,
    );
    expect(own.stdout).toMatch(/^(PASS|FAIL)/m);
    expect(own.stderr).not.toMatch(/\n\s+at /);
    expect(own.stdout).not.toMatch(/\n\s+at /);
    const missing = npm(['load', '--', '--url', stack.url, '--token-file', join(dir, 'nope')]);
    expect(missing.status).toBe(2);
    expect(said(missing.stderr)).toBe(`No such token file: ${join(dir, 'nope')}`);
  }, 240_000);

  afterAll(async () => {
    if (!stack) return;
    const exited = once(stack.child, 'exit');
    stack.child.kill('SIGTERM');
    await exited;
  }, 30_000);
});
