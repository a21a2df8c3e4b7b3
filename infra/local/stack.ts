import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { buildConsole } from '../../console/build';
import { handler as publishEvents } from '../../functions/publishEvents';
import { handler as runExports } from '../../functions/runExports';
import { handler as sweepDueDates } from '../../functions/sweepDueDates';
import { eventOf } from '../../lib/actions/events';
import { postingsTableOf } from '../../lib/config';
import { sendDigests } from '../../lib/notifications/digest-run';
import { notifyPeople } from '../../lib/notifications/notifier';
import { changesOf } from '../../lib/store/sync/stream';
import { consumeLocally } from '../../lib/transfer/export-queue';
import { acceptEvents } from '../../lib/webhooks/intake';
import { type Sweeper, startSweeper } from '../../lib/webhooks/sweeper';
import { createConsoleSite } from './console-site';
import { createGateway, preloadHandlers } from './gateway';
import { startImportWorker } from './imports';
import {
  ensureIssuer,
  ensurePrivateDirectory,
  type IssuerFiles,
  LOCAL_CLIENT_ID,
  LOCAL_REGION,
  LOCAL_USER_POOL_ID,
  writePrivateFile,
} from './issuer';
import { type LocalMail, startMail } from './mail';
import { sharedMemoryEngine } from './shared-engine';
import { createSignIn } from './sign-in';
import { startStorage, storageEnvironment } from './storage';
import { LOCAL_TABLE_NAME, type LocalStore, startStore, startTableOn } from './store';
import { type StreamReader, startStreamReader } from './stream-reader';

/**
 * The whole service on one machine: AWS's DynamoDB Local engine, the local token issuer, the
 * local gateway in front of the real handlers, and a stream reader that feeds the table's
 * change stream to the real event consumer. `npm start` runs it; the integration tests too.
 */

/** Where the store keeps its data: on disk under DATA_DIR (default), or in memory only. */
export type StoreKind = 'disk' | 'memory';

export interface StackOptions {
  dataDir: string;
  /** `STORE`: `memory` keeps the store in memory only. */
  store?: StoreKind;
  port?: number;
  host?: string;
  /**
   * Runs the due-date sweep every this many seconds, as the schedule does in AWS (`npm start`
   * passes REMINDER_INTERVAL_SECONDS). Unset: no sweep, so the shared test stack leaves versions alone.
   */
  sweepEverySeconds?: number;
  /** How long the ID tokens of the console's sign-in last (default an hour, as Cognito's); tests shorten it to see refreshes. */
  idTokenSeconds?: number;
  /** `ACCESS`, `ADMIN_GROUP` and `ACCESS_CACHE_SECONDS` (docs/access.md); unset: the environment's, else the defaults. */
  access?: { mode?: 'open' | 'scoped'; adminGroup?: string; cacheSeconds?: number };
  /**
   * Reads the table's change stream into the event consumer (events, webhooks, trend counters).
   * @default true; a benchmark that bulk-loads data it only lists turns it off, as the reader
   * would count the trends of every loaded action beside the load.
   */
  events?: boolean;
}

export interface LocalStack {
  url: string;
  storeEndpoint: string;
  /** `actions`, or a name of its own on an engine memory stores share (`shared-engine.ts`). */
  tableName: string;
  dataDir: string;
  issuer: IssuerFiles;
  eventsFile: string;
  /** The local SES stand-in: `GET <mail>/store` lists every email sent. */
  mail: string;
  close(): Promise<void>;
}

/** Where a running stack says how to reach it, so `seed`, `ingest` and `bench` use its store. */
export const stackFile = (dataDir: string) => join(dataDir, 'stack.json');

