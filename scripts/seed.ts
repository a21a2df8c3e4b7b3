import { parseArgs } from 'node:util';
import { fail, helpIfAsked, requireRunningStack } from '../infra/local/cli';
import { progress } from '../infra/local/progress';
import { localEnvironment } from '../infra/local/stack';
import type { NewAction } from '../lib/store/bulk/bulk';
import { seedActions } from './seed-data';

/**
 * `npm run seed -- --actions N [--seed S]`: fills the stack running on $DATA_DIR with the
 * benchmark's realistic, deterministic actions, fitted to the README (scripts/seed-data.ts),
 * through the store's bulk load (`lib/store/bulk/bulk.ts`: the items, history entries and counters a
 * create writes, in batches rather than one transaction each). The same N and seed always make
 * the same actions (same ids), so seeding twice adds nothing.
 */

helpIfAsked(`usage: npm run seed [-- --actions <n> --seed <s>]

Fills the stack that \`npm start\` runs on DATA_DIR (default .data) with --actions (default 1000)
realistic, deterministic actions; the same --actions and --seed write the same actions, so a
second run adds nothing. On a terminal it prints its progress every few seconds.`);

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

// Loaded only now: the store reads its configuration when first used.
const { putNewActions } = await import('../lib/store/bulk/bulk');

/** Counters are added once per chunk, so a chunk is more than one BatchWriteItem of 25. */
const CHUNK = 250;
const IN_FLIGHT = 2;
const queue = seedActions(actions, seed);
const nextChunk = (): NewAction[] => {
  const chunk: NewAction[] = [];
  for (let next = queue.next(); !next.done; next = queue.next()) {
    chunk.push({ action: next.value, actor: next.value.owner });
    if (chunk.length === CHUNK) break;
  }
  return chunk;
};
const shown = progress('seed', 'actions', actions);
let created = 0;
let existed = 0;
try {
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let chunk = nextChunk(); chunk.length > 0; chunk = nextChunk()) {
        const result = await putNewActions(chunk);
        created += result.created;
        existed += result.existed;
        shown.tick(chunk.length);
      }
    }),
  );
} catch (error) {
  // A batch may have landed without its counters: recount finds and repairs that.
  fail(
    `seed stopped after ${created} new actions: ${error instanceof Error ? error.message : String(error)} Run it again (it skips what is stored), then \`npm run recount -- --fix\`.`,
    1,
  );
}
shown.finish();
console.log(
  `Seeded ${created} new actions (${existed} already there) of ${actions} (seed ${seed}) into the stack running at ${running.url} (DATA_DIR=${dataDir}).`,
);
process.exit(0);
