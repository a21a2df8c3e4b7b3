import { commandLine, fail } from '../infra/command-line';
import { requireRunningStack } from '../infra/local/cli';
import { progress } from '../infra/local/progress';
import { localEnvironment } from '../infra/local/stack';
import { beginBulkLoad, endBulkLoad, writeInBulk } from '../lib/store/bulk/bulk';
import { recount } from '../lib/store/counters/recount';
import { seedActions } from './seed-data';

/**
 * `npm run seed -- --actions N [--seed S]`: fills the stack running on $DATA_DIR with the
 * benchmark's realistic, deterministic actions, fitted to the docs (scripts/seed-data.ts),
 * through the store's bulk load (`lib/store/bulk/bulk.ts`: the items, history entries and counters a
 * create writes, in batches rather than one transaction each). The same N and seed always make
 * the same actions (same ids), so seeding twice adds nothing.
 */

const { values: args } = commandLine(
  `usage: npm run seed [-- --actions <n> --seed <s>]

Fills the stack that \`npm start\` runs on DATA_DIR (default .data) with --actions (default 1000)
realistic, deterministic actions; the same --actions and --seed write the same actions, so a
second run adds nothing. On a terminal it prints its progress every few seconds.`,
  {
    actions: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
  },
);
const actions = Number(args.actions);
const seed = Number(args.seed);
if (!Number.isSafeInteger(actions) || actions < 1) fail('--actions must be a positive integer.');
if (!Number.isSafeInteger(seed)) fail('--seed must be an integer.');

const running = await requireRunningStack('seed');
const { dataDir } = running;
const endpoint = running.storeEndpoint;
Object.assign(process.env, localEnvironment(dataDir, endpoint), { LOG_LEVEL: 'silent' });

const shown = progress('seed', 'actions', actions);
const seeded = function* () {
  for (const action of seedActions(actions, seed)) yield { action, actor: action.owner };
};
const started = performance.now();
// A load cut short left its mark: this one resumes it (the actions stored are skipped) and then
// repairs what the cut left, counters behind the actions and actions without search postings.
const resumed = await beginBulkLoad();
const { written, existed, phases } = await writeInBulk(seeded(), { written: (n) => shown.tick(n) }).catch(
  (error: unknown) =>
    // Actions may have landed without their counters: recount finds and repairs that.
    fail(
      `seed stopped: ${error instanceof Error ? error.message : String(error)} Run it again: it skips what is stored and repairs what the cut left.`,
      1,
    ),
);
shown.finish();
if (resumed) {
  const repair = await recount({ fix: true });
  console.log(
    `Resumed a load cut short: ${repair.drift.length} counters and ${repair.postings.actions.length + repair.postings.orphans.length} actions' search postings repaired.`,
  );
}
await endBulkLoad();
const seconds = (performance.now() - started) / 1000;
// What was done first, then where the time went.
console.log(
  `Seeded ${written} new actions (${existed} already there) of ${actions} (seed ${seed}) into the stack running at ${running.url} (DATA_DIR=${dataDir}).`,
);
console.log(
  `${Math.round(seconds * 10) / 10} s, ${Math.round((written + existed) / seconds)} actions a second; phases (ms, summed over workers): ${Object.entries(
    phases,
  )
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(', ')}`,
);
process.exit(0);
