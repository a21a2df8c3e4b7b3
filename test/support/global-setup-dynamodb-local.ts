import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stackFile } from '../../infra/local/stack';

/**
 * The same stack as `STORE=dynamodb-local npm start`: AWS's DynamoDB Local engine behind the
 * real handlers. It runs in a child process because the handlers read their configuration once
 * per process, and the dynalite stack of the other test project lives in this one.
 */

let child: ChildProcess | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-ddb-local-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, STORE: 'dynamodb-local', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const file = stackFile(dataDir);
  const deadline = Date.now() + 90_000;
  while (!existsSync(file)) {
    if (child.exitCode !== null) throw new Error(`the DynamoDB Local stack exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the DynamoDB Local stack did not start within 90 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const info = JSON.parse(readFileSync(file, 'utf8')) as { url: string; storeEndpoint: string };
  project.provide('apiUrl', info.url);
  project.provide('dataDir', dataDir);
  project.provide('storeEndpoint', info.storeEndpoint);
  project.provide('storeEngine', 'dynamodb-local');
}

export async function teardown() {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
