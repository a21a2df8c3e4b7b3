import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { issueToken } from '../infra/local/issuer';
import { startLocalStack } from '../infra/local/stack';
import { getDocumentClient } from '../lib/store/client';
import { itemBytes, stored, writeUnitsOf } from '../lib/store/measure/item-size';
import { recordingTransactions, summarize } from '../lib/store/measure/write-cost';
import { countingReads } from './reads';

/**
 * `npm run bench:import [-- --rows N] [--sample M]`: what an import costs (issue 51). On a local
 * stack in this process (DynamoDB Local in memory), through the API as a client does it (a
 * presigned POST, then `POST /api/imports`):
 * - rows a second of a dry run and of a real run of N generated rows (default 10,000), from the
 *   POST to `status: done`, with read units per 1,000 rows (DynamoDB Local's
 *   `ReturnConsumedCapacity`, `reads.ts`);
 * - write units per 1,000 rows of the dry run and of a real run of M rows (default 1,000): every
 *   transaction by DynamoDB's rules (`writes.ts`: the item, history, counters, the idempotency
 *   key and the indexes; it reads each item's images beside the transaction, so that run is
 *   slower and only its units count), every other write at 1 unit per started KB of its item.
 *   Everything the stack did meanwhile counts: the worker, the stream consumer (events, search
 *   postings) and the notifier.
 * Writes bench/results/import-<N>.md after each run (dry, sample, real), so a long run keeps what it measured.
 */

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '10000' }, sample: { type: 'string', default: '1000' } },
});
const ROWS = Number(args.rows);
const SAMPLE = Number(args.sample);

const dataDir = mkdtempSync(join(tmpdir(), 'import-bench-'));
process.env.LOG_LEVEL = 'silent';
process.env.RATE_LIMIT_REQUESTS = '1000000000';
const stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
const token = issueToken(stack.issuer, { sub: 'bench-importer', name: 'Bench Importer', email: 'bench@example.com' });

async function api(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await apiOnce(method, path, body);
    } catch (error) {
      // A loaded machine's local gateway may drop a connection: a GET is asked again.
      if (method !== 'GET' || attempt >= 5 || !(error instanceof TypeError)) throw error;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function apiOnce(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** N rows in the export's columns that matter, a tenth of them assigned to one of 20 people. */
function csv(rows: number, producer: string): Uint8Array {
  const lines = [
    'title,description,status,priority,dueAt,assignee.id,assignee.name,actionProducer.name,location.businessUnit,location.site,tags',
  ];
  for (let i = 0; i < rows; i++) {
    const assignee = i % 10 === 0 ? `person-${i % 20}` : '';
    lines.push(
      `Inspect conveyor ${i},Belt shows fraying at splice ${i},1,${i % 4},2036-12-01T10:00:00Z,${assignee},${assignee ? 'Person' : ''},${producer},Iron Ore,Pit ${i % 7},belt; conveyor`,
    );
  }
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}

async function importRows(
  rows: number,
  dryRun: boolean,
  progress?: (created: number, seconds: number) => void,
): Promise<{ seconds: number; report: Record<string, any> }> {
  const bytes = csv(rows, `bench-${dryRun ? 'dry' : 'real'}-${rows}-${Date.now()}`);
  const upload = await api('POST', '/api/imports/uploads', {
    name: 'bench.csv',
    contentType: 'text/csv',
    size: bytes.length,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'text/csv' }), 'bench.csv');
  const stored = await fetch(upload.url, { method: 'POST', body: form });
  if (stored.status !== 204) throw new Error(`storage answered ${stored.status}`);
  const started = Date.now();
  const { id } = await api('POST', '/api/imports', { uploadId: upload.uploadId, dryRun });
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const report = await api('GET', `/api/imports/${id}`);
    if (report.status === 'failed') throw new Error(`import failed: ${report.error}`);
    if (report.status === 'done') return { seconds: (Date.now() - started) / 1000, report };
    progress?.(report.created, (Date.now() - started) / 1000);
  }
}

