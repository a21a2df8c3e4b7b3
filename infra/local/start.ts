import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { getReminderSettings } from '../../lib/config';
import { commandLine, fail } from '../command-line';
import { dataDirectory, lockDataDir } from './cli';
import { issueToken } from './issuer';
import { type LocalStack, type StoreKind, startLocalStack } from './stack';
import { StoreStartError } from './store';

commandLine(
  `usage: npm start

Runs the whole service on http://127.0.0.1:$PORT: AWS's DynamoDB Local (Java 17+), the local
token issuer, the real handlers behind a local API gateway, and the stream reader that appends
every change event to $DATA_DIR/events.ndjson. Stop it with Ctrl-C (or SIGTERM).

  PORT       port to listen on (default 3000; 0 picks a free one)
  DATA_DIR   where the store, the issuer's keys and the events live (default .data)
  STORE      memory: keep the store in memory only (default: on disk under DATA_DIR)
  LOG_LEVEL  debug, info, warn, error or silent (default info)
  REMINDER_INTERVAL_SECONDS, DUE_SOON_HOURS, ESCALATE_AFTER_HOURS, CLOSED_STATUSES
             the due-date sweep (docs/operating.md, settings)
  WEBHOOKS_ALLOW_PRIVATE  true (the local default): webhooks may go to 127.0.0.1 and other
             private addresses, and to http:// URLs; false: only to public https URLs, as in AWS`,
  {},
);

const webhooksFromEnvironment = process.env.WEBHOOKS_ALLOW_PRIVATE;

const { dataDir, isDefault } = dataDirectory();
const store = (process.env.STORE || 'disk') as StoreKind;
if (!['disk', 'memory'].includes(store)) fail(`STORE must be memory (or unset for the disk store), not '${store}'.`);
const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, not '${process.env.PORT}'.`);

const portInUse = () =>
  fail(`Port ${port} is in use: stop what listens there, or start on another port, e.g. PORT=${port + 1} npm start.`);

// A refused start leaves nothing it did not find: the port is tried before anything is written,
// and whatever a start that fails later made in DATA_DIR (the directory itself, keys, a store)
// is removed again.
if (port !== 0) {
  const probe = createServer();
  const free = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
  if (!free) portInUse();
}
const found = existsSync(dataDir) ? new Set(readdirSync(dataDir)) : undefined;
const removeWhatThisMade = () => {
  if (!found) rmSync(dataDir, { recursive: true, force: true });
  else
    for (const entry of readdirSync(dataDir))
      if (!found.has(entry)) rmSync(join(dataDir, entry), { recursive: true, force: true });
};

let sweepEverySeconds = 0;
try {
  sweepEverySeconds = getReminderSettings().intervalSeconds;
} catch (error) {
  fail((error as Error).message);
}

mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const unlock = await lockDataDir(dataDir);
let stack: LocalStack;
try {
  stack = await startLocalStack({ dataDir, store, port, sweepEverySeconds });
} catch (error) {
  unlock();
  removeWhatThisMade();
  if ((error as { code?: string }).code === 'EADDRINUSE') portInUse();
  if (error instanceof StoreStartError) fail(error.message);
  fail(`npm start failed: ${error instanceof Error ? error.message : String(error)}`, 1);
}
const token = issueToken(stack.issuer, { sub: 'dev-user', name: 'Dev User', email: 'dev@example.com' });
const withDataDir = isDefault ? '' : `DATA_DIR=${dataDir} `;

console.log(`Action tracking service on ${stack.url}  (store: ${store === 'disk' ? `DynamoDB Local in ${dataDir}/dynamodb` : 'DynamoDB Local in memory'})
Console: ${stack.url}/  (sign in with any user id on the local sign-in page)
Docs:    ${stack.url}/docs
Events:  ${stack.eventsFile}  (every change, read from the table's stream)
Webhooks: ${
  process.env.WEBHOOKS_ALLOW_PRIVATE === 'true'
    ? `may go to private addresses and http:// URLs (WEBHOOKS_ALLOW_PRIVATE=true, ${webhooksFromEnvironment ? 'from the environment' : 'set by the local stack; WEBHOOKS_ALLOW_PRIVATE=false npm start to refuse them as AWS does'})`
    : 'public https URLs only (WEBHOOKS_ALLOW_PRIVATE=false, from the environment)'
}

Try it (token valid for one hour; more with: ${withDataDir}npm run --silent token -- --sub <id> --name <name>):

  curl -s -H "Authorization: Bearer ${token}" '${stack.url}/api/actions?limit=5'
`);

// Ctrl-C reaches this process directly and through npm: close once.
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // Each step is printed, so a stop that hangs or fails says where (a test's output shows it).
  const started = Date.now();
  console.log('Stopping...');
  stack.close().then(
    () => {
      unlock();
      console.log(`Stopped in ${Date.now() - started} ms.`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error('Could not stop cleanly:', error instanceof Error ? error.message : error);
      unlock();
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
