import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandLine } from '../infra/command-line';
import { ensureIssuer, issueToken } from '../infra/local/issuer';
import { progress } from '../infra/local/progress';
import { startLocalStack } from '../infra/local/stack';
import { logSink } from '../lib/logger';

/**
 * `npm run load [-- --duration 30 --connections 50 --url http://127.0.0.1:3000]`: drives the
 * service with autocannon, creates and lists mixed, and checks what a load test can prove:
 * no answer but 2xx, and no lost (or phantom) write: the run's own producer ends with exactly
 * as many actions as the run got 201s. Without `--url` it starts its own local stack (memory
 * store) in this process, so the generator and the server share its CPU.
 */

/** The little of autocannon's API used here (the package ships no types). */
interface AutocannonRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string) => void;
}
interface AutocannonResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number; max: number; average: number };
  statusCodeStats: Record<string, { count: number }>;
  non2xx: number;
  errors: number;
  timeouts: number;
  resets: number;
  duration: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests: AutocannonRequest[];
  timeout?: number;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadOptions {
  /** The server, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** A bearer token the server accepts. */
  token: string;
  /** Seconds of load. */
  duration: number;
  connections: number;
  /**
   * No create is sent in this many final milliseconds, so none is cut off when the run stops
   * (default: a third of the run, between 1 and 3 s).
   */
  drainMs?: number;
  /** Told of every answer (for a progress line). */
  onAnswer?: () => void;
}

export interface LoadResult {
  producer: string;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  createsSent: number;
  created: number;
  /** Creates sent but not answered when the run stopped: each may or may not be stored. */
  inFlight: number;
  /** The producer's totalCount once the run is over. */
  stored: number;
  lostWrites: number;
  phantomWrites: number;
  /** Empty when the run passed. */
  failures: string[];
}

/** Runs the load and checks it; never throws for a failed check, it reports it in `failures`. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const producer = `load-${randomUUID().slice(0, 8)}`;
  const auth = { authorization: `Bearer ${options.token}` };
  const listPath = `/api/actions?actionProducer.name=${encodeURIComponent(producer)}&limit=10`;
  const body = JSON.stringify({
    title: 'Inspect guard on conveyor 4',
    description: 'Raised by the load test',
    actionProducer: { name: producer, url: 'https://load.example.com/run' },
    location: { site: 'Load Site', department: 'Maintenance' },
    dueAt: '2027-01-01T00:00:00Z',
    priority: '2',
    status: '1',
    tags: ['load'],
  });
  const drainMs = options.drainMs ?? Math.min(3000, Math.max(1000, (options.duration * 1000) / 3));
  const stopCreatingAt = Date.now() + options.duration * 1000 - drainMs;
  const ids = new Set<string>();
  let createsSent = 0;
  let createAnswers = 0;

  const list: AutocannonRequest = {
    method: 'GET',
    path: listPath,
    headers: auth,
    onResponse: () => options.onAnswer?.(),
  };
  const create: AutocannonRequest = {
    method: 'POST',
    path: '/api/actions',
    headers: { ...auth, 'content-type': 'application/json' },
    body,
    setupRequest: (request) => {
      // Near the end, send a list instead, so no create is in flight when the run stops.
      if (Date.now() >= stopCreatingAt) return { ...list };
      createsSent++;
      return request;
    },
    onResponse: (status, text) => {
      options.onAnswer?.();
      if (status === 200) return; // a list sent in a create's place
      createAnswers++;
      if (status === 201) ids.add((JSON.parse(text) as { id: string }).id);
    },
  };

  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    timeout: 10,
    requests: [list, create],
  });

  const counted = await fetch(`${options.url}${listPath.replace('limit=10', 'limit=0')}`, { headers: auth });
  const stored = counted.ok ? ((await counted.json()) as { totalCount: number }).totalCount : Number.NaN;
  const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, { count }]) => [s, count]));
  const created = statusCounts['201'] ?? 0;
  const inFlight = Math.max(0, createsSent - createAnswers);

  const failures: string[] = [];
  if (result.non2xx > 0) failures.push(`${result.non2xx} answers were not 2xx: ${JSON.stringify(statusCounts)}`);
  if (result.errors > 0) failures.push(`${result.errors} requests failed (${result.timeouts} timed out)`);
  if (!counted.ok) failures.push(`the final count failed with HTTP ${counted.status}`);
  if (inFlight > 0) {
    failures.push(
      `${inFlight} creates were still in flight when the run stopped (no answer within the run; each may or may not be stored)`,
    );
  }
  if (ids.size !== created) failures.push(`${created} creates answered 201 but only ${ids.size} distinct ids`);
  if (stored < created) failures.push(`lost writes: ${created} creates answered 201 but ${stored} are stored`);
  // A create still in flight may have been stored; only more than those is a write nobody asked for.
  if (stored > created + inFlight) {
    failures.push(
      `phantom writes: ${stored} stored but only ${created} creates answered 201 (and ${inFlight} were in flight)`,
    );
  }
  if (created === 0) failures.push('no create succeeded');

  return {
    producer,
    seconds: result.duration,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    statusCounts,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    createsSent,
    created,
    inFlight,
    stored,
    lostWrites: Math.max(0, created - stored),
    phantomWrites: Math.max(0, stored - created - inFlight),
    failures,
  };
}

/** A receiver on 127.0.0.1 for `--webhooks`: counts each webhook-id and action id it was sent. */
interface LoadReceiver {
  name: string;
  url: string;
  /** webhook-id -> how many times it arrived; only ActionCreated of this run's actions. */
  byEventId: Map<string, number>;
  actionIds: Set<string>;
  /** How long each delivery took to arrive after its event, ms. */
  delaysMs: number[];
  lastAt: number;
  server: Server;
}