/** Environment the handlers read through `lib/config`, pointing at a local store. */
export function localEnvironment(
  dataDir: string,
  storeEndpoint: string,
  tableName = LOCAL_TABLE_NAME,
): Record<string, string> {
  const issuer = ensureIssuer(dataDir);
  return {
    TABLE_NAME: tableName,
    POSTINGS_TABLE_NAME: postingsTableOf(tableName),
    AWS_REGION: LOCAL_REGION,
    DYNAMODB_ENDPOINT: storeEndpoint,
    USER_POOL_ID: LOCAL_USER_POOL_ID,
    USER_POOL_CLIENT_ID: LOCAL_CLIENT_ID,
    JWKS_FILE: issuer.jwksFile,
    EVENTS_FILE: join(dataDir, 'events.ndjson'),
    // Local receivers listen on 127.0.0.1 over plain HTTP; a deployment never allows either.
    WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE || 'true',
    // The local engine is one process that serves every request of the stack; a burst of a few
    // hundred transactions queues for seconds, which DynamoDB never does. A longer timeout keeps
    // such a burst from turning into 503s.
    STORE_TIMEOUT_MS: process.env.STORE_TIMEOUT_MS || '15000',
    // Exports run in this process, handed over by a local queue as SQS hands them over in AWS.
    EXPORT_QUEUE: 'local',
  };
}

/** Section 14's settings from the options; what they leave out stays as the environment has it. */
const accessEnvironment = (access: StackOptions['access'] = {}): Record<string, string> => ({
  ...(access.mode ? { ACCESS: access.mode } : {}),
  ...(access.adminGroup ? { ADMIN_GROUP: access.adminGroup } : {}),
  ...(access.cacheSeconds !== undefined ? { ACCESS_CACHE_SECONDS: String(access.cacheSeconds) } : {}),
});

/** On disk under DATA_DIR; in memory, a JVM of its own or a table on the engine memory stores share. */
function openStore(kind: StoreKind, dataDir: string): Promise<LocalStore> {
  if (kind === 'disk') return startStore({ path: join(dataDir, 'dynamodb') });
  const engine = sharedMemoryEngine();
  return engine ? engine.then(startTableOn) : startStore();
}

/** Where the stream reader keeps its position, so a restart resumes where it stopped. */
export const streamPositionFile = (dataDir: string) => join(dataDir, 'stream-position.json');

