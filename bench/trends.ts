import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, fail } from '../infra/command-line';
import { localEnvironment } from '../infra/local/stack';
import { startStore } from '../infra/local/store';
import { getReminderSettings } from '../lib/config';
import type { Viewer } from '../lib/model/access';
import type { Action } from '../lib/model/action';
import type { RecordedEntry } from '../lib/model/history';
import { trendMoveOf } from '../lib/model/trends';
import { toView } from '../lib/model/view';
import { newStats } from '../lib/store/list/plan/result';
import { writeTrendsInBulk } from '../lib/store/trends/bulk-trends';
import { markDayRecorded, putDayEnd } from '../lib/store/trends/day-ends';
import { trendWrites } from '../lib/store/trends/trend-counters';
import { countTrends } from '../lib/trends/trend-stream';
import { trendsFor } from '../lib/trends/trends';
import { generateActions, writeActions } from './generate';

/**
 * `npm run bench:trends [-- --actions N]`: what a trend costs (contract section 17, "Cost": a
 * 13-month weekly trend of one scope reads at most 60 read units at any size). Seeds N actions
 * (their counters, through the bulk writer), spreads their `created` entries (and the closes of
 * those created closed) over the 400 days that end today, counts the first 500 through the stream
 * consumer's own `countTrends` (what each entry writes, in write units) and seeds the trend
 * counters of the rest with the bulk writer (the same items, `lib/store/trends/bulk-trends.ts`;
 * at 1,000 actions counting all of them took 112 s, so 100,000 would take hours), records a day end for
 * every one of those days for the measured site (the worst case: every day of the range holds
 * items), then asks the 13-month weekly trend of that site, in open mode with the site as a
 * filter and as a person whose one scope is the site, and reports the read units of each
 * (DynamoDB Local's `ReturnConsumedCapacity`). Writes bench/results/trends-<N>.md; exits 1 over 60.
 */

const { values: args } = commandLine(
  `usage: npm run bench:trends [-- --actions <n>]

Seeds --actions (default 10000) actions, counts their trend entries over the last 400 days, and
measures the read units of a 13-month weekly trend of one site.`,
  { actions: { type: 'string', default: '10000' } },
);
const ACTIONS = Number(args.actions);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 100) fail('--actions must be an integer of at least 100.');
const LIMIT = 60;
/** Entries counted through `countTrends` itself, one transaction each: the measured write cost. */
const SAMPLE = 500;
const DAY_MS = 86_400_000;

const dataDir = mkdtempSync(join(tmpdir(), 'actions-bench-trends-'));
const store = await startStore({});
Object.assign(process.env, localEnvironment(dataDir, store.endpoint), { LOG_LEVEL: 'silent' });

const actions: Action[] = [...generateActions(ACTIONS, 1)];
await writeActions(actions, ACTIONS, `seeding ${ACTIONS} actions`);

const today = new Date().toISOString().slice(0, 10);
const dayAt = (back: number) =>
  new Date(Date.parse(`${today}T00:00:00.000Z`) - back * DAY_MS).toISOString().slice(0, 10);
const entries: RecordedEntry[] = actions.map((action, i) => {
  const time = `${dayAt(i % 400)}T${action.createdAt.slice(11)}`;
  return {
    actionId: action.id,
    version: 1,
    type: 'created',
    actor: action.owner,
    time,
    action: toView({ ...action, createdAt: time, updatedAt: time }),
  };
});
// The first SAMPLE entries go through the stream consumer's own `countTrends` (what an entry
// costs, measured), the rest through the bulk writer, which writes the very items counting them
// would (lib/store/trends/bulk-trends.ts; test/integration/bulk-trends.test.ts): first the bulk
// (its puts need a store with no trend counters yet), then the sample, whose ADDs add to them.
const sample = entries.slice(0, SAMPLE);
const rest = entries.slice(SAMPLE);
process.stderr.write(`writing the trend counters of ${rest.length} entries in bulk...\n`);
const bulkStarted = Date.now();
const bulk = await writeTrendsInBulk(rest, getReminderSettings().closedStatuses);
const bulkSeconds = (Date.now() - bulkStarted) / 1000;
process.stderr.write(`counting ${sample.length} entries through the stream consumer's countTrends...\n`);
const counting = Date.now();
let written = 0;
for (let i = 0; i < sample.length; i += 500) written += (await countTrends(sample.slice(i, i + 500))).counted;
// By DynamoDB's rules (DynamoDB Local reports no transaction's units): 2 write units an item of
// a transaction, each item under 1 KB.
const transactionItems = sample.reduce((n, entry) => {
  const move = trendMoveOf(entry, getReminderSettings().closedStatuses);
  return n + (move ? trendWrites(entry, move).length : 0);
}, 0);
const units = 2 * transactionItems;
const countSeconds = (Date.now() - counting) / 1000;

