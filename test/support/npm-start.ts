import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** `npm start` as a child process (the real entry point), for tests that need their own stack. */

const ROOT = join(import.meta.dirname, '..', '..');

export interface Running {
  child: ChildProcess;
  url: string;
  dataDir: string;
  output: () => string;
}

/**
 * Runs what `npm start` runs (`node --import tsx infra/local/start.ts`) with `env` added, and waits
 * for it to print its URL. Not `npx tsx`: its CLI relays a signal to the server and, when the
 * server has not acknowledged it within about 60 ms (a busy machine), kills it with SIGKILL, so a
 * stop that `npm start` makes cleanly would look unclean (seen in CI: no "Stopped in", `stack.json`
 * left behind).
 */
export async function npmStart(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Running> {
  // Its own process group, so SIGTERM reaches the server as Ctrl-C would.
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
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
      ...env,
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
  const deadline = Date.now() + 60_000;
  while (!output.includes(`Action tracking service on ${url}`)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // The banner follows the URL line in the same write; wait for it whole.
  await new Promise((r) => setTimeout(r, 200));
  return { child, url, dataDir, output: () => output };
}

/** Whether any process of the group led by `pid` is still running. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the whole group, as Ctrl-C; resolves once every process of it has exited. The server
 * finishes what is under way (a webhook attempt, its bookkeeping) and only then stops its store
 * and releases DATA_DIR: a restart before that would find DATA_DIR in use. Resolves true when it shut down cleanly (the server
 * removes `stack.json` on its way out; a killed one leaves it).
 */
export async function npmStop(running: Running): Promise<boolean> {
  const pid = running.child.pid as number;
  if (running.child.exitCode === null && running.child.signalCode === null) {
    const exit = once(running.child, 'exit');
    process.kill(-pid, 'SIGTERM');
    await exit;
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && groupAlive(pid)) await new Promise((r) => setTimeout(r, 100));
  return !groupAlive(pid) && !existsSync(join(running.dataDir, 'stack.json'));
}
