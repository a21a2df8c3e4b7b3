import { afterAll } from 'vitest';
import { shareMemoryStores } from '../../infra/local/shared-engine';
import { type LocalStore, startStore } from '../../infra/local/store';

/**
 * Runs before every integration file (`setupFiles`): the stacks this file starts with a store in
 * memory (`useOwnStack`, `startLocalStack`, `startSeededStack`) become tables on one DynamoDB
 * Local of the file's own, started when the first of them starts (about 2 s) and stopped when the
 * file ends; a file on the shared stack starts none.
 *
 * Not one engine a worker for the whole run, as before: a DynamoDB Local slows down with every
 * table made and deleted on it. On one engine, 300 puts and 300 queries took 1.5 s and 1.0 s
 * fresh, and 7.5 s and 4.1 s after 40 tables had been made, filled with 400 items and deleted;
 * in a full run a file late on its worker's engine took 926 s instead of 35 s.
 */
let engine: Promise<LocalStore> | undefined;
shareMemoryStores(async () => {
  engine ??= startStore();
  return (await engine).endpoint;
});

// Registered before the file's own hooks, so it runs after them: the file's stacks are closed first.
afterAll(async () => {
  const started = engine;
  engine = undefined;
  await (await started?.catch(() => undefined))?.close();
}, 60_000);