// The busiest site: the measured scope.
const sites = new Map<string, { businessUnit: string; site: string; n: number }>();
for (const a of actions) {
  const key = JSON.stringify([a.location.businessUnit, a.location.site]);
  const found = sites.get(key) ?? { businessUnit: a.location.businessUnit, site: a.location.site, n: 0 };
  found.n++;
  sites.set(key, found);
}
const site = [...sites.values()].sort((a, b) => b.n - a.n)[0] as { businessUnit: string; site: string; n: number };
for (let back = 0; back < 400; back++) {
  await putDayEnd([site.businessUnit, site.site], dayAt(back), { open: 1, overdue: 1 });
  await markDayRecorded(dayAt(back), 1, true);
}

const from = (() => {
  const d = new Date(`${today}T00:00:00.000Z`);
  d.setUTCMonth(d.getUTCMonth() - 13);
  return d.toISOString().slice(0, 10);
})();
const enc = encodeURIComponent;
const query = `interval=week&from=${from}&to=${today}`;
const caller = { id: 'bench-person' };
const scoped: Viewer = {
  mode: 'scoped',
  person: caller,
  roles: [{ role: 'viewer', scope: { businessUnit: site.businessUnit, site: site.site } }],
};
const measured: Array<[string, number, number]> = [];
for (const [label, raw, viewer] of [
  [
    'open mode, the site as a filter',
    `${query}&location.businessUnit=${enc(site.businessUnit)}&location.site=${enc(site.site)}`,
    undefined,
  ],
  ['a person whose one scope is the site', query, scoped],
  [
    'open mode, the site and priority=1',
    `${query}&location.businessUnit=${enc(site.businessUnit)}&location.site=${enc(site.site)}&priority=1`,
    undefined,
  ],
  // The same ranges ending yesterday: the trend's own reads alone, without today's two list counts.
  [
    'open mode, the site as a filter, ending yesterday',
    `interval=week&from=${from}&to=${dayAt(1)}&location.businessUnit=${enc(site.businessUnit)}&location.site=${enc(site.site)}`,
    undefined,
  ],
  ['a person whose one scope is the site, ending yesterday', `interval=week&from=${from}&to=${dayAt(1)}`, scoped],
] as const) {
  const stats = newStats();
  const trend = await trendsFor(raw, caller, viewer, undefined, stats);
  measured.push([label, stats.readUnits, trend.buckets.length]);
}

const lines = [
  `# Trends at ${ACTIONS} actions`,
  '',
  `\`npm run bench:trends -- --actions ${ACTIONS}\`, ${new Date().toISOString()}. The measured scope: the busiest site (${site.n} actions), ${from} to ${today} by week, every day of it holding trend counters and a day end.`,
  '',
  '| trend | buckets | read units |',
  '| --- | ---: | ---: |',
  ...measured.map(([label, readUnits, buckets]) => `| ${label} | ${buckets} | ${readUnits} |`),
  '',
  `Trend counters of ${entries.length} created entries: the first ${written} counted through the stream consumer's \`countTrends\` (one transaction an entry), measured: ${units} write units by DynamoDB's rules (${(units / Math.max(1, written)).toFixed(1)} an entry: ${(transactionItems / Math.max(1, written)).toFixed(0)} items in a transaction, 2 units each, all under 1 KB), ${countSeconds.toFixed(0)} s. The other ${bulk.counted} seeded by the benchmark's bulk writer (\`lib/store/trends/bulk-trends.ts\`: the same items \`countTrends\` writes, summed in memory, ${bulk.items} puts), ${bulkSeconds.toFixed(0)} s. Seconds on a loaded machine (2 cores shared); units do not depend on load.`,
  '',
];
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', `trends-${ACTIONS}.md`), lines.join('\n'));
console.log(lines.join('\n'));
await store.close();
rmSync(dataDir, { recursive: true, force: true });
if (measured.some(([, readUnits]) => readUnits > LIMIT)) process.exit(1);