/** Every write but transactions, counted by DynamoDB's unit rules (see above). */
function countingOtherWrites() {
  const client = getDocumentClient() as unknown as { send: (command: any, options?: unknown) => Promise<any> };
  const original = client.send.bind(client);
  const units = { write: 0 };
  client.send = async (command, options) => {
    const answer = await original(command, options);
    const name = command.constructor.name as string;
    const input = command.input ?? {};
    if (name === 'PutCommand') units.write += writeUnitsOf(itemBytes(stored(input.Item)));
    else if (name === 'UpdateCommand' || name === 'DeleteCommand') units.write += 1;
    else if (name === 'BatchWriteCommand')
      for (const requests of Object.values(input.RequestItems ?? {}) as Array<Array<Record<string, any>>>)
        for (const request of requests)
          units.write += request.PutRequest ? writeUnitsOf(itemBytes(stored(request.PutRequest.Item))) : 1;
    return answer;
  };
  return { units, stop: () => (client.send = original) };
}

const lines = [
  `# Import of ${ROWS} rows`,
  '',
  'Generated rows through the API (presigned POST, then `POST /api/imports`) on a local stack in this process (DynamoDB Local in memory), timed from the POST to `status: done`. ' +
    "Read units are DynamoDB Local's (`ReturnConsumedCapacity`) for every read of the process meanwhile (the worker, the stream consumer, the notifier, the polling GETs); " +
    "write units by DynamoDB's rules: transactions from their items' images (lib/store/measure/write-cost.ts), other writes per started KB.",
  `Reproduce: \`npm run bench:import -- --rows ${ROWS} --sample ${SAMPLE}\`.`,
  '',
  '| run | rows | seconds | rows a second | read units per 1,000 rows | write units per 1,000 rows |',
  '|---|---|---|---|---|---|',
];
const notes: string[] = [];
const save = () => {
  mkdirSync(join('bench', 'results'), { recursive: true });
  writeFileSync(join('bench', 'results', `import-${ROWS}.md`), `${[...lines, '', ...notes].join('\n')}\n`);
};
const row = (run: string, rows: number, seconds: number, reads: number | string, writes: number | string) => {
  const per = (units: number | string) => (typeof units === 'number' ? Math.round((units * 1000) / rows) : units);
  const line = `| ${run} | ${rows} | ${seconds.toFixed(1)} | ${Math.round(rows / seconds)} | ${per(reads)} | ${per(writes)} |`;
  console.log(line);
  lines.push(line);
  save();
};

try {
  await api('GET', '/api/me');
  {
    const reads = countingReads();
    const writes = countingOtherWrites();
    const dry = await importRows(ROWS, true);
    reads.stop();
    writes.stop();
    row('dry run', ROWS, dry.seconds, reads.units.read, writes.units.write);
  }
  {
    // Counted inside the transactions' recorder, so the images it reads are not counted.
    let reads: ReturnType<typeof countingReads> | undefined;
    let writes: ReturnType<typeof countingOtherWrites> | undefined;
    const { result, costs } = await recordingTransactions(async () => {
      reads = countingReads();
      writes = countingOtherWrites();
      try {
        return await importRows(SAMPLE, false);
      } finally {
        writes.stop();
        reads.stop();
      }
    });
    if (result.report.created !== SAMPLE) throw new Error(`created ${result.report.created} of ${SAMPLE}`);
    const transactions = summarize(costs);
    const transactionWrites = transactions.total * transactions.samples;
    const other = (writes as ReturnType<typeof countingOtherWrites>).units.write;
    row(
      "real run, units measured (the transactions' images read beside it slow it)",
      SAMPLE,
      result.seconds,
      (reads as ReturnType<typeof countingReads>).units.read,
      transactionWrites + other,
    );
    notes.push(
      `In the sample run: ${transactions.samples} transactions of ${transactions.total} write units each on average ` +
        `(${Math.round((transactionWrites * 1000) / SAMPLE)} per 1,000 rows), other writes ${Math.round((other * 1000) / SAMPLE)} per 1,000 rows.`,
    );
    save();
  }
  {
    const reads = countingReads();
    let shown = 0;
    const real = await importRows(ROWS, false, (created, seconds) => {
      if (seconds - shown < 30) return;
      shown = seconds;
      notes[1] = `Real run of ${ROWS} so far: ${created} created in ${seconds.toFixed(0)} s (${(created / seconds).toFixed(1)} rows a second).`;
      save();
    });
    notes.splice(1, 1);
    reads.stop();
    if (real.report.created !== ROWS) throw new Error(`created ${real.report.created} of ${ROWS}`);
    row('real run', ROWS, real.seconds, reads.units.read, "(the sample's)");
  }
} finally {
  await stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