async function loadReceiver(name: string, answer: (respond: (status: number) => void) => void): Promise<LoadReceiver> {
  const receiver = {
    name,
    byEventId: new Map<string, number>(),
    actionIds: new Set<string>(),
    delaysMs: [] as number[],
    lastAt: 0,
  } as LoadReceiver;
  receiver.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp?: string; data?: { id?: string } };
      const eventId = String(request.headers['webhook-id']);
      if (!receiver.byEventId.has(eventId) && body.timestamp)
        receiver.delaysMs.push(Date.now() - Date.parse(body.timestamp));
      receiver.byEventId.set(eventId, (receiver.byEventId.get(eventId) ?? 0) + 1);
      if (body.data?.id) receiver.actionIds.add(body.data.id);
      receiver.lastAt = Date.now();
      answer((status) => response.writeHead(status).end());
    });
  });
  receiver.server.listen(0, '127.0.0.1');
  await once(receiver.server, 'listening');
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  return receiver;
}

export interface WebhookLoadResult {
  subscriptions: number;
  /** Subscriptions of a second caller to a receiver that never answers (`--hostile`). */
  hostileSubscriptions: number;
  healthyDeliveries: number;
  /** Median time from an event to its first arrival at the healthy receiver. */
  healthyP50Ms: number;
  /** Healthy deliveries over the time from the first create to the last delivery. */
  deliveriesPerSecond: number;
  repeats: number;
  missing: number;
  failures: string[];
}

/** Subscriptions a hostile caller makes with `--hostile`: as many as one caller may have. */
const HOSTILE_SUBSCRIPTIONS = 25;

/**
 * `--webhooks`: three subscriptions to ActionCreated during the load (a healthy receiver, one that
 * answers after 3 seconds, one that always answers 500). Afterwards every created action must
 * have reached the healthy receiver exactly once per event id. `hostileToken`: a second caller
 * also subscribes 25 times to every event (`*`), all to a receiver that never answers.
 */
