import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';

/**
 * Starts the same local stack `npm start` runs (AWS's DynamoDB Local in memory, a fresh data
 * directory) once for the whole run; integration tests reach it only through HTTP. A file that
 * needs a stack of its own (`useOwnStack`, `startLocalStack`, `startSeededStack`) gets a table on a
 * DynamoDB Local of the file's own (test/support/worker-engine.ts).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    storeEndpoint: string;
  }
}

let stack: LocalStack | undefined;
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
  try {
    stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('apiUrl', stack.url);
  project.provide('dataDir', stack.dataDir);
  project.provide('storeEndpoint', stack.storeEndpoint);
}

export async function teardown() {
  await stack?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
