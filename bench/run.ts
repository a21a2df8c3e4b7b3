import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { handlerBuild } from '../infra/bundling';
import { commandLine, fail } from '../infra/command-line';
import { localEnvironment } from '../infra/local/stack';
import { startStore } from '../infra/local/store';
import { updateAction } from '../lib/actions/action-service';
import { deleteAction } from '../lib/actions/by-id';
import { sweepDueDates } from '../lib/due-dates/sweep';
import { ValidationError } from '../lib/errors';
import { parseListQuery } from '../lib/filter/query';
import { openViewer } from '../lib/model/access';
import type { Person } from '../lib/model/action';
import { putNewAction } from '../lib/store/actions/writes';
import { listActions } from '../lib/store/list/run/open';
import { recordingTransactions, summarize } from '../lib/store/measure/write-cost';
import { baselineAnswer, scanTable } from './baseline';
import { actionAt, generateActions, progressBar, REFERENCE_MS, writeActions } from './generate';
import { indexCostTable, measureIndexCost } from './index-cost';
import { benchQueries } from './queries';
import { recount } from './recount';
import { measureSync, syncReport } from './sync';
import { REFERENCE_DATE, world } from './world';

/**
 * `npm run bench [-- --actions N] [--repeat R] [--seed S] [--samples W] [--disk]`: fills AWS's
 * DynamoDB Local (in memory, or on disk with `--disk`) with N generated actions and their
 * counters, proves every counter equals a full count, runs a fixed mix of list queries through
 * the real list code, checks each answer against the contract's reading of the query over one
 * full scan of the table (the baseline), and reports what each read against what the scan
 * read; then measures what creates, edits and deletes write, and proves the counters again.
 * Read units are DynamoDB Local's (`ReturnConsumedCapacity`), which size reads by DynamoDB's
 * rules; write units are computed by DynamoDB's rules (`lib/store/measure/write-cost.ts`).
 * Compares the common shapes with the results of the other size (10,000 vs 100,000) when they
 * exist. Exits 1 when a result differs from the baseline, a counter from the truth or a deep cursor
 * walk from `skip`. `--check` writes no report file: CI's run (`npm run bench:check`, 2,000 actions).
 */

const { values: args } = commandLine(
  `usage: npm run bench [-- --actions <n> --repeat <r> --seed <s> --samples <w> --compare <n> --as <n> --disk --check]

Fills DynamoDB Local (in memory; on disk with --disk) with --actions (default 10000, at least
1000) generated actions, checks the counters and a fixed mix of list queries against a full
scan, measures what creates, edits and deletes write (--samples, default 200), and writes the
report to bench/results/. --repeat (default 3) runs each query that many times; --seed (default
1) picks the data; --compare (default the other of 10000 and 100000) names the size to compare
with. --as <n> (at least --actions) scales LIST_READ_BUDGET to what its default 200,000 is to n
actions, so the planner meets the budget as it would at n (a page the budget cuts short, with a
cursor, is then a prefix of the scan's, and no other size is compared); the report is
actions-<actions>-as-<n>. Exits 1 when an answer differs from the scan, a counter from the
truth or a deep cursor walk from skip. --check prints only those verdicts and writes no file (what
CI runs: npm run bench:check). --index-cost
only measures what one create and one title edit write, all in (transaction, postings, mark).`,
  {
    actions: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    samples: { type: 'string', default: '200' },
    compare: { type: 'string' },
    as: { type: 'string' },
    disk: { type: 'boolean', default: false },
    'index-cost': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
);
const ACTIONS = Number(args.actions);
const REPEAT = Math.max(1, Number(args.repeat));
const SEED = Number(args.seed);
const SAMPLES = Math.max(4, Math.floor(Number(args.samples) / 4) * 4);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 1000) fail('--actions must be an integer of at least 1000.');
const COMPARE = Number(args.compare ?? (ACTIONS === 10_000 ? 100_000 : 10_000));
/** The size whose read budget this run has (`--as`): the default budget is for 10,000,000-action tables' shapes at any size. */
const AS = args.as === undefined ? undefined : Number(args.as);
if (AS !== undefined && (!Number.isSafeInteger(AS) || AS < ACTIONS))
  fail('--as must be an integer of at least --actions.');
