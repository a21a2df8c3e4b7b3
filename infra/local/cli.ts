import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGAIN, retry } from '../../lib/flow/retry';
import { fail } from '../command-line';
import { runningStack } from './stack';

/**
 * What the local commands (`npm start`, `token`, `ingest`, `seed`, `recount`, `load`) share
 * beyond their command line (`../command-line.ts`): the DATA_DIR they work on, finding the stack
 * that runs there, and claiming DATA_DIR for one `npm start`.
 */

/** The DATA_DIR in effect, absolute, and whether it is the default. */
export function dataDirectory(): { dataDir: string; isDefault: boolean } {
  return { dataDir: resolve(process.env.DATA_DIR || '.data'), isDefault: !process.env.DATA_DIR };
}

/** How to point a command at the stack a `npm start` runs. */
export const noStackRuns = (dataDir: string, command: string) =>
  `No stack runs on DATA_DIR=${dataDir}: start one with \`npm start\`, or run \`DATA_DIR=<the directory npm start uses> npm run ${command}\`.`;

/** The stack running on DATA_DIR, or a plain one-line failure. */
export async function requireRunningStack(command: string) {
  const { dataDir } = dataDirectory();
  const running = await runningStack(dataDir);
  if (!running) fail(noStackRuns(dataDir, command));
  return { dataDir, ...running };
}

/**
 * Claims DATA_DIR for one `npm start`: a second one on the same directory would share (and
 * corrupt) its store. A lock left by a process that died is taken over.
 */
export function lockDataDir(dataDir: string): Promise<() => void> {
  const lock = join(dataDir, 'stack.lock');
  return retry(
    async () => {
      try {
        writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
        return () => rmSync(lock, { force: true });
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
        const holder = Number(readFileSync(lock, 'utf8'));
        if (alive(holder)) {
          fail(
            `DATA_DIR=${dataDir} is in use by another \`npm start\` (pid ${holder}): stop it, or start this one with another DATA_DIR.`,
          );
        }
        // Left by a process that died: taken over, and claimed once more.
        rmSync(lock, { force: true });
        return AGAIN;
      }
    },
    { attempts: 2, exhausted: () => fail(`Could not lock DATA_DIR=${dataDir}.`) },
  );
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start');
  } catch {
    return false;
  }
}
