import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { issueToken, type LocalUser } from '../../infra/local/issuer';
import type { LocalStack } from '../../infra/local/stack';

/** A tiny HTTP client for the local stack, and tokens from its issuer. */

/** The stack of this file, when it asked for one of its own (`useOwnStack`). */
let own: LocalStack | undefined;

export const apiUrl = () => own?.url ?? inject('apiUrl');
export const dataDir = () => own?.dataDir ?? inject('dataDir');

/**
 * Integration files run in parallel against the shared stack, each seeing only its own users and
 * producers. A file whose subject is the whole stack (the change feed every write joins, webhook
 * subscriptions that hear every event) calls this at its top level instead: from its `beforeAll`
 * on, every helper here talks to a stack of its own (its own table, with its own stream, on the
 * file's DynamoDB Local: test/support/file-engine.ts), started once for the file, with the
 * settings `environment` adds. Its issuer keys are the shared stack's, so users made before it
 * started still sign in.
 */
export function useOwnStack(environment: Record<string, string> = {}): void {
  beforeAll(async () => {
    own = await startOwnStack(environment);
  }, 120_000);
  afterAll(async () => {
    const stack = own;
    own = undefined;
    await stack?.close();
    if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
  });
}

/**
 * A stack in this file's process, on a memory store, with the shared stack's issuer keys (so the
 * same tokens sign in) and the settings `environment` adds (read once, when it starts). The
 * caller closes it and removes its `dataDir`.
 */
export async function startOwnStack(environment: Record<string, string> = {}): Promise<LocalStack> {
  const dir = mkdtempSync(join(tmpdir(), 'actions-own-stack-'));
  for (const file of ['issuer-key.json', 'jwks.json']) copyFileSync(join(inject('dataDir'), file), join(dir, file));
  Object.assign(process.env, environment);
  // Loaded here, not at the top: only the few files that ask for a stack of their own pay for it.
  const { startLocalStack } = await import('../../infra/local/stack');
  return startLocalStack({ dataDir: dir, store: 'memory', port: 0 });
}

const issuer = () => ({
  privateKeyFile: join(dataDir(), 'issuer-key.json'),
  jwksFile: join(dataDir(), 'jwks.json'),
});

export const tokenFor = (user: LocalUser, expiresInSeconds?: number) => issueToken(issuer(), user, expiresInSeconds);
export const issuerFiles = issuer;

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Another server than the shared stack (the restart test runs its own). */
  baseUrl?: string;
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch((options.baseUrl ?? apiUrl()) + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface TestUser {
  id: string;
  sub: string;
  name: string;
  email: string;
  token: string;
}

/** A person with a token; ids are unique per test run so tests never see each other's data. */
export function newUser(name = 'Test User', sub: string = randomUUID()): TestUser {
  const user = { sub, name, email: `${sub.slice(0, 8).toLowerCase()}@example.com` };
  return { ...user, id: sub, token: tokenFor(user) };
}

/** A valid create body; `producer` scopes a test's actions so its filters see only its own. */
/** A whole location at a business unit's site: the fields below the site those of `actionBody`. */
export const locationAt = (businessUnit: string, site: string, crew = 'A') => ({
  businessUnit,
  site,
  department: 'Maintenance',
  workGroup: 'Mechanical',
  productiveUnit: 'Crusher 2',
  team: 'Day',
  crew,
});

export function actionBody(producer: string, overrides: Record<string, unknown> = {}) {
  return {
    title: 'Replace worn conveyor belt',
    description: 'Belt shows fraying at splice',
    actionProducer: { name: producer, url: 'https://inspections.example.com/i/1' },
    location: locationAt('Iron Ore', 'North Pit'),
    allowAnonymousEdits: false,
    dueAt: '2036-12-01T10:00:00Z',
    priority: '2',
    status: '1',
    attachments: [],
    ...overrides,
  };
}

export const uniqueProducer = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** Creates an action and returns its id, failing the test unless the answer is 201. */
export async function create(token: string, body: unknown, baseUrl?: string): Promise<string> {
  const reply = await call('POST', '/api/actions', { token, body, baseUrl });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

/** Lists with a raw query string (the caller encodes it); fails the test unless the answer is 200. */
export async function list(token: string, query: string, baseUrl?: string) {
  const reply = await call<{ actions: any[]; totalCount: number; nextCursor?: string }>(
    'GET',
    `/api/actions?${query}`,
    { token, baseUrl },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** Reads one action; fails the test unless the answer is 200. */
export async function getOne(token: string, id: string) {
  const reply = await call('GET', `/api/actions/${id}`, { token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply;
}

/** `name=value` with the value percent-encoded the way any query-string builder would. */
export const q = (name: string, value: string | number) => `${name}=${encodeURIComponent(String(value))}`;

/** Asserts a problem+json answer with `status`, and (when given) an error naming `key`. */
export function expectProblem(reply: Reply, status: number, name?: { parameter: string } | { field: string }): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(reply.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String) });
  expect(typeof reply.body.detail).toBe('string');
  if (name) {
    const [key, value] = Object.entries(name)[0] as [string, string];
    const named = (reply.body.errors ?? []).map((e: Record<string, string>) => e[key]);
    expect(named, JSON.stringify(reply.body)).toContain(value);
  }
}

/** Every event the local stack has published so far (`$DATA_DIR/events.ndjson`). */
export function publishedEvents(): any[] {
  const file = join(dataDir(), 'events.ndjson');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * Waits until at least `count` published events pass `filter` (events leave from the table's
 * stream, a moment after the write), then returns those events; fails after `timeoutMs`.
 */
export async function waitForEvents(filter: (event: any) => boolean, count: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = publishedEvents().filter(filter);
    if (found.length >= count) return found;
    if (Date.now() > deadline) {
      throw new Error(`only ${found.length} of ${count} events were published within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