const DEFAULT_BUDGET = 200_000;
const BUDGET = AS === undefined ? DEFAULT_BUDGET : Math.ceil((DEFAULT_BUDGET * ACTIONS) / AS);
const REPORT = AS === undefined ? `actions-${ACTIONS}` : `actions-${ACTIONS}-as-${AS}`;

const started = Date.now();
const dataDir = mkdtempSync(join(tmpdir(), 'actions-bench-'));
const store = await startStore(args.disk ? { path: join(dataDir, 'dynamodb') } : {});
Object.assign(process.env, localEnvironment(dataDir, store.endpoint), {
  LOG_LEVEL: 'silent',
  LIST_READ_BUDGET: String(BUDGET),
});
if (args['index-cost']) {
  console.log(indexCostTable(await measureIndexCost()));
  await store.close();
  process.exit(0);
}

const w = world(SEED);

// ---- seeding, and the proof that the counters equal the truth ---------------------------

const seeded = await writeActions(generateActions(ACTIONS, SEED, w), ACTIONS, `seeding ${ACTIONS} actions`);
process.stderr.write('recounting every counter against a full count of the table...\n');
const afterSeeding = await recount(ACTIONS + seeded.counterItems);
if (afterSeeding.actions !== ACTIONS)
  afterSeeding.mismatches.push(`${afterSeeding.actions} actions stored, ${ACTIONS} seeded`);

// ---- the query mix ----------------------------------------------------------------------

