import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { postingsTableOf } from '../../lib/config';
import { AGAIN, retry } from '../../lib/flow/retry';
import { createOrUpgradeTable, TableUpgradeError } from '../../lib/store/bulk/upgrade';

/**
 * The local store: AWS's own DynamoDB Local engine (the jar shipped in the npm package
 * `amplify-dynamodb-simulator`), on a loopback port, kept on disk under `DATA_DIR/dynamodb` or
 * in memory. It is the only local engine because the service needs what only it emulates:
 * transactions and streams. It needs a Java 17+ runtime. The table, its indexes and its stream
 * come from `lib/store/table` and `lib/store/indexes`, as the CDK construct's do, made or upgraded by `lib/store/bulk/upgrade`.
 */

export const LOCAL_TABLE_NAME = 'actions';

export interface LocalStore {
  endpoint: string;
  tableName: string;
  close(): Promise<void>;
}

/** What to install when there is no Java, in one line. */
export const JAVA_MISSING =
  'The local store (AWS DynamoDB Local) needs a Java 17+ runtime: install one (e.g. `apt-get install -y openjdk-17-jre-headless`) and run again.';

/** Whether a Java runtime is on the PATH. */
export const javaAvailable = (): boolean => spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;

export class StoreStartError extends Error {}

const jarDirectory = () =>
  join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  await retry(
    async () => {
      if (child.exitCode !== null) throw new StoreStartError(`DynamoDB Local exited with code ${child.exitCode}`);
      // Refused until it listens: any answer at all means it serves.
      await fetch(endpoint, { method: 'POST' });
    },
    {
      budgetMs: timeoutMs,
      capMs: 100,
      retryable: (error) => !(error instanceof StoreStartError),
      exhausted: () => {
        throw new StoreStartError(`DynamoDB Local did not start within ${timeoutMs} ms`);
      },
    },
  );
}

/**
 * A DynamoDB Local left running by a stack that died (its children outlive a SIGKILL) still
 * holds the files under its directory; it is stopped before a new one starts there. Gently
 * first: killed outright, DynamoDB Local can lose the last write it acknowledged.
 */
async function stopOrphan(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const running = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
    } catch {
      return false;
    }
  };
  if (running()) {
    process.kill(pid, 'SIGTERM');
    await retry(async () => (running() ? AGAIN : undefined), {
      budgetMs: 10_000,
      capMs: 50,
      exhausted: () => undefined,
    });
    if (running()) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

/**
 * A store in a process group of its own outlives a stack killed with SIGKILL. A small shell,
 * also on its own, reads a pipe from this process: the pipe closes when this process dies,
 * however it dies, and the shell then stops the store gently (SIGTERM). A stack that closes
 * normally kills the shell first and stops the store itself.
 */
function stopWithParent(store: ChildProcess): ChildProcess {
  return spawn('sh', ['-c', 'read -r _; kill "$1" 2>/dev/null', 'store-watchdog', String(store.pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
}

/**
 * Starts DynamoDB Local: on disk under `path`, or in memory without one. `STORE_JAVA_OPTIONS`
 * (space-separated) goes to the JVM before the jar: the tests set the client compiler alone and
 * the serial collector, which cost a short-lived engine about a quarter less CPU on two cores
 * (`docs/testing.md`).
 */
export async function startStore(options: { path?: string } = {}): Promise<LocalStore> {
  if (!javaAvailable()) throw new StoreStartError(JAVA_MISSING);
  const dir = jarDirectory();
  const port = await freePort();
  const pidFile = options.path ? join(options.path, 'dynamodb-local.pid') : undefined;
  if (options.path) mkdirSync(options.path, { recursive: true, mode: 0o700 });
  if (pidFile) await stopOrphan(pidFile);
  const child = spawn(
    'java',
    [
      ...(process.env.STORE_JAVA_OPTIONS ?? '').split(' ').filter(Boolean),
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      ...(options.path ? ['-dbPath', options.path] : ['-inMemory']),
      '-port',
      String(port),
    ],
    // A process group of its own: Ctrl-C (SIGINT to the terminal's group) or a SIGTERM to the
    // stack's group reaches the stack, which finishes what is under way (a webhook attempt's
    // bookkeeping, a sweep) and only then stops the store. In the same group the store would
    // stop at once and cut those last writes off.
    { cwd: dir, stdio: 'ignore', detached: true },
  );
  if (pidFile && child.pid) writeFileSync(pidFile, String(child.pid), { mode: 0o600 });
  const watchdog = stopWithParent(child);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    // A few seconds on a quiet machine; a JVM on two cores shared with other work can take a minute or more.
    await waitUntilServing(endpoint, child, 120_000);
    await ensureTable(endpoint, LOCAL_TABLE_NAME);
  } catch (error) {
    watchdog.kill('SIGKILL');
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    tableName: LOCAL_TABLE_NAME,
    close: async () => {
      watchdog.kill('SIGKILL');
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      if (pidFile) rmSync(pidFile, { force: true });
    },
  };
}

/**
 * A store that is one table of its own (and its postings' table), under a fresh name, on a
 * DynamoDB Local already running (`shared-engine.ts`): a second instead of a JVM's start. Its
 * close deletes the tables and leaves the engine running.
 */
export async function startTableOn(endpoint: string): Promise<LocalStore> {
  const tableName = `${LOCAL_TABLE_NAME}-${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  return {
    endpoint,
    tableName,
    close: async () => {
      const client = localClient(endpoint);
      try {
        for (const table of [tableName, postingsTableOf(tableName)])
          await client.send(new DeleteTableCommand({ TableName: table }));
      } finally {
        client.destroy();
      }
    },
  };
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/**
 * Creates the table, its indexes and its stream on first start, or brings a table an earlier
 * version made on disk up to date (`lib/store/bulk/upgrade`); an index that cannot be changed in place
 * is a StoreStartError naming it.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await createOrUpgradeTable(client, tableName);
  } catch (error) {
    if (error instanceof TableUpgradeError) throw new StoreStartError(error.message, { cause: error });
    throw error;
  } finally {
    client.destroy();
  }
}
