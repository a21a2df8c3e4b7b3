import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { localEnvironment, runningStack } from '../infra/local/stack';
import { type LocalStore, startStore } from '../infra/local/store';

/**
 * `npm run seed -- --actions N [--seed S]`: fills the local store under $DATA_DIR with the
 * benchmark's realistic, deterministic actions. Uses the store of a running `npm start` when
 * there is one, else opens $DATA_DIR/store itself. The same N and seed always write the same
 * actions (same ids), so seeding twice overwrites rather than duplicates.
 */

const { values: args } = parseArgs({
  options: {
    actions: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
  },
});
const actions = Number(args.actions);
const seed = Number(args.seed);
if (!Number.isSafeInteger(actions) || actions < 1) throw new Error('--actions must be a positive integer');
if (!Number.isSafeInteger(seed)) throw new Error('--seed must be an integer');

const dataDir = resolve(process.env.DATA_DIR || '.data');
const running = await runningStack(dataDir);
let own: LocalStore | undefined;
if (!running) {
  mkdirSync(dataDir, { recursive: true });
  own = await startStore({ path: join(dataDir, 'store') });
}
const endpoint = running?.storeEndpoint ?? (own as LocalStore).endpoint;
Object.assign(process.env, localEnvironment(dataDir, endpoint), { LOG_LEVEL: 'silent' });

// Loaded only now: the store reads its configuration once, when first imported.
const { generateActions, writeActions } = await import('../bench/generate');
await writeActions(generateActions(actions, seed), actions, `seeding ${actions} actions`);
await own?.close();
console.log(
  `Seeded ${actions} actions (seed ${seed}) into ${running ? `the stack running at ${running.url}` : `${dataDir}/store`}.`,
);
process.exit(0);
