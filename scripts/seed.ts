import { parseArgs } from 'node:util';
import { fail, helpIfAsked, requireRunningStack } from '../infra/local/cli';
import { localEnvironment } from '../infra/local/stack';
import { putNewAction } from '../lib/store/writes';
import { seedActions } from './seed-data';

/**
 * `npm run seed -- --actions N [--seed S]`: fills the stack running on $DATA_DIR with the
 * benchmark's realistic, deterministic actions, fitted to the README (scripts/seed-data.ts),
 * through the real write path. The same N and seed always make the same actions (same ids), so
 * seeding twice adds nothing.
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

// Through the real write path, so counters, history and events are as any create makes them.
const queue = seedActions(actions, seed);
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) await putNewAction(next.value, next.value.owner);
  }),
);
console.log(`Seeded ${actions} actions (seed ${seed}) into the stack running at ${running.url} (DATA_DIR=${dataDir}).`);
process.exit(0);
