import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { type LocalStore, startStore } from '../../infra/local/store';

/**
 * Starts the same local stack `npm start` runs (AWS's DynamoDB Local in memory, a fresh data
 * directory) once for the whole run; integration tests reach it only through HTTP. Beside it, one
 * DynamoDB Local per vitest worker (`storeEngines`, one per file at a time): a file that needs a
 * stack of its own (`useOwnStack`, `startLocalStack`, `startSeededStack`) gets a table on its
 * worker's engine (test/support/worker-engine.ts), so it waits for a table, not for a JVM.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    storeEndpoint: string;
    /** One DynamoDB Local per worker (`VITEST_POOL_ID`), for the stacks files start of their own. */
    storeEngines: string[];
  }
}

let stack: LocalStack | undefined;
let engines: LocalStore[] = [];
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-test-'));
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
  // A project's own maxWorkers (1 when its files run one at a time), else the run's.
  const workers = project.config.maxWorkers ?? project.globalConfig.maxWorkers;
  const started = await Promise.allSettled([
    startLocalStack({ dataDir, store: 'memory', port: 0 }),
    ...Array.from({ length: workers }, () => startStore()),
  ]);
  const [first, ...rest] = started;
  stack = first?.status === 'fulfilled' ? first.value : undefined;
  engines = rest.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed || !stack) {
    await teardown();
    throw failed?.reason;
  }
  project.provide('apiUrl', stack.url);
  project.provide('dataDir', stack.dataDir);
  project.provide('storeEndpoint', stack.storeEndpoint);
  project.provide(
    'storeEngines',
    engines.map((e) => e.endpoint),
  );
}

export async function teardown() {
  await stack?.close();
  await Promise.all(engines.map((engine) => engine.close()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
