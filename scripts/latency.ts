import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionAt, writeActions } from '../bench/generate';
import { world } from '../bench/world';
import { commandLine, fail } from '../infra/command-line';
import { issueToken } from '../infra/local/issuer';
import { startLocalStack, streamPositionFile } from '../infra/local/stack';
import type { Action } from '../lib/model/action';

/**
 * `npm run latency [-- --small 5000 --large 50000 --calls 30]`: the black-box check of issue 13.
 * Starts the local stack (`npm start`'s, store in memory, a free port), seeds `--small` actions,
 * measures the median latency through HTTP of the common list shapes, grows the store to
 * `--large` and measures again. The common shapes cost the page, not the table, so each median
 * may grow at most `--max-ratio` (2x); exits 1 when one grows more.
 */

const { values: args } = commandLine(
  `usage: npm run latency [-- --small <n> --large <n> --calls <n> --seed <s> --max-ratio <r>]

Starts a local stack (store in memory), seeds --small actions (default 5000), measures the
median latency through HTTP of the common list shapes over --calls calls each (default 30),
grows the store to --large (default 50000) and measures again. Exits 1 when a median grows
more than --max-ratio (default 2) times.`,
  {
    small: { type: 'string', default: '5000' },
    large: { type: 'string', default: '50000' },
    calls: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'max-ratio': { type: 'string', default: '2' },
  },
);
const SMALL = Number(args.small);
const LARGE = Number(args.large);
const CALLS = Math.max(5, Number(args.calls));
const SEED = Number(args.seed);
const MAX_RATIO = Number(args['max-ratio']);
if (!(Number.isSafeInteger(SMALL) && Number.isSafeInteger(LARGE) && SMALL >= 100 && LARGE > SMALL))
  fail('--small and --large must be integers, 100 <= small < large.');

const started = Date.now();
const dataDir = mkdtempSync(join(tmpdir(), 'actions-latency-'));
process.env.LOG_LEVEL = 'silent';
const stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });

const w = world(SEED);
const site = w.sites[4]?.name ?? '';
const shapes = [
  { name: 'default list', query: '' },
  { name: 'count only', query: 'limit=0' },
  { name: 'sort dueAt', query: 'sort=dueAt' },
  { name: 'one status', query: 'status=1' },
  { name: 'one site', query: `location.site=${encodeURIComponent(site)}` },
  { name: 'two statuses', query: 'status=~1,2' },
];
const token = issueToken(stack.issuer, { sub: 'latency-check', name: 'Latency Check', email: 'latency@example.com' });

function* actionsBetween(from: number, to: number): Generator<Action> {
  for (let i = from; i < to; i++) yield actionAt(w, i, SEED);
}

/**
 * The stack's stream reader reads every record the seeding wrote (and skips them: only history
 * entries are events); measuring while it still works would measure it too. It saves its
 * position after each batch, so it is idle once that file stops changing.
 */
async function streamReaderIdle(quietMs = 2_000, timeoutMs = 300_000): Promise<void> {
  const file = streamPositionFile(stack.dataDir);
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let since = Date.now();
  while (Date.now() < deadline) {
    const stamp = existsSync(file) ? statSync(file).mtimeMs : 0;
    if (stamp !== last) {
      last = stamp;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the stream reader did not settle');
}

async function get(query: string): Promise<{ ms: number; totalCount: number }> {
  const t = performance.now();
  const response = await fetch(`${stack.url}/api/actions?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { totalCount?: number };
  const ms = performance.now() - t;
  if (response.status !== 200) throw new Error(`GET ?${query} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms, totalCount: body.totalCount ?? -1 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** Median ms per shape; the shapes take turns, so a burst of load elsewhere hits them alike. */
async function measure(size: number): Promise<Record<string, number>> {
  await streamReaderIdle();
  const total = await get('limit=0');
  if (total.totalCount !== size) throw new Error(`the store holds ${total.totalCount} actions, not ${size}`);
  for (let i = 0; i < 3; i++) for (const shape of shapes) await get(shape.query);
  const times: Record<string, number[]> = Object.fromEntries(shapes.map((s) => [s.name, []]));
  for (let i = 0; i < CALLS; i++) {
    for (const shape of shapes) times[shape.name]?.push((await get(shape.query)).ms);
  }
  return Object.fromEntries(shapes.map((s) => [s.name, Math.round(median(times[s.name] ?? []) * 10) / 10]));
}

await writeActions(actionsBetween(0, SMALL), SMALL, `seeding ${SMALL} actions`);
const small = await measure(SMALL);
await writeActions(actionsBetween(SMALL, LARGE), LARGE - SMALL, `growing to ${LARGE} actions`);
const large = await measure(LARGE);

const rows = shapes.map((s) => {
  const a = small[s.name] as number;
  const b = large[s.name] as number;
  const ratio = b / a;
  return { name: s.name, query: s.query, small: a, large: b, ratio, pass: ratio <= MAX_RATIO };
});
const markdown = [
  `# List latency through HTTP: ${SMALL} and ${LARGE} actions`,
  '',
  `The local stack (\`npm start\`'s gateway and handlers, AWS's DynamoDB Local in memory) on this machine; ` +
    `median of ${CALLS} calls per shape and size, the shapes taking turns, after 3 warm-up rounds. Seed ${SEED}.`,
  '',
  `| shape | query | median ms at ${SMALL} | median ms at ${LARGE} | ratio | at most ${MAX_RATIO}x |`,
  '| --- | --- | ---: | ---: | ---: | --- |',
  ...rows.map(
    (r) =>
      `| ${r.name} | \`${r.query || '(none)'}\` | ${r.small} | ${r.large} | ${r.ratio.toFixed(2)}x | ${r.pass ? 'PASS' : 'FAIL'} |`,
  ),
  '',
].join('\n');

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latency.md', markdown);
writeFileSync(
  'bench/results/latency.json',
  `${JSON.stringify({ small: SMALL, large: LARGE, calls: CALLS, seed: SEED, maxRatio: MAX_RATIO, rows }, null, 2)}\n`,
);
process.stdout.write(`\n${markdown}\nTook ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);

await stack.close();
rmSync(dataDir, { recursive: true, force: true });
const failed = rows.filter((r) => !r.pass);
if (failed.length > 0) {
  process.stderr.write(
    `FAIL: ${failed.map((r) => `${r.name} grew ${r.ratio.toFixed(2)}x (more than ${MAX_RATIO}x)`).join('; ')}\n`,
  );
  process.exit(1);
}
process.exit(0);
