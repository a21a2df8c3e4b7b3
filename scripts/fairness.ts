import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run fairness [-- --actions 2000 --alone 10 --beside 30 --hammers 8 --requests N --reads N]`:
 * one caller (the hammer) runs expensive lists (`title=*belt`, a substring search over every
 * title) on `--hammers` connections at full speed, while another caller makes ordinary calls
 * (`GET /api/actions/{id}`, five a second). Reports the ordinary caller's p50/p99 alone, then
 * beside the hammer, and beside it once the hammer is being answered 429. Starts its own local
 * stack (memory store) in this process, with the quotas given (default: the service's).
 */

const USAGE = `usage: npm run fairness [-- --actions <n> --alone <s> --beside <s> --hammers <n> --requests <n> --reads <n>]`;

const { values } = parseArgs({
  options: {
    actions: { type: 'string', default: '2000' },
    alone: { type: 'string', default: '10' },
    beside: { type: 'string', default: '30' },
    hammers: { type: 'string', default: '8' },
    requests: { type: 'string' },
    reads: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const ACTIONS = Number(values.actions);
const ALONE_MS = Number(values.alone) * 1000;
const BESIDE_MS = Number(values.beside) * 1000;
const HAMMERS = Number(values.hammers);
/** The ordinary caller's pace: well inside any sane request quota (300 a minute). */
const ORDINARY_INTERVAL_MS = 200;

process.env.LOG_LEVEL ??= 'warn';
if (values.requests) process.env.RATE_LIMIT_REQUESTS = values.requests;
if (values.reads) process.env.RATE_LIMIT_READS = values.reads;

const dataDir = mkdtempSync(join(tmpdir(), 'actions-fairness-'));
const { startLocalStack } = await import('../infra/local/stack');
const { issueToken } = await import('../infra/local/issuer');
const { putNewAction } = await import('../lib/store/actions/writes');
const { getConfig } = await import('../lib/config');
const { seedActions } = await import('./seed-data');

const stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
const config = getConfig();
console.log(
  `local stack on ${stack.url}; quotas: ${config.rateLimitRequests} requests and ${config.rateLimitReads} index entries a minute per caller; list budget ${config.listReadBudget}`,
);

const seeded = [...seedActions(ACTIONS, 7)];
const queue = [...seeded];
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
console.log(`seeded ${ACTIONS} actions`);

const token = (sub: string) => `Bearer ${issueToken(stack.issuer, { sub, name: sub }, 3600)}`;
const ordinary = token(`ordinary-${Date.now()}`);
const hammer = token(`hammer-${Date.now()}`);
const ids = seeded.map((a) => a.id);

interface Sample {
  at: number;
  ms: number;
  status: number;
}

async function timed(path: string, authorization: string): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(stack.url + path, { headers: { authorization } });
  await response.arrayBuffer();
  return { at: Date.now(), ms: performance.now() - started, status: response.status };
}

/** Ordinary calls at a steady pace until `until`. */
async function ordinaryCalls(until: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; Date.now() < until; i++) {
    const next = Date.now() + ORDINARY_INTERVAL_MS;
    samples.push(await timed(`/api/actions/${ids[i % ids.length]}`, ordinary));
    const wait = next - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return samples;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};
const describe = (label: string, samples: Sample[]) => {
  const ms = samples.map((s) => s.ms);
  const statuses = [...new Set(samples.map((s) => s.status))].join('/');
  return `${label}: n=${samples.length}, p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms (status ${statuses})`;
};

// Warm up (first requests load modules and JIT), then the ordinary caller alone.
await ordinaryCalls(Date.now() + 2000);
const alone = await ordinaryCalls(Date.now() + ALONE_MS);

// The hammer: expensive lists on every connection, as fast as they are answered.
const heavy = `/api/actions?title=${encodeURIComponent('*belt')}&limit=10`;
const until = Date.now() + BESIDE_MS;
const hammerSamples: Sample[] = [];
const hammering = Promise.all(
  Array.from({ length: HAMMERS }, async () => {
    while (Date.now() < until) hammerSamples.push(await timed(heavy, hammer));
  }),
);
const beside = await ordinaryCalls(until);
await hammering;

const first429 = hammerSamples.filter((s) => s.status === 429).reduce((min, s) => Math.min(min, s.at), Infinity);
const whileLimited = beside.filter((s) => s.at >= first429);
const whileHammering = beside.filter((s) => s.at < first429);
const hammerStatuses: Record<string, number> = {};
for (const s of hammerSamples) hammerStatuses[s.status] = (hammerStatuses[s.status] ?? 0) + 1;

const p50Alone = percentile(
  alone.map((s) => s.ms),
  50,
);
const p50Limited = percentile(
  whileLimited.map((s) => s.ms),
  50,
);
console.log(
  [
    describe('ordinary caller alone', alone),
    describe('ordinary caller beside the hammer (whole time)', beside),
    describe('  ... before the hammer got its first 429', whileHammering),
    describe('  ... once the hammer was being answered 429', whileLimited),
    `hammer: ${hammerSamples.length} lists on ${HAMMERS} connections in ${BESIDE_MS / 1000} s: ${JSON.stringify(hammerStatuses)}; p50 ${percentile(
      hammerSamples.filter((s) => s.status === 200).map((s) => s.ms),
      50,
    ).toFixed(0)} ms for a 200`,
    whileLimited.length > 0
      ? `ordinary p50 once the hammer is limited / alone: ${(p50Limited / p50Alone).toFixed(2)}x (target: within 2x)`
      : 'the hammer was never answered 429 (its quotas were never reached)',
  ].join('\n'),
);

await stack.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
