import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { type BuildOptions, build } from 'esbuild';
import { esmRequireBanner, mainFields, unreachableCredentialProviders } from '../infra/bundling';
import { localEnvironment } from '../infra/local/stack';
import { ensureTable, startStore } from '../infra/local/store';
import { indexList } from '../lib/store/table';
import { benchQueries } from './queries';
import { REFERENCE_DATE, world } from './world';

/**
 * `npm run bench [-- --actions N] [--repeat R]`: fills an in-memory store with generated
 * actions, runs a fixed mix of list queries through the real list code and through a naive
 * full-scan baseline, checks they return the same thing, and reports what each read.
 * Exits non-zero when any result differs from the baseline's.
 */

const { values: args } = parseArgs({
  options: {
    actions: { type: 'string', default: '20000' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
const ACTIONS = Number(args.actions);
const REPEAT = Math.max(1, Number(args.repeat));
const SEED = Number(args.seed);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 1) throw new Error('--actions must be a positive integer');

const started = Date.now();
const dataDir = mkdtempSync(join(tmpdir(), 'actions-bench-'));
const store = await startStore({});
Object.assign(process.env, localEnvironment(dataDir, store.endpoint), { LOG_LEVEL: 'silent' });

// Loaded only now: the store reads its configuration once, when first imported.
const { actionAt, generateActions, progressBar, writeActions } = await import('./generate');
const { baselineList } = await import('./baseline');
const { listActions, documentClient } = await import('../lib/store/action-store');
const { parseListQuery } = await import('../lib/filter/query');
const { toItem } = await import('../lib/store/item');

const w = world(SEED);
const generateStarted = Date.now();
await writeActions(generateActions(ACTIONS, SEED, w), ACTIONS, `generating ${ACTIONS} actions`);
const generateSeconds = (Date.now() - generateStarted) / 1000;

// ---- write units per create -------------------------------------------------------------

/** dynalite's own item size, the one it charges reads by (DynamoDB's rules: names + values). */
const { itemSize } = createRequire(import.meta.url)('dynalite/db/index.js') as {
  itemSize: (item: Record<string, unknown>) => number;
};

async function writeUnits(samples: number) {
  const table = 'write-sample';
  await ensureTable(store.endpoint, table);
  let tableUnits = 0;
  let indexUnits = 0;
  let itemBytes = 0;
  const indexBytes = new Map<string, number>();
  for (let i = 0; i < samples; i++) {
    const item = toItem(actionAt(w, ACTIONS + i, SEED));
    const result = await documentClient.send(
      new PutCommand({ TableName: table, Item: item, ReturnConsumedCapacity: 'TOTAL' }),
    );
    tableUnits += result.ConsumedCapacity?.CapacityUnits ?? 0;
    const stored = marshall(item, { removeUndefinedValues: true });
    itemBytes += itemSize(stored);
    // DynamoDB also charges one write per index the item lands in, by the projected entry's size.
    for (const index of indexList) {
      const keys = [index.partitionKey.name, index.sortKey.name];
      if (keys.some((k) => stored[k] === undefined)) continue;
      const names = [...keys, 'id', ...(index.projection === 'keys' ? [] : index.projection)];
      const entry = Object.fromEntries(names.flatMap((n) => (stored[n] ? [[n, stored[n]]] : [])));
      const size = itemSize(entry);
      indexUnits += Math.ceil(size / 1024);
      indexBytes.set(index.name, (indexBytes.get(index.name) ?? 0) + size);
    }
  }
  const per = (n: number) => Math.round((n / samples) * 100) / 100;
  return {
    samples,
    tableUnitsPerCreate: per(tableUnits),
    indexUnitsPerCreate: per(indexUnits),
    totalUnitsPerCreate: per(tableUnits + indexUnits),
    averageItemBytes: Math.round(itemBytes / samples),
    averageIndexEntryBytes: Object.fromEntries([...indexBytes].map(([k, v]) => [k, Math.round(v / samples)])),
  };
}

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

interface Side {
  itemsRead: number;
  readUnits: number;
  requests: number;
  medianMs: number;
}

interface Row {
  name: string;
  query: string;
  plan: string;
  matched: number;
  list: Side;
  baseline: Side;
  /** list read units / baseline read units */
  ratio: number;
  same: boolean;
  difference?: string;
}

function planLabel(plan: Awaited<ReturnType<typeof listActions>>['plan']): string {
  if (plan.empty) return 'empty';
  const read = plan.read;
  const parts = `${read.index.name}${read.partitions.length > 1 ? ` x${read.partitions.length}` : ''}`;
  const range = read.range ? ' +range' : '';
  const filter = read.filter.length > 0 ? ` filter ${read.filter.map((c) => c.field.name).join(',')}` : '';
  const count = plan.count ? `; count ${plan.count.index.name}` : '';
  return `${parts}${range}${filter}${count}`;
}

const mix = benchQueries(w, someReference());
const progress = progressBar(`running ${mix.length} queries x${REPEAT}`, mix.length);
const rows: Row[] = [];
for (const { name, query } of mix) {
  const parsed = parseListQuery(query);
  const listRuns: Array<{ result: Awaited<ReturnType<typeof listActions>>; ms: number }> = [];
  const baseRuns: Array<{ result: Awaited<ReturnType<typeof baselineList>>; ms: number }> = [];
  for (let r = 0; r < REPEAT; r++) {
    listRuns.push(await timed(() => listActions(parsed)));
    baseRuns.push(await timed(() => baselineList(parsed)));
  }
  const list = listRuns[0]!.result;
  const base = baseRuns[0]!.result;
  const listJson = JSON.stringify(list.actions);
  const baseJson = JSON.stringify(base.actions);
  let difference: string | undefined;
  if (list.totalCount !== base.totalCount) difference = `totalCount ${list.totalCount} != ${base.totalCount}`;
  else if (listJson !== baseJson) {
    const a = list.actions.map((x) => x.id).join(',');
    const b = base.actions.map((x) => x.id).join(',');
    difference = a === b ? 'same ids, different content' : `ids ${a.slice(0, 120)} != ${b.slice(0, 120)}`;
  }
  const side = (runs: Array<{ ms: number }>, stats: typeof list.stats): Side => ({
    itemsRead: stats.itemsRead,
    readUnits: stats.readUnits,
    requests: stats.requests,
    medianMs: Math.round(median(runs.map((x) => x.ms)) * 10) / 10,
  });
  rows.push({
    name,
    query,
    plan: planLabel(list.plan),
    matched: base.totalCount,
    list: side(listRuns, list.stats),
    baseline: side(baseRuns, base.stats),
    ratio: base.stats.readUnits === 0 ? 0 : list.stats.readUnits / base.stats.readUnits,
    same: difference === undefined,
    ...(difference ? { difference } : {}),
  });
  progress.tick();
}
progress.finish();

// ---- bundle sizes -----------------------------------------------------------------------

/** Each handler bundled as the CDK construct bundles it, source map aside. */
async function bundleSizes() {
  const dir = 'functions';
  const sizes = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const common: BuildOptions & { write: false } = {
      entryPoints: [join(dir, file)],
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields,
      banner: { js: esmRequireBanner },
      external: [...unreachableCredentialProviders],
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

const writes = await writeUnits(200);
const bundles = await bundleSizes();

// ---- report -----------------------------------------------------------------------------

const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0);
const listUnits = sum((r) => r.list.readUnits);
const baseUnits = sum((r) => r.baseline.readUnits);
const mixRatio = listUnits / baseUnits;
const small = rows.filter((r) => r.matched <= ACTIONS * 0.01);
const targets = [
  { target: 'whole mix <= 10% of baseline read units', pass: mixRatio <= 0.1, value: pct(mixRatio) },
  {
    target: 'queries matching <= 1% of the table read <= 2% of baseline',
    pass: small.every((r) => r.ratio <= 0.02),
    value: small
      .filter((r) => r.ratio > 0.02)
      .map((r) => `${r.name} ${pct(r.ratio)}`)
      .join('; '),
  },
  {
    target: 'no query reads more than the baseline',
    pass: rows.every((r) => r.list.readUnits <= r.baseline.readUnits),
    value: rows
      .filter((r) => r.list.readUnits > r.baseline.readUnits)
      .map((r) => r.name)
      .join('; '),
  },
];

function pct(x: number): string {
  return `${(x * 100).toFixed(x < 0.01 ? 2 : 1)}%`;
}
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

const header = [
  'query',
  'plan',
  'matched',
  'items read',
  'read units',
  'ms',
  'scan items',
  'scan units',
  'scan ms',
  'units vs scan',
  'same',
];
const table = rows.map((r) => [
  r.name,
  r.plan,
  fmt(r.matched),
  fmt(r.list.itemsRead),
  fmt(r.list.readUnits),
  fmt(r.list.medianMs),
  fmt(r.baseline.itemsRead),
  fmt(r.baseline.readUnits),
  fmt(r.baseline.medianMs),
  pct(r.ratio),
  r.same ? 'yes' : 'NO',
]);
table.push([
  'whole mix',
  '',
  '',
  fmt(sum((r) => r.list.itemsRead)),
  fmt(listUnits),
  fmt(sum((r) => r.list.medianMs)),
  fmt(sum((r) => r.baseline.itemsRead)),
  fmt(baseUnits),
  fmt(sum((r) => r.baseline.medianMs)),
  pct(mixRatio),
  rows.every((r) => r.same) ? 'yes' : 'NO',
]);

const markdown = [
  `# List cost benchmark: ${ACTIONS} actions`,
  '',
  `Seed ${SEED}, reference date ${REFERENCE_DATE}, ${REPEAT} repetitions (median latency, embedded dynalite store on this machine). ` +
    '"read units" are what the store reports (`ReturnConsumedCapacity: TOTAL`, eventually consistent); the baseline scans the whole base table with the same filter.',
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
  ...table.map((cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  '',
  '## Targets',
  '',
  ...targets.map((t) => `- ${t.pass ? 'PASS' : 'FAIL'}: ${t.target}${t.value ? ` (${t.value})` : ''}`),
  '',
  '## Writes',
  '',
  `Per create (${writes.samples} PutItem samples): ${writes.tableUnitsPerCreate} write units on the table as dynalite reports them ` +
    `(dynalite charges the base item only), plus ${writes.indexUnitsPerCreate} on the indexes as DynamoDB would charge them ` +
    `(one write per index the item lands in, by its projected size): ${writes.totalUnitsPerCreate} in all. ` +
    `Average item ${writes.averageItemBytes} bytes; index entries: ${Object.entries(writes.averageIndexEntryBytes)
      .map(([k, v]) => `${k} ${v} B`)
      .join(', ')}.`,
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
  queries: rows,
  total: { listReadUnits: listUnits, baselineReadUnits: baseUnits, ratio: mixRatio },
  targets,
  writes,
  bundles,
  seconds: { generate: generateSeconds, total: (Date.now() - started) / 1000 },
};

mkdirSync('bench/results', { recursive: true });
for (const name of ['latest', `actions-${ACTIONS}`]) {
  writeFileSync(`bench/results/${name}.md`, markdown);
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify(json, null, 2)}\n`);
}
process.stdout.write(
  `\n${markdown}\nTook ${json.seconds.total.toFixed(0)} s (generating ${generateSeconds.toFixed(0)} s).\n`,
);

await store.close();
rmSync(dataDir, { recursive: true, force: true });
const mismatches = rows.filter((r) => !r.same);
if (mismatches.length > 0) {
  process.stderr.write(`FAIL: ${mismatches.map((r) => `${r.name}: ${r.difference}`).join('\n')}\n`);
  process.exit(1);
}
process.exit(0);