/** A reference the generator actually made: the first Inspections action after the 100th. */
function someReference(): string {
  for (let i = 100; i < ACTIONS; i++) {
    const reference = actionAt(w, i, SEED).actionProducer.reference;
    if (reference) return reference;
  }
  return 'none';
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const t = process.hrtime.bigint();
  const result = await fn();
  return { result, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

type Listed = Awaited<ReturnType<typeof listActions>>;

interface Row {
  name: string;
  query: string;
  /** A common shape, held to the page-cost targets. */
  counted: boolean;
  /** A daily combination, held to the same targets through the planner. */
  daily?: boolean;
  /** `totalCountRelation`: `gte` when the count is a lower bound. */
  relation?: 'eq' | 'gte';
  /** How the list was served: `counted (<index> x<partitions>)`, the planner's read, or `refused`. */
  servedBy: string;
  matched: number;
  itemsRead: number;
  requests: number;
  readUnits: number;
  medianMs: number;
  scan: { itemsRead: number; readUnits: number; ms: number };
  /** list read units / scan read units */
  ratio: number;
  same: boolean;
  /** The budget cut the page short: a prefix of the scan's page, with a cursor (only under `--as`). */
  partial?: boolean;
  refused?: string;
  difference?: string;
}

function servedBy(result: Listed): string {
  if (result.strategy === 'counted') return `counters + merge of ${result.index} x${result.partitions}`;
  if (result.strategy === 'searched')
    return `${result.index}${result.totalCountRelation === 'gte' ? ' (count gte)' : ''}`;
  const plan = result.plan;
  if (!plan || plan.empty) return 'empty';
  // A walk in the list's order names its own index (and, fetching, that it fetches to filter).
  const walked = plan.walk && result.index === plan.walk.read.index.name && plan.walk.read.index !== plan.read.index;
  const read = walked && plan.walk ? plan.walk.read : plan.read;
  if (walked && plan.walk?.fetch) {
    const parts = `${read.index.name}${read.partitions.length > 1 ? ` x${read.partitions.length}` : ''}`;
    const clauses = plan.walk.clauses.map((c) => c.field.name).join(',');
    return `planner: walk of ${parts}${read.range ? ' +range' : ''}, fetching${clauses ? ` to filter ${clauses}` : ''}`;
  }
  const parts = `${read.index.name}${read.partitions.length > 1 ? ` x${read.partitions.length}` : ''}`;
  const range = read.range ? ' +range' : '';
  const filter = read.filter.length > 0 ? ` filter ${read.filter.map((c) => c.field.name).join(',')}` : '';
  return `planner: ${parts}${range}${filter}`;
}

process.stderr.write('scanning the whole table for the baseline...\n');
const scanned = await scanTable(ACTIONS + seeded.counterItems);
const scan = { itemsRead: scanned.stats.itemsRead, readUnits: scanned.stats.readUnits, ms: scanned.seconds * 1000 };

const mix = benchQueries(w, someReference(), [actionAt(w, 100, SEED).title, actionAt(w, 200, SEED).title]);
const progress = progressBar(`running ${mix.length} queries (x${REPEAT})`, mix.length);
const rows: Row[] = [];
for (const { name, query, counted, daily } of mix) {
  const parsed = parseListQuery(query);
  const runs: Array<{ result: Listed; ms: number }> = [];
  let refused: string | undefined;
  for (let r = 0; r < REPEAT && !refused; r++) {
    try {
      runs.push(await timed(() => listActions(parsed)));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      refused = error.message;
    }
  }
  const base = baselineAnswer(scanned, query);
  if (refused || runs.length === 0) {
    rows.push({
      name,
      query,
      counted,
      daily,
      servedBy: 'refused (400: over the read budget)',
      matched: base.totalCount,
      itemsRead: 0,
      requests: 0,
      readUnits: 0,
      medianMs: 0,
      scan,
      ratio: 0,
      same: true,
      refused,
    });
    progress.tick();
    continue;
  }
  const list = (runs[0] as { result: Listed }).result;
  let difference: string | undefined;
  const ids = list.actions.map((x) => x.id).join(',');
  // A lower bound (`gte`, contract section 4) must not pass the truth; an exact count must equal it.
  const lowerBound = list.totalCountRelation === 'gte';
  if (lowerBound ? list.totalCount > base.totalCount : list.totalCount !== base.totalCount)
    difference = `totalCount ${list.totalCount}${lowerBound ? ' (gte)' : ''} != ${base.totalCount}`;
  // A page the budget cut short (contract section 4) is a prefix of the truth's, with a cursor.
  const partial = list.next !== undefined && list.actions.length < base.ids.length;
  const expected = partial ? base.ids.slice(0, list.actions.length) : base.ids;
  if (difference === undefined && ids !== expected.join(','))
    difference = `ids ${ids.slice(0, 120)} != ${expected.join(',').slice(0, 120)}`;
  else if (
    difference === undefined &&
    JSON.stringify(list.actions) !== JSON.stringify(expected.map((id) => scanned.actions.get(id)))
  )
    difference = 'same ids, different content';
  rows.push({
    name,
    query,
    counted,
    daily,
    relation: list.totalCountRelation,
    servedBy: servedBy(list),
    matched: base.totalCount,
    itemsRead: list.stats.itemsRead,
    requests: list.stats.requests,
    readUnits: list.stats.readUnits,
    medianMs: Math.round(median(runs.map((x) => x.ms)) * 10) / 10,
    scan,
    ratio: scan.readUnits === 0 ? 0 : list.stats.readUnits / scan.readUnits,
    same: difference === undefined,
    ...(partial ? { partial } : {}),
    ...(difference ? { difference } : {}),
  });
  progress.tick();
}
progress.finish();

// ---- what writes cost -------------------------------------------------------------------

process.stderr.write(`measuring ${SAMPLES} creates, ${SAMPLES / 4} edits of each kind and ${SAMPLES / 4} deletes...\n`);
const createTimes: number[] = [];
const creates = await recordingTransactions(async () => {
  for (let i = 0; i < SAMPLES; i++) {
    const action = actionAt(w, ACTIONS + i, SEED);
    const { ms } = await timed(() => putNewAction(action, action.owner));
    createTimes.push(ms);
  }
});
/** Seeded actions spread over the table, each edited or deleted by its owner through the service. */
const asOwner = (a: { owner: Person }) => ({ caller: a.owner, viewer: openViewer(a.owner) });
const targets = (offset: number) =>
  Array.from({ length: SAMPLES / 4 }, (_, i) => actionAt(w, (i * 4 + offset) * Math.floor(ACTIONS / SAMPLES), SEED));
const statusEdits = await recordingTransactions(async () => {
  for (const a of targets(0)) await updateAction(asOwner(a), a.id, { status: (a.status % 5) + 1 }, undefined);
});
const textEdits = await recordingTransactions(async () => {
  for (const a of targets(1))
    await updateAction(asOwner(a), a.id, { description: `${a.description} (checked)` }, undefined);
});
const deletes = await recordingTransactions(async () => {
  for (const a of targets(2)) await deleteAction(asOwner(a), a.id, undefined);
});
const writes = {
  create: summarize(creates.costs),
  createMedianMs: Math.round(median(createTimes) * 10) / 10,
  statusEdit: summarize(statusEdits.costs),
  textEdit: summarize(textEdits.costs),
  delete: summarize(deletes.costs),
};
process.stderr.write('recounting every counter after the writes...\n');
const afterWrites = await recount(ACTIONS + seeded.counterItems + 2 * SAMPLES);

// ---- sync: cursors deep in a list, the change feed, idempotent creates (after the recounts: it writes) ----

process.stderr.write('measuring cursor pages, change-feed pages and idempotent creates...\n');
const sync = await measureSync(ACTIONS, w, (world, i) => actionAt(world, i, SEED));
const expectedAfterWrites = ACTIONS + SAMPLES - SAMPLES / 4;
if (afterWrites.actions !== expectedAfterWrites)
  afterWrites.mismatches.push(`${afterWrites.actions} actions stored, ${expectedAfterWrites} expected`);

// ---- the due-date sweep -------------------------------------------------------------------

/**
 * What a sweep reads when a window holds the same 100 due actions, whatever the table's size.
 * The seeded actions carry the reminders a sweep at the reference date left them; a first sweep
 * a year later catches them all up (each open one gets its latest reminder); then 100 new actions
 * fall due together, a year and a day after the reference date, and the measured sweep finds them.
 */
process.stderr.write('sweeping due dates: catching the seeded actions up, then 100 actions falling due...\n');
const YEAR = 365 * 86_400_000;
const catchUpStarted = Date.now();
const catchUp = await sweepDueDates({ now: () => REFERENCE_MS + YEAR });
const catchUpSeconds = (Date.now() - catchUpStarted) / 1000;
const falling = REFERENCE_MS + YEAR + 86_400_000;
for (let i = 0; i < 100; i++) {
  const action = actionAt(w, ACTIONS + SAMPLES + i, SEED);
  await putNewAction(
    {
      ...action,
      dueAt: new Date(falling + i * 1000).toISOString(),
      status: 1,
      overdue: false,
      reminded: 0,
      updatedAt: action.createdAt,
      version: 1,
    },
    action.owner,
  );
}
const sweepStarted = Date.now();
const swept = await sweepDueDates({ now: () => falling + 200_000 });
const sweepMs = Date.now() - sweepStarted;
const again = await sweepDueDates({ now: () => falling + 200_000 });
const sweep = {
  catchUp: { owed: catchUp.owed, sent: catchUp.sent, readUnits: catchUp.queue.readUnits, seconds: catchUpSeconds },
  owed: swept.owed,
  sent: swept.sent,
  queueReadUnits: swept.queue.readUnits,
  queueItemsRead: swept.queue.itemsRead,
  queueRequests: swept.queue.requests,
  ms: sweepMs,
  againOwed: again.owed,
  againReadUnits: again.queue.readUnits,
};

// ---- bundle sizes -----------------------------------------------------------------------

/** Each handler bundled as the CDK construct bundles it (`handlerBuild`), source map aside. */
async function bundleSizes() {
  const dir = 'functions';
  const sizes = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const common: BuildOptions & { write: false } = {
      ...handlerBuild(join(dir, file), join(tmpdir(), 'bench-bundles', basename(file, '.ts'), 'index.mjs')),
      sourcemap: false,
      write: false,
      logLevel: 'silent',
    };
    const bundled = await build(common);
    const withoutSdk = await build({ ...common, external: ['@aws-sdk/*', '@smithy/*'] });
    const kb = (result: typeof bundled) => Math.round((result.outputFiles?.[0]?.contents.length ?? 0) / 102.4) / 10;
    sizes.push({ handler: basename(file, '.ts'), kb: kb(bundled), kbWithoutSdk: kb(withoutSdk) });
  }
  return sizes;
}
const bundles = await bundleSizes();

// ---- report -----------------------------------------------------------------------------

const MAX_COUNTED_UNITS = 25;
const MAX_GROWTH = 1.2;
const MAX_MIX_SHARE = 0.02;
/**
 * Issue 41: a 40-character create within 100 write units all in. This table weighs the
 * transaction and its index entries; the stream then writes the title's postings (38 for 40
 * characters) and removes the pending mark (1), so this part was held to 61 (`--index-cost`
 * weighs it all in). The old target, 40, predated section 14's prefix counters. Issue 50's
 * counters of each location field below the site add five counter items (10 write units, 12
 * with the overdue pairs of the creates already overdue): 71, which puts a create of a whole
 * location at about 110 all in, over issue 41's 100. A business unit's overdue actions by due
 * day (issue 50, `KEY_VERSION` 13) add one counter item to a create already overdue (2 write
 * units; 0.7 on this mix, 70.45 -> 71.19): 72. Kept as measured, not hidden: see
 * docs/list-cost.md ("Each location field by value"). The five fields' "no value" counters in one
 * item (issue 53, `KEY_VERSION` 14) brought it to 67.72 and a 40-character create all in to 99.
 */
const MAX_CREATE_UNITS = 72;

const answered = rows.filter((r) => !r.refused);
const sum = (list: Row[], f: (r: Row) => number) => list.reduce((a, r) => a + f(r), 0);
const mixUnits = sum(answered, (r) => r.readUnits);
const mixScanUnits = sum(answered, (r) => r.scan.readUnits);
const mixShare = mixScanUnits === 0 ? 0 : mixUnits / mixScanUnits;
const common = answered.filter((r) => r.counted);
const commonShare =
  sum(common, (r) => r.readUnits) /
  Math.max(
    1,
    sum(common, (r) => r.scan.readUnits),
  );
const oneScan = Math.max(0, ...rows.map((r) => r.scan.readUnits));

function pct(x: number): string {
  return `${(x * 100).toFixed(x < 0.01 ? 2 : 1)}%`;
}
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The same shapes measured at the other size, if that run's results are here. */
interface Stored {
  actions: number;
  seed: number;
  store?: string;
  queries: Row[];
}
const otherFile = `bench/results/actions-${COMPARE}.json`;
const other: Stored | undefined =
  AS === undefined && existsSync(otherFile) ? (JSON.parse(readFileSync(otherFile, 'utf8')) as Stored) : undefined;
// Only a run of this benchmark on DynamoDB Local with the same seed measures the same thing.
const comparable =
  other && other.seed === SEED && other.actions !== ACTIONS && other.store?.startsWith('DynamoDB Local')
    ? other
    : undefined;
const [small, large] =
  comparable && comparable.actions < ACTIONS
    ? [comparable.queries, rows]
    : comparable
      ? [rows, comparable.queries]
      : [undefined, undefined];
const smallSize = comparable ? Math.min(comparable.actions, ACTIONS) : undefined;
const largeSize = comparable ? Math.max(comparable.actions, ACTIONS) : undefined;
const comparableSweep = (comparable as { sweep?: typeof sweep } | undefined)?.sweep;
const growth = rows
  .filter((r) => r.counted || r.daily)
  .map((r) => {
    const a = small?.find((x) => x.name === r.name);
    const b = large?.find((x) => x.name === r.name);
    return {
      name: r.name,
      small: a?.readUnits,
      large: b?.readUnits,
      ratio: a && b && a.readUnits > 0 ? b.readUnits / a.readUnits : undefined,
    };
  });

const overBudget = common.filter((r) => r.readUnits > MAX_COUNTED_UNITS);
const notCounted = rows.filter((r) => r.counted && !r.servedBy.startsWith('counters'));
const grew = growth.filter((g) => g.ratio !== undefined && g.ratio > MAX_GROWTH);
const dailyMissed = answered.filter((r) => r.daily && (r.readUnits > MAX_COUNTED_UNITS || r.relation !== 'eq'));
const refusedDaily = rows.filter((r) => r.daily && r.refused);
const differing = rows.filter((r) => !r.same);
const counterMismatches = [...afterSeeding.mismatches, ...afterWrites.mismatches];
const targetList = [
  {
    target: `every common shape is served by the counters and reads at most ${MAX_COUNTED_UNITS} read units`,
    pass: overBudget.length === 0 && notCounted.length === 0,
    value: [
      ...overBudget.map((r) => `${r.name} ${fmt(r.readUnits)}`),
      ...notCounted.map((r) => `${r.name} not counted`),
    ].join('; '),
  },
  {
    target: `every daily combination (issue 53) counts exactly and reads at most ${MAX_COUNTED_UNITS} read units`,
    pass: dailyMissed.length === 0 && refusedDaily.length === 0,
    value: [
      ...dailyMissed.map((r) => `${r.name} ${fmt(r.readUnits)}${r.relation === 'eq' ? '' : ' (gte)'}`),
      ...refusedDaily.map((r) => `${r.name} refused`),
    ].join('; '),
  },
  comparable
    ? {
        target: `every common shape reads at ${largeSize} actions at most ${MAX_GROWTH}x what it reads at ${smallSize}`,
        pass: grew.length === 0,
        value: grew.map((g) => `${g.name} ${g.ratio?.toFixed(2)}x`).join('; '),
      }
    : {
        target: `every common shape reads at ${Math.max(ACTIONS, COMPARE)} actions at most ${MAX_GROWTH}x what it reads at ${Math.min(ACTIONS, COMPARE)}`,
        pass: undefined,
        value: `no results for ${COMPARE} actions (seed ${SEED}) in bench/results; run npm run bench -- --actions ${COMPARE}`,
      },
  {
    target: `the whole mix reads at most ${pct(MAX_MIX_SHARE)} of the scan baseline's read units`,
    pass: mixShare <= MAX_MIX_SHARE,
    value: `${pct(mixShare)}; the common shapes alone ${pct(commonShare)}`,
  },
  {
    target: 'every result equals the baseline',
    checked: true,
    pass: differing.length === 0,
    value: differing.map((r) => `${r.name}: ${r.difference}`).join('; '),
  },
  {
    target: 'every counter equals a full count, after seeding and after the writes',
    checked: true,
    pass: counterMismatches.length === 0,
    value: counterMismatches.slice(0, 5).join('; '),
  },
  {
    target: "a cursor walk deep into a list returns no action twice, and skip's page at the same depth",
    checked: true,
    pass: sync.problems.length === 0,
    value: sync.problems.join('; '),
  },
  {
    target: `a create writes at most ${MAX_CREATE_UNITS} write units`,
    pass: writes.create.total <= MAX_CREATE_UNITS,
    value: `${writes.create.total}`,
  },
];
const verdict = (pass: boolean | undefined) => (pass === undefined ? 'N/A ' : pass ? 'PASS' : 'FAIL');

const header = ['query', 'served by', 'matched', 'items read', 'requests', 'read units', 'ms', 'units vs scan', 'same'];
const table = rows.map((r) => [
  `${r.name}${r.counted ? ' *' : r.daily ? ' †' : ''}`,
  r.servedBy,
  fmt(r.matched),
  fmt(r.itemsRead),
  fmt(r.requests),
  fmt(r.readUnits),
  fmt(r.medianMs),
  r.refused ? '' : pct(r.ratio),
  r.refused ? 'refused' : !r.same ? 'NO' : r.partial ? 'yes (partial page)' : 'yes',
]);
table.push([
  'whole mix',
  '',
  '',
  fmt(sum(answered, (r) => r.itemsRead)),
  fmt(sum(answered, (r) => r.requests)),
  fmt(mixUnits),
  fmt(sum(answered, (r) => r.medianMs)),
  pct(mixShare),
  differing.length === 0 ? 'yes' : 'NO',
]);

const writeLine = (name: string, s: typeof writes.create) =>
  `| ${name} | ${s.samples} | ${fmt(s.item)} | ${fmt(s.history)} | ${fmt(s.counters)} (${fmt(s.counterItems)} counters) | ${fmt(s.indexes)} | **${fmt(s.total)}** | ${fmt(s.max)} | ${fmt(s.reported)} |`;

const seconds = (Date.now() - started) / 1000;
/**
 * Minutes a run of `n` actions takes here: seeding, the baseline's scans and the recounts grow
 * with the table, the rest does not; a third more for a store that slows as it grows.
 */
const scaling = seeded.seconds + scanned.seconds + afterSeeding.seconds + afterWrites.seconds;
const estimate = (n: number) => Math.ceil(((scaling * (n / ACTIONS) * 4) / 3 + (seconds - scaling)) / 60);
const millionHint =
  `To run 1,000,000 actions: \`npm run bench -- --actions 1000000 --disk --repeat 1\` ` +
  `(about ${estimate(1_000_000)} minutes on this machine, extrapolated from this run; ` +
  '`--disk` keeps DynamoDB Local on disk under the temporary directory, about 5 GB, instead of in memory). ' +
  'At that size no list is refused for its cost (only a skip past LIST_READ_BUDGET, naming skip): a page the budget cuts short ' +
  'answers what it found with a cursor. `--as 1000000` gives a smaller run the budget it would have there.';

const markdown = [
  `# List cost benchmark: ${ACTIONS} actions${AS === undefined ? '' : `, the read budget of ${AS}`}`,
  '',
  ...(AS === undefined
    ? []
    : [
        `LIST_READ_BUDGET is ${BUDGET} index entries: what the default ${DEFAULT_BUDGET} is to 10,000,000 actions, ` +
          `${BUDGET} is to ${ACTIONS} what it would be to ${AS}, so every plan whose read grows with the table meets ` +
          `the budget here as it would there ("partial page": the budget cut the page short; it is the scan's first ` +
          'matches, in order, with a cursor). Read units per page do not grow with the table; what a run at this size ' +
          'shows is which shapes still answer whole, exactly counted.',
        '',
      ]),
  `Seed ${SEED}, reference date ${REFERENCE_DATE}; AWS's DynamoDB Local (${args.disk ? 'on disk' : 'in memory'}) on this machine; ` +
    `list latency is the median of ${REPEAT} runs. "read units" are what DynamoDB Local reports ` +
    "(`ReturnConsumedCapacity`; it sizes reads by DynamoDB's rules: per request, the bytes read rounded up to 4 KB, " +
    'halved when eventually consistent; counters are read strongly consistent). The baseline is a scan of the whole ' +
    `table, ${fmt(oneScan)} read units (${scan.itemsRead} items: the actions and the shards of their counters; ` +
    `${scanned.seconds.toFixed(0)} s in ${scanned.segments} parallel segments), whatever the query; every answer is ` +
    "checked against the contract's reading of the query over the scanned actions (`contract/oracle.ts`) and " +
    'every returned action against what is stored. * marks the common shapes (issue 13, point 2), † the daily combinations (issue 53).',
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
  ...table.map((cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  '',
  ...(comparable
    ? [
        `## Common shapes at ${smallSize} and ${largeSize} actions`,
        '',
        `| query | read units at ${smallSize} | read units at ${largeSize} | ratio |`,
        '| --- | ---: | ---: | ---: |',
        ...growth.map(
          (g) =>
            `| ${g.name} | ${g.small === undefined ? '' : fmt(g.small)} | ${g.large === undefined ? '' : fmt(g.large)} | ${g.ratio === undefined ? '' : `${g.ratio.toFixed(2)}x`} |`,
        ),
        '',
      ]
    : []),
  '## Targets',
  '',
  ...targetList.map((t) => `- ${verdict(t.pass)}: ${t.target}${t.value ? ` (${t.value})` : ''}`),
  '',
  '## The due-date sweep',
  '',
  `The seeded actions carry the reminders a sweep at the reference date left them. A first sweep a year later caught them up: ` +
    `${sweep.catchUp.owed} owed, sent ${JSON.stringify(sweep.catchUp.sent)}, its queue read ${fmt(sweep.catchUp.readUnits)} read units, ${sweep.catchUp.seconds.toFixed(0)} s. ` +
    `Then 100 new actions fell due together: the sweep found ${sweep.owed} (sent ${JSON.stringify(sweep.sent)}), ` +
    `reading its queue in ${sweep.queueRequests} requests, ${sweep.queueItemsRead} entries, **${fmt(sweep.queueReadUnits)} read units** ` +
    `(plus one strongly consistent read of each action it reminds, as every write makes), in ${sweep.ms} ms. ` +
    `A sweep right after found ${sweep.againOwed} owed and read ${fmt(sweep.againReadUnits)} read units.` +
    (comparableSweep
      ? ` At ${comparable?.actions} actions the same sweep read ${fmt(comparableSweep.queueReadUnits)} read units (${comparableSweep.owed} owed).`
      : ''),
  '',
  '## Writes',
  '',
  "Write units by DynamoDB's rules, from the images of every item each transaction wrote (`lib/store/measure/write-cost.ts`): " +
    'in a transaction, 2 units per started KB of each item (the larger of its old and new image); each index, ' +
    'one unit per started KB of an entry put or removed, two when an index key changes, none when nothing it holds ' +
    "changes. DynamoDB Local's own figure (last column) follows none of these rules and is shown only for reference. " +
    'An edit or a delete also reads the item once, strongly consistent (1 read unit).',
  '',
  '| write | samples | item | history entry | counters | indexes | total | largest | DynamoDB Local says |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  writeLine('create', writes.create),
  writeLine('edit: status', writes.statusEdit),
  writeLine('edit: description', writes.textEdit),
  writeLine('delete', writes.delete),
  '',
  `Index units of a create, by index: ${Object.entries(writes.create.byIndex)
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ')}. A create takes ${writes.createMedianMs} ms (median) on DynamoDB Local here.`,
  '',
  ...syncReport(sync),
  '## Seeding and recounts',
  '',
  `Seeded ${seeded.actions} actions in bulk in ${seeded.seconds.toFixed(0)} s (BatchWriteItem, then ${seeded.counterItems} counter shards with ADD). ` +
    `Recount after seeding: ${afterSeeding.actions} actions, ${afterSeeding.counters} counters in ${afterSeeding.counterItems} shard items, ` +
    `${afterSeeding.mismatches.length} mismatches (the scan and the recount took ${afterSeeding.seconds.toFixed(0)} s). ` +
    `After the writes: ${afterWrites.actions} actions, ${afterWrites.counters} counters, ${afterWrites.mismatches.length} mismatches.`,
  '',
  millionHint,
  '',
  '## Handler bundles',
  '',
  "| handler | KB, as the CDK construct bundles it (AWS SDK included) | KB if the runtime's SDK were used |",
  '| --- | ---: | ---: |',
  ...bundles.map((b) => `| ${b.handler} | ${b.kb} | ${b.kbWithoutSdk} |`),
  '',
].join('\n');

const json = {
  actions: ACTIONS,
  seed: SEED,
  referenceDate: REFERENCE_DATE,
  repeat: REPEAT,
  store: args.disk ? 'DynamoDB Local on disk' : 'DynamoDB Local in memory',
  queries: rows,
  total: { listReadUnits: mixUnits, scanReadUnits: mixScanUnits, share: mixShare, commonShare },
  growth: comparable ? { small: smallSize, large: largeSize, shapes: growth } : undefined,
  targets: targetList,
  writes,
  seeding: seeded,
  recount: { afterSeeding, afterWrites },
  bundles,
  sweep,
  sync,
  seconds,
};

mkdirSync('bench/results', { recursive: true });
for (const name of args.check ? [] : AS === undefined ? ['latest', REPORT] : [REPORT]) {
  writeFileSync(`bench/results/${name}.md`, markdown);
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify(json, null, 2)}\n`);
}
// `--check` (CI) asserts the answers only; the cost targets are for the sizes they name.
const printed = args.check
  ? [
      `npm run bench:check: ${ACTIONS} actions, ${rows.length} queries against a full scan`,
      ...targetList
        .filter((t) => 'checked' in t)
        .map((t) => `- ${verdict(t.pass)}: ${t.target}${t.value ? ` (${t.value})` : ''}`),
      'The cost targets are checked by the full runs (npm run bench -- --actions 10000; docs/list-cost.md).',
    ].join('\n')
  : markdown;
process.stdout.write(`\n${printed}\nTook ${seconds.toFixed(0)} s (seeding ${seeded.seconds.toFixed(0)} s).\n`);

await store.close();
rmSync(dataDir, { recursive: true, force: true });
// A wrong answer fails the run (CI runs it); a cost target missed is a FAIL line in the report.
if (differing.length > 0 || counterMismatches.length > 0 || sync.problems.length > 0) {
  process.stderr.write(
    `FAIL: ${[...differing.map((r) => `${r.name}: ${r.difference}`), ...counterMismatches, ...sync.problems].join('\n')}\n`,
  );
  process.exit(1);
}
process.exit(0);
