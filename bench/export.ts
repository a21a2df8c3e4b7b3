import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, fail } from '../infra/command-line';
import { startSeededStack } from '../infra/local/seeded';
import type { Action } from '../lib/model/action';
import { exportOf, requestExport } from '../lib/transfer/exports';
import { generateActions } from './generate';
import { countingReads } from './reads';

/**
 * `npm run bench:export [-- --actions N]`: how fast an export runs (contract section 18, issue 51):
 * seeds N actions into a stack of its own (in memory), asks for an export of every action in CSV
 * and in XLSX, and reports rows a second (from asking to done, the worker's whole walk of the
 * list by cursor and its multipart upload to the local storage) and the peak memory of the
 * process the worker runs in, sampled every 20 ms, and the read units per 1,000 rows (DynamoDB
 * Local's `ReturnConsumedCapacity`, every read of the process while the export runs: the list's
 * pages, its counts, the record). Writes bench/results/export-<N>.md after each format.
 */

const { values: args } = commandLine(
  `usage: npm run bench:export [-- --actions <n> --formats csv,xlsx]

Seeds --actions (default 10000) actions into a stack of its own (in memory) and times an export
of all of them in each of --formats (default csv,xlsx), with the worker's peak memory.`,
  { actions: { type: 'string', default: '10000' }, formats: { type: 'string', default: 'csv,xlsx' } },
);
const ACTIONS = Number(args.actions);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 1) fail('--actions must be a positive integer.');
const FORMATS = args.formats.split(',');
for (const format of FORMATS)
  if (format !== 'csv' && format !== 'xlsx') fail(`--formats: ${format} is not csv or xlsx.`);

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main() {
  const actions: Action[] = [...generateActions(ACTIONS, 51)];
  const seeding = Date.now();
  const stack = await startSeededStack('bench-export', actions, { postings: false });
  const seededSeconds = (Date.now() - seeding) / 1000;
  const caller = { id: 'bench-exporter', name: 'Bench Exporter', email: null };
  const lines = [
    `# Export at ${ACTIONS} actions`,
    '',
    `Seeded in ${seededSeconds.toFixed(0)} s (bulk load, no stream reader). Each export: every action, newest first (query ""), parts of EXPORT_PART_BYTES (default 8 MiB), the local storage.`,
    '',
    '| format | rows | seconds | rows a second | peak RSS (MiB) | peak heap (MiB) | RSS before (MiB) | read units | per 1,000 rows |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const save = () => {
    mkdirSync(join('bench', 'results'), { recursive: true });
    writeFileSync(join('bench', 'results', `export-${ACTIONS}.md`), `${lines.join('\n')}\n`);
  };
  let failed = false;
  try {
    for (const format of FORMATS as ('csv' | 'xlsx')[]) {
      global.gc?.();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        peakRss = Math.max(peakRss, now.rss);
        peakHeap = Math.max(peakHeap, now.heapUsed);
      }, 20);
      const reads = countingReads();
      const started = Date.now();
      const asked = await requestExport(caller, [], { format, query: '' });
      let state = await exportOf(caller, asked.id);
      while (state.status === 'queued' || state.status === 'running') {
        await new Promise((r) => setTimeout(r, 200));
        state = await exportOf(caller, asked.id);
      }
      const seconds = (Date.now() - started) / 1000;
      clearInterval(sampler);
      reads.stop();
      const perThousand = state.rows > 0 ? (reads.units.read * 1000) / state.rows : 0;
      if (state.status !== 'done' || state.rows !== ACTIONS) {
        failed = true;
        console.error(`${format}: ${state.status} with ${state.rows} rows${state.error ? `: ${state.error}` : ''}`);
      }
      const row = `| ${format} | ${state.rows} | ${seconds.toFixed(1)} | ${(state.rows / seconds).toFixed(0)} | ${mib(peakRss)} | ${mib(peakHeap)} | ${mib(before.rss)} | ${reads.units.read} | ${perThousand.toFixed(1)} |`;
      console.log(row);
      lines.push(row);
      save();
    }
  } finally {
    await stack.close();
  }
  save();
  console.log(lines.join('\n'));
  if (failed) process.exit(1);
}

await main();
