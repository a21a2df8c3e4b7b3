import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler } from '../../functions/ingestActions';
import { logSink } from '../../lib/logger';
import { commandLine, fail } from '../command-line';
import { requireRunningStack } from './cli';
import { localEnvironment } from './stack';

/**
 * `npm run ingest -- <file.ndjson>`: delivers one `ActionRequested` event per line through the
 * same ingest handler AWS runs (as SQS records, the way the queue hands them over), to the stack
 * running on DATA_DIR. Prints each line's action id with "created" or "already existed" (an
 * event for an action its producer reference made before changes nothing), each rejected line
 * with its errors, and exits 1 when any was rejected.
 */

const { positionals } = commandLine(
  `usage: npm run ingest -- <file.ndjson>

Delivers one ActionRequested event per line (an EventBridge event: detail-type, source, detail)
through the real ingest handler to the stack that \`npm start\` runs on DATA_DIR (default .data).
Prints each line's action id with "created" or "already existed" (a repeated event changes
nothing), each rejected line with its errors; exits 1 when any was rejected.`,
  {},
);

const file = positionals[0];
if (!file) fail('usage: npm run ingest -- <file.ndjson>');
if (!existsSync(file)) fail(`No such file: ${file}`);
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .map((text, index) => ({ text: text.trim(), line: index + 1 }))
  .filter((l) => l.text !== '');

const running = await requireRunningStack('ingest');
Object.assign(process.env, localEnvironment(running.dataDir, running.storeEndpoint), { LOG_LEVEL: 'info' });

// What became of each message, from the handler's own log lines (keyed by the message id).
const rejections = new Map<string, unknown[]>();
const outcomes = new Map<string, { actionId: string; created: boolean }>();
logSink.write = (text: string) => {
  const entry = JSON.parse(text) as {
    correlationId?: string;
    level: string;
    errors?: unknown[];
    message: string;
    actionId?: string;
  };
  if (!entry.correlationId) return;
  if (entry.level !== 'info') rejections.set(entry.correlationId, entry.errors ?? [entry.message]);
  else if (entry.actionId && /created|duplicate/.test(entry.message)) {
    outcomes.set(entry.correlationId, { actionId: entry.actionId, created: entry.message.includes('created') });
  }
};

const records: Array<SQSRecord & { line: number }> = lines.map(({ text, line }) => ({
  line,
  messageId: randomUUID(),
  receiptHandle: 'local',
  body: text,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: 'local',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:action-requests',
  awsRegion: 'us-east-1',
}));

let failed = 0;
let created = 0;
let existed = 0;
// SQS hands the function batches of up to 10 records.
for (let i = 0; i < records.length; i += 10) {
  const batch = records.slice(i, i + 10);
  const result = await handler({ Records: batch } as SQSEvent, {} as never);
  const failures = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  for (const record of batch) {
    const outcome = outcomes.get(record.messageId);
    if (failures.has(record.messageId) || !outcome) {
      failed++;
      console.error(`line ${record.line}: rejected: ${JSON.stringify(rejections.get(record.messageId) ?? [])}`);
    } else if (outcome.created) {
      created++;
      console.log(`line ${record.line}: ${outcome.actionId} created`);
    } else {
      existed++;
      console.log(`line ${record.line}: ${outcome.actionId} already existed`);
    }
  }
}
console.log(
  `${created} created, ${existed} already existed, ${failed} rejected (of ${records.length} events), delivered to the stack at ${running.url} (DATA_DIR=${running.dataDir})`,
);
process.exit(failed > 0 ? 1 : 0);
