import { commandLine, fail } from '../infra/command-line';
import { startSeededStack } from '../infra/local/seeded';
import { parseListQuery } from '../lib/filter/query';
import { admit, charge } from '../lib/http/quotas';
import { listActions } from '../lib/store/list/run/open';
import { seedActions } from './seed-data';

/**
 * `npm run budget-read [-- --actions 5000 --repeat 3]`: how long reading N index entries takes
 * on DynamoDB Local, for docs/list-cost.md's arithmetic of a budget-sized read. Seeds N actions
 * into a stack of its own (memory store), then times the two kinds of full read a list can make:
 * a substring search over every title (`all-by-title`, entries of about 180 bytes) and a
 * guessed date range read to its end (`all-by-due`, entries of about 500: every filter value).
 * Also prints the write units of the per-caller quota bookkeeping.
 */

const { values } = commandLine(
  `usage: npm run budget-read [-- --actions <n> --repeat <r>]

Seeds --actions actions (default 5000) into a stack of its own (store in memory) and prints how
long the two kinds of full read a list can make take (the median of --repeat runs, default 3),
per index entry and for a budget of 200,000 entries, and what the quota bookkeeping writes.`,
  { actions: { type: 'string', default: '5000' }, repeat: { type: 'string', default: '3' } },
);
const ACTIONS = Number(values.actions);
const REPEAT = Number(values.repeat);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 1) fail('--actions must be a positive integer.');
if (!Number.isSafeInteger(REPEAT) || REPEAT < 1) fail('--repeat must be a positive integer.');

process.env.LOG_LEVEL ??= 'warn';
const stack = await startSeededStack('budget-read', seedActions(ACTIONS, 11));

const shapes = {
  'title=*belt (all-by-title)': 'title=*belt&limit=10',
  'dueAt range + title=*zzzq (all-by-due)': `dueAt=${encodeURIComponent('>1900-01-01')}&dueAt=${encodeURIComponent('<2200-01-01')}&title=*zzzq`,
};
console.log(`${ACTIONS} actions on DynamoDB Local (memory); median of ${REPEAT} runs`);
for (const [label, query] of Object.entries(shapes)) {
  const runs: Array<{ ms: number; entries: number; units: number }> = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    const result = await listActions(parseListQuery(query));
    runs.push({ ms: performance.now() - started, entries: result.stats.indexEntries, units: result.stats.readUnits });
  }
  runs.sort((a, b) => a.ms - b.ms);
  const median = runs[Math.floor(runs.length / 2)] as (typeof runs)[number];
  const perEntryUs = (median.ms * 1000) / median.entries;
  console.log(
    `${label}: ${median.entries} entries, ${median.units} read units, ${median.ms.toFixed(0)} ms: ${perEntryUs.toFixed(1)} us an entry, ${(
      (perEntryUs * 200_000) / 1e6
    ).toFixed(1)} s for 200,000 entries at that rate`,
  );
}

// What the quota bookkeeping costs (ReturnConsumedCapacity): the admission of a request, and
// the charge of a list's entries.
const admitted = await admit(`measure-${Date.now()}`, 1234);
const charged = await charge(admitted, 1000);
console.log(
  `quota bookkeeping: ${admitted.use.writeUnits} write unit(s) to admit a request, ${charged.use.writeUnits} more to charge a list's reads`,
);

await stack.close();
process.exit(0);
