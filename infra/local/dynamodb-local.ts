import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ensureTable, LOCAL_TABLE_NAME, type LocalStore } from './store';

/**
 * AWS's own DynamoDB Local engine (the jar shipped in the `amplify-dynamodb-simulator` package),
 * run in memory on a loopback port. The tests run the store suites against it too, so nothing
 * passes only because the embedded store is lenient.
 */

/** Whether a Java runtime is on the PATH. */
export const javaAvailable = (): boolean => spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;

const jarDirectory = () =>
  join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    const ok = await fetch(endpoint, { method: 'POST' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`DynamoDB Local did not start within ${timeoutMs} ms`);
}

export async function startDynamoDbLocal(): Promise<LocalStore> {
  const dir = jarDirectory();
  const port = await freePort();
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(endpoint, child, 30_000);
    await ensureTable(endpoint, LOCAL_TABLE_NAME);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}
