import { parseArgs } from 'node:util';
import { fail, helpIfAsked, requireRunningStack } from '../infra/local/cli';
import { localEnvironment } from '../infra/local/stack';

/**
 * `npm run seed -- --actions N [--seed S]`: fills the local store under $DATA_DIR with the
 * benchmark's realistic, deterministic actions. Uses the store of a running `npm start` when
 * there is one, else opens $DATA_DIR/store itself. The same N and seed always write the same
 * actions (same ids), so seeding twice overwrites rather than duplicates.
 */

helpIfAsked(`usage: npm run seed [-- --actions <n> --seed <s>]

Fills the stack that \`npm start\` runs on DATA_DIR (default .data) with --actions (default 1000)
realistic, deterministic actions; the same --actions and --seed write the same actions.`);

const { values: args } = parseArgs({
  options: {
    actions: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
  },
  strict: false,
});
const actions = Number(args.actions);
const seed = Number(args.seed);
if (!Number.isSafeInteger(actions) || actions < 1) fail('--actions must be a positive integer.');
if (!Number.isSafeInteger(seed)) fail('--seed must be an integer.');

const running = await requireRunningStack('seed');
const { dataDir } = running;
const endpoint = running.storeEndpoint;
Object.assign(process.env, localEnvironment(dataDir, endpoint), { LOG_LEVEL: 'silent' });

// Loaded only now: the store reads its configuration once, when first imported.
const { generateActions, writeActions } = await import('../bench/generate');
await writeActions(generateActions(actions, seed), actions, `seeding ${actions} actions`);
console.log(`Seeded ${actions} actions (seed ${seed}) into the stack running at ${running.url} (DATA_DIR=${dataDir}).`);
process.exit(0);
