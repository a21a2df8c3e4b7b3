import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run budget-read [-- --actions 5000 --repeat 3]`: how long reading N index entries takes
 * on DynamoDB Local, for docs/list-cost.md's arithmetic of a budget-sized read. Seeds N actions
 * into a stack of its own (memory store), then times the two kinds of full read a list can make:
 * a substring search over every title (`all-by-title`, entries of about 180 bytes) and a
 * guessed date range read to its end (`all-by-due`, entries of about 500: every filter value).
 * Also prints the write units of the per-caller quota bookkeeping.
 */

const { values } = parseArgs({
  options: { actions: { type: 'string', default: '5000' }, repeat: { type: 'string', default: '3' } },
});
const ACTIONS = Number(values.actions);
const REPEAT = Number(values.repeat);

process.env.LOG_LEVEL ??= 'warn';
const dataDir = mkdtempSync(join(tmpdir(), 'actions-budget-read-'));
const { startLocalStack } = await import('../infra/local/stack');
const { putNewAction } = await import('../lib/store/actions/writes');
const { listActions } = await import('../lib/store/query/list');
const { parseListQuery } = await import('../lib/filter/query');
const { seedActions } = await import('./seed-data');
const { admit, charge } = await import('../lib/http/quotas');

const stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
const queue = [...seedActions(ACTIONS, 11)];
// A few writers, each retrying a write the busy local store timed out on (a retried create of the
// same action is recognised and changes nothing).
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      for (let attempt = 1; ; attempt++) {
        try {
          await putNewAction(next, next.owner);
          break;
        } catch (error) {
          if (attempt >= 5) throw error;
        }
      }
    }
  }),
);

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
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