export async function startLocalStack(options: StackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  ensurePrivateDirectory(dataDir);
  const issuer = ensureIssuer(dataDir);
  // The console and its sign-in, which CloudFront and Cognito serve in AWS; built before the
  // store starts, so a failed build leaves nothing running.
  // The console is told where storage is (its CSP and uploads name that origin) once storage starts.
  let storageEndpoint: string | undefined;
  const site = createConsoleSite(await buildConsole(), { storageOrigin: () => storageEndpoint });
  const signIn = createSignIn(issuer, options.idTokenSeconds);
  const store: LocalStore = await openStore(options.store ?? 'disk', dataDir);
  // The evidence bucket (contract section 15): on DATA_DIR/s3, or a temporary directory for a memory store.
  const storage = await startStorage(options.store === 'memory' ? {} : { directory: join(dataDir, 's3') });
  storageEndpoint = storage.endpoint;
  Object.assign(
    process.env,
    localEnvironment(dataDir, store.endpoint, store.tableName),
    storageEnvironment(storage),
    accessEnvironment(options.access),
  );
  // Emails link to this stack's console (and its one-click unsubscribe), so its port is chosen now.
  // Port 0: the gateway binds a port now and keeps it (a port found free, closed and bound later
  // could be taken in between by another process: a test stack beside others met EADDRINUSE).
  const server = createGateway(
    async (request, response) => site.handle(request, response) || signIn.handle(request, response),
  );
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 3000;
  if (options.port === 0) {
    server.listen(0, host);
    try {
      await once(server, 'listening');
    } catch (error) {
      await store.close();
      await storage.close();
      throw error;
    }
    port = (server.address() as AddressInfo).port;
  }
  const mail: LocalMail = await startMail();
  Object.assign(process.env, mail.environment, { CONSOLE_URL: `http://127.0.0.1:${port}` });

  await preloadHandlers();
  // Webhooks as in AWS: the published events become deliveries whose first attempts run at once,
  // and a sweep every second runs the attempts due (retries, redeliveries, pings).
  const sweeper: Sweeper = startSweeper();
  const reader: StreamReader =
    options.events === false
      ? { stop: async () => {} }
      : startStreamReader({
          endpoint: store.endpoint,
          tableName: store.tableName,
          positionFile: streamPositionFile(dataDir),
          consumer: (event) => publishAndDeliver(event, sweeper),
          onError: (error) => console.error('local stream reader:', error instanceof Error ? error.message : error),
        });
  try {
    if (options.port !== 0) {
      server.listen(port, host);
      await once(server, 'listening');
    }
  } catch (error) {
    // A busy port: leave nothing running behind the error.
    await reader.stop();
    await sweeper.stop();
    await mail.close();
    await store.close();
    await storage.close();
    throw error;
  }
  const dueDates = options.sweepEverySeconds ? startDueDateSweeper(options.sweepEverySeconds) : undefined;
  const imports = startImportWorker();
  const exportWorker = consumeLocally((event) => runExports(event, {} as never));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writePrivateFile(
    stackFile(dataDir),
    JSON.stringify({ pid: process.pid, url, storeEndpoint: store.endpoint, mail: mail.url, s3: storage.endpoint }),
  );

  return {
    url,
    storeEndpoint: store.endpoint,
    tableName: store.tableName,
    dataDir,
    issuer,
    eventsFile: join(dataDir, 'events.ndjson'),
    mail: mail.url,
    close: async () => {
      // No new requests, then the background work stops (each finishing what it started), then
      // what it used: side by side where they do not depend on each other, so a loaded machine
      // waits for the slowest, not the sum.
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      // The reader hands events to the delivery sweeper, so it stops first.
      await Promise.all([
        dueDates?.stop(),
        imports.stop(),
        exportWorker.stop(),
        reader.stop().then(() => sweeper.stop()),
      ]);
      await Promise.all([mail.close(), store.close(), storage.close()]);
      rmSync(stackFile(dataDir), { force: true });
    },
  };
}

/**
 * Calls the sweep function on its interval, one run at a time (a run that takes longer than the
 * interval delays the next; overlapping runs would be safe, only wasteful).
 */
function startDueDateSweeper(seconds: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= sweepDueDates(undefined, {} as never)
      .then(() => sendDigests())
      .catch((error: unknown) => console.error('local sweep:', error instanceof Error ? error.message : error))
      .finally(() => {
        running = undefined;
      });
  }, seconds * 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * What the stream's consumers do in AWS, in one step: publish the events (the bus there, the
 * events file here), then hand the same events to webhook delivery, as the rule on the bus does.
 * The position moves on only once the deliveries are stored; a batch that fails comes back, and
 * storing its deliveries again changes nothing.
 */
async function publishAndDeliver(event: DynamoDBStreamEvent, sweeper: Sweeper) {
  const answer = await publishEvents(event, {} as never);
  const failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
  const failedAt = event.Records.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
  const published = failed === undefined ? event.Records : event.Records.slice(0, Math.max(0, failedAt));
  try {
    const events = changesOf(published).map((change) => eventOf(change.entry));
    sweeper.run(await acceptEvents(events));
    // People are told from the same events, as the notifier's rule on the bus does in AWS.
    if ((await notifyPeople(events)).failed.length > 0) throw new Error('some notifications failed; they come again');
  } catch (error) {
    console.error('local webhooks:', error instanceof Error ? error.message : error);
    const first = published[0]?.dynamodb?.SequenceNumber;
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
  return answer;
}

/** The store endpoint of a stack running on `dataDir`, if one is. */
export async function runningStack(dataDir: string): Promise<{ url: string; storeEndpoint: string } | undefined> {
  const file = stackFile(resolve(dataDir));
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string; storeEndpoint: string };
    process.kill(info.pid, 0);
    const response = await fetch(info.storeEndpoint, { method: 'GET' }).catch(() => undefined);
    return response ? info : undefined;
  } catch {
    return undefined;
  }
}
