import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { issueToken } from '../infra/local/issuer';
import { startLocalStack } from '../infra/local/stack';
import { getDocumentClient } from '../lib/store/client';
import { itemBytes, stored, writeUnitsOf } from './item-size';
import { recordingTransactions, summarize } from './writes';

/**
 * `npm run bench:import [-- --rows N] [--sample M]`: what an import costs (issue 51). On a local
 * stack in this process (DynamoDB Local in memory), through the API as a client does it (a
 * presigned POST, then `POST /api/imports`):
 * - rows a second of a dry run and of a real run of N generated rows (default 10,000), from the
 *   POST to `status: done`;
 * - read and write units per 1,000 rows of a real run of M rows (default 1,000): every
 *   transaction by DynamoDB's rules (`writes.ts`: the item, history, counters, the idempotency
 *   key and the indexes), and every other call at 1 write unit per started KB of its item and 1
 *   read unit per started 4 KB read (strongly consistent; eventually consistent reads counted
 *   the same, an upper bound). Everything the stack did meanwhile counts: the worker, the stream
 *   consumer (events, search postings) and the notifier.
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

async function api(method: string, path: string, body?: unknown) {
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

async function importRows(rows: number, dryRun: boolean): Promise<{ seconds: number; report: Record<string, any> }> {
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
  }
}

/** Every call but transactions, counted by DynamoDB's unit rules (see above). */
function countingOtherCalls() {
  const client = getDocumentClient() as unknown as { send: (command: any, options?: unknown) => Promise<any> };
  const original = client.send.bind(client);
  const units = { read: 0, write: 0 };
  const readUnits = (items: Array<Record<string, unknown>> = []) =>
    items.reduce((sum, item) => sum + Math.max(1, Math.ceil(itemBytes(stored(item)) / 4096)), 0);
  client.send = async (command, options) => {
    const answer = await original(command, options);
    const name = command.constructor.name as string;
    const input = command.input ?? {};
    if (name === 'GetCommand') units.read += readUnits(answer.Item ? [answer.Item] : []) || 1;
    else if (name === 'QueryCommand') units.read += Math.max(1, Math.ceil(readUnits(answer.Items) / 1));
    else if (name === 'BatchGetCommand')
      units.read += Object.values(answer.Responses ?? {}).reduce(
        (s: number, items) => s + readUnits(items as never),
        0,
      );
    else if (name === 'PutCommand') units.write += writeUnitsOf(itemBytes(stored(input.Item)));
    else if (name === 'UpdateCommand' || name === 'DeleteCommand') units.write += 1;
    else if (name === 'BatchWriteCommand')
      for (const requests of Object.values(input.RequestItems ?? {}) as Array<Array<Record<string, any>>>)
        for (const request of requests)
          units.write += request.PutRequest ? writeUnitsOf(itemBytes(stored(request.PutRequest.Item))) : 1;
    return answer;
  };
  return { units, stop: () => (client.send = original) };
}

try {
  await api('GET', '/api/me');
  const dry = await importRows(ROWS, true);
  console.log(`dry run, ${ROWS} rows: ${dry.seconds.toFixed(1)} s, ${Math.round(ROWS / dry.seconds)} rows a second`);
  const real = await importRows(ROWS, false);
  if (real.report.created !== ROWS) throw new Error(`created ${real.report.created} of ${ROWS}`);
  console.log(`real run, ${ROWS} rows: ${real.seconds.toFixed(1)} s, ${Math.round(ROWS / real.seconds)} rows a second`);

  // Counted inside the transactions' recorder, so the images it reads are not counted.
  let others: ReturnType<typeof countingOtherCalls> | undefined;
  const { costs } = await recordingTransactions(async () => {
    others = countingOtherCalls();
    try {
      return await importRows(SAMPLE, false);
    } finally {
      others.stop();
    }
  });
  const units = (others as ReturnType<typeof countingOtherCalls>).units;
  const transactions = summarize(costs);
  const per = 1000 / SAMPLE;
  const transactionWrites = transactions.total * transactions.samples;
  console.log(
    `per 1,000 rows (a real run of ${SAMPLE}): ${Math.round((transactionWrites + units.write) * per)} write units ` +
      `(${Math.round(transactionWrites * per)} in ${transactions.samples} transactions: ${transactions.total} each; ` +
      `${Math.round(units.write * per)} other), ${Math.round(units.read * per)} read units`,
  );
} finally {
  await stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
