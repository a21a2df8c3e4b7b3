import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { localEnvironment, runningStack } from './stack';
import { startStore } from './store';

/**
 * `npm run ingest -- <file.ndjson>`: delivers one `ActionRequested` event per line through the
 * same ingest handler AWS runs (as SQS records, the way the queue hands them over), against the
 * running local stack's store, or the store under DATA_DIR when no stack runs. Prints each
 * rejected line with its errors and exits 1 when there were any.
 */

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run ingest -- <file.ndjson>');
  process.exit(2);
}
const dataDir = resolve(process.env.DATA_DIR || '.data');
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .map((text, index) => ({ text: text.trim(), line: index + 1 }))
  .filter((l) => l.text !== '');

const running = await runningStack(dataDir);
const ownStore = running ? undefined : await startStore({ path: resolve(dataDir, 'store') });
Object.assign(process.env, localEnvironment(dataDir, running?.storeEndpoint ?? (ownStore?.endpoint as string)), {
  LOG_LEVEL: 'info',
});

// Loaded after the environment is set: the handler reads its configuration once.
const { logSink } = await import('../../lib/logger');
const { handler } = await import('../../functions/ingestActions');

const rejections = new Map<string, unknown[]>();
logSink.write = (text: string) => {
  const entry = JSON.parse(text) as { correlationId?: string; level: string; errors?: unknown[]; message: string };
  if (entry.correlationId && entry.level !== 'info') {
    rejections.set(entry.correlationId, entry.errors ?? [entry.message]);
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
// SQS hands the function batches of up to 10 records.
for (let i = 0; i < records.length; i += 10) {
  const batch = records.slice(i, i + 10);
  const result = await handler({ Records: batch } as SQSEvent, {} as never);
  for (const failure of result?.batchItemFailures ?? []) {
    const record = batch.find((r) => r.messageId === failure.itemIdentifier);
    failed++;
    console.error(`line ${record?.line}: rejected: ${JSON.stringify(rejections.get(failure.itemIdentifier) ?? [])}`);
  }
}
console.log(`${records.length - failed} accepted, ${failed} rejected (of ${records.length} events)`);
await ownStore?.close();
process.exit(failed > 0 ? 1 : 0);