export async function withWebhooks(
  options: LoadOptions,
  run: () => Promise<LoadResult>,
  hostileToken?: string,
): Promise<{ load: LoadResult; webhooks: WebhookLoadResult }> {
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  const healthy = await loadReceiver('healthy', (respond) => respond(200));
  const slow = await loadReceiver('slow', (respond) => setTimeout(() => respond(200), 3000));
  const failing = await loadReceiver('failing', (respond) => respond(500));
  const hanging = await loadReceiver('hanging', () => {});
  const receivers = [healthy, slow, failing, hanging];
  const ids: string[] = [];
  const hostileIds: string[] = [];
  const hostileHeaders = { authorization: `Bearer ${hostileToken}`, 'content-type': 'application/json' };
  try {
    for (let i = 0; hostileToken && i < HOSTILE_SUBSCRIPTIONS; i++) {
      const reply = await fetch(`${options.url}/api/webhooks`, {
        method: 'POST',
        headers: hostileHeaders,
        body: JSON.stringify({ url: `${hanging.url}/${i}`, events: ['*'], description: 'load: hostile' }),
      });
      if (reply.status !== 201) throw new Error(`subscribing failed with HTTP ${reply.status}: ${await reply.text()}`);
      hostileIds.push(((await reply.json()) as { id: string }).id);
    }
    for (const receiver of [healthy, slow, failing]) {
      const reply = await fetch(`${options.url}/api/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, events: ['ActionCreated'], description: `load: ${receiver.name}` }),
      });
      if (reply.status !== 201) throw new Error(`subscribing failed with HTTP ${reply.status}: ${await reply.text()}`);
      ids.push(((await reply.json()) as { id: string }).id);
    }
    const started = Date.now();
    const load = await run();
    // Wait for the deliveries to drain: every action of the run at the healthy receiver.
    const created = await createdIds(options, load.producer);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && [...created].some((id) => !healthy.actionIds.has(id))) {
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 2000)); // time for a repeat to show, if there were one
    const mine = [...healthy.byEventId.values()];
    const repeats = mine.filter((n) => n > 1).length;
    const missing = [...created].filter((id) => !healthy.actionIds.has(id)).length;
    const failures: string[] = [];
    if (repeats > 0) failures.push(`${repeats} event ids reached the healthy receiver more than once`);
    if (missing > 0) failures.push(`${missing} created actions never reached the healthy receiver`);
    const seconds = Math.max(0.001, (healthy.lastAt - started) / 1000);
    return {
      load,
      webhooks: {
        subscriptions: 3,
        hostileSubscriptions: hostileIds.length,
        healthyDeliveries: healthy.actionIds.size,
        healthyP50Ms: [...healthy.delaysMs].sort((a, b) => a - b)[Math.floor(healthy.delaysMs.length / 2)] ?? 0,
        deliveriesPerSecond: Math.round((healthy.actionIds.size / seconds) * 10) / 10,
        repeats,
        missing,
        failures,
      },
    };
  } finally {
    for (const id of ids) await fetch(`${options.url}/api/webhooks/${id}`, { method: 'DELETE', headers });
    for (const id of hostileIds)
      await fetch(`${options.url}/api/webhooks/${id}`, { method: 'DELETE', headers: hostileHeaders });
    for (const receiver of receivers) {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  }
}

/** Every action id of the run's producer. */
async function createdIds(options: LoadOptions, producer: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  do {
    const reply = await fetch(
      `${options.url}/api/actions?actionProducer.name=${encodeURIComponent(producer)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { authorization: `Bearer ${options.token}` } },
    );
    const page = (await reply.json()) as { actions: Array<{ id: string }>; nextCursor?: string };
    for (const action of page.actions) ids.add(action.id);
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

export function describeLoad(r: LoadResult, connections: number): string {
  return [
    `load: ${r.requests} requests in ${r.seconds} s over ${connections} connections: ${r.requestsPerSecond} req/s`,
    `latency: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    `status: ${JSON.stringify(r.statusCounts)}; non-2xx ${r.non2xx}; errors ${r.errors} (timeouts ${r.timeouts})`,
    `writes: ${r.created} x 201 of ${r.createsSent} creates (${r.inFlight} still in flight at the end); ${r.stored} stored for ${r.producer}; lost ${r.lostWrites}, phantom ${r.phantomWrites}`,
    r.failures.length === 0 ? 'PASS' : `FAIL:\n  ${r.failures.join('\n  ')}`,
  ].join('\n');
}

const USAGE = `usage: npm run load [-- --duration <seconds> --connections <n> --url <base url> --token-file <file> --webhooks [--hostile]]

Drives the service with autocannon (creates and lists mixed) for --duration seconds (default 30)
over --connections connections (default 50); fails on any non-2xx answer, any create still in
flight at the end, and any lost or phantom write. It says which stack it hits:
  without --url   a stack of its own, started in this process (memory store, a free port), so
                  the load generator and the server share the CPU; stopped at the end
  --url <url>     a running server, e.g. http://127.0.0.1:3000 (\`npm start\`); the token comes
                  from --token-file <file>, else the LOAD_TOKEN environment variable, else one
                  is made with the keys of DATA_DIR (default .data). A token is never printed.
On a terminal it prints its progress every few seconds.

--webhooks: also subscribes three receivers on 127.0.0.1 to ActionCreated (healthy, slow,
always 500), fails unless every created action reaches the healthy one exactly once per event
id, and reports deliveries per second and their median delay. The server must allow private
addresses (the local stack does).
--hostile (with --webhooks): a second caller also subscribes 25 times to every event, all to a
receiver that never answers; compare the healthy receiver's median delay with a run without it.
The second caller's token is made with the keys of the stack (or of DATA_DIR with --url).`;

async function main() {
  const { values } = commandLine(USAGE, {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    url: { type: 'string' },
    'token-file': { type: 'string' },
    webhooks: { type: 'boolean', default: false },
    hostile: { type: 'boolean', default: false },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!(duration > 0) || !Number.isInteger(connections) || connections < 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const user = { sub: `load-${randomUUID()}`, name: 'Load Tester', email: 'load@example.com' };

  const tokenFile = values['token-file'];
  if (tokenFile && !existsSync(tokenFile)) {
    console.error(`No such token file: ${tokenFile}`);
    process.exit(2);
  }
  let token = tokenFile ? readFileSync(tokenFile, 'utf8').trim() : process.env.LOAD_TOKEN || undefined;
  let url = values.url;
  let issuer: ReturnType<typeof ensureIssuer> | undefined;
  let close = async () => {};
  if (!url) {
    // Per-request access logs would cost more than the requests themselves.
    process.env.LOG_LEVEL ??= 'warn';
    // One caller makes every request here: the run measures the service, not the per-caller
    // quotas (npm run fairness measures those), so its own stack lifts them.
    process.env.RATE_LIMIT_REQUESTS ??= String(1_000_000_000);
    process.env.RATE_LIMIT_READS ??= String(1_000_000_000_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'actions-load-'));
    const stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
    url = stack.url;
    issuer = stack.issuer;
    token = issueToken(stack.issuer, user, 3600 + duration);
    close = async () => {
      // Requests the load gave up on may still run in the server; their errors while the store
      // stops are the shutdown, not the result, so they are not printed.
      logSink.write = () => {};
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
    console.log(`load: against a stack of its own on ${url} (memory store, in this process; stopped at the end)`);
  } else {
    console.log(`load: against ${url} (--url)`);
  }
  token ??= issueToken(ensureIssuer(process.env.DATA_DIR || '.data'), user, 3600 + duration);
  const hostile = { sub: `load-hostile-${randomUUID()}`, name: 'Hostile Subscriber', email: 'hostile@example.com' };
  const hostileToken = values.hostile
    ? issueToken(issuer ?? ensureIssuer(process.env.DATA_DIR || '.data'), hostile, 3600 + duration)
    : undefined;

  const started = Date.now();
  const answers = progress('load', 'answers', undefined, () => {
    const elapsed = Math.min(duration, (Date.now() - started) / 1000);
    return `${Math.round(elapsed)} of ${duration} s`;
  });
  try {
    const options = { url, token, duration, connections, onAnswer: () => answers.tick() };
    if (values.webhooks) {
      const { load, webhooks } = await withWebhooks(options, () => runLoad(options), hostileToken);
      answers.finish();
      console.log(describeLoad(load, connections));
      console.log(
        `webhooks: ${webhooks.subscriptions} subscriptions (healthy, slow, failing)${webhooks.hostileSubscriptions ? ` beside ${webhooks.hostileSubscriptions} hostile ones (another caller, every event, a receiver that never answers)` : ''}; ${webhooks.healthyDeliveries} deliveries to the healthy receiver, ${webhooks.deliveriesPerSecond}/s, median delay ${webhooks.healthyP50Ms} ms; repeats ${webhooks.repeats}, missing ${webhooks.missing}`,
      );
      console.log(
        webhooks.failures.length === 0 ? 'webhooks PASS' : `webhooks FAIL:\n  ${webhooks.failures.join('\n  ')}`,
      );
      process.exitCode = load.failures.length === 0 && webhooks.failures.length === 0 ? 0 : 1;
    } else {
      const result = await runLoad(options);
      answers.finish();
      console.log(describeLoad(result, connections));
      process.exitCode = result.failures.length === 0 ? 0 : 1;
    }
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
