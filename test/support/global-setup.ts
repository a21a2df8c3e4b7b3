import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';

/**
 * Starts the same local stack `npm start` runs (AWS's DynamoDB Local in memory, a fresh data
 * directory) once for the whole run; integration tests reach it only through HTTP. A file that
 * needs a stack of its own (`useOwnStack`, `startLocalStack`, `startSeededStack`) gets a table on a
 * DynamoDB Local of the file's own (test/support/file-engine.ts).
 *
 * One stack for both projects that name this file (`integration`, then `integration-alone`):
 * vitest runs each project's global setup at the start of the run and its teardown at the end, so
 * a stack each would leave one waiting through the other's files, polling its store (a quiet stack
 * costs about a tenth of a core). The first setup starts it; the last teardown stops it.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    storeEndpoint: string;
  }
}

/**
 * On `globalThis`, not in this module: vitest loads a global setup once per project, so module
 * state is each project's own, while the main process is one.
 */
interface Shared {
  started?: Promise<LocalStack>;
  users: number;
  dataDir?: string;
}
const SHARED = Symbol.for('actions.test.sharedStack');
const holder = globalThis as { [SHARED]?: Shared };
holder[SHARED] ??= { users: 0 };
const shared = holder[SHARED];

function startShared(): Promise<LocalStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'actions-test-'));
  shared.dataDir = dataDir;
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
  // Tests make thousands of requests as one user against this shared stack; the quotas are
  // tested on a stack of their own (test/integration/quotas.test.ts) with small limits.
  process.env.RATE_LIMIT_REQUESTS ??= String(1_000_000_000);
  process.env.RATE_LIMIT_READS ??= String(1_000_000_000_000);
  // A failed webhook delivery is retried after 1 second instead of 5, so retry tests run quickly.
  process.env.WEBHOOK_RETRY_SECONDS ??= '1,300,1800,7200,18000,36000,36000';
  // Files run in parallel on this one DynamoDB Local, which serves every request of the stack in
  // one process: their bursts queue behind each other for seconds, which DynamoDB never does. The
  // stack waits longer than a lone `npm start` (15 s) before a store call is a 503; the store's own
  // timeout is tested on a proxy that never answers (test/integration/faults.test.ts).
  process.env.STORE_TIMEOUT_MS ??= '30000';
  return startLocalStack({ dataDir, store: 'memory', port: 0 });
}

export async function setup(project: TestProject) {
  shared.users++;
  shared.started ??= startShared();
  let stack: LocalStack;
  try {
    stack = await shared.started;
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('apiUrl', stack.url);
  project.provide('dataDir', stack.dataDir);
  project.provide('storeEndpoint', stack.storeEndpoint);
}

export async function teardown() {
  shared.users--;
  if (shared.users > 0) return;
  const { started, dataDir } = shared;
  shared.started = undefined;
  shared.dataDir = undefined;
  await (await started?.catch(() => undefined))?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
