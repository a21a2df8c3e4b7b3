import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { inject } from 'vitest';
import { issueToken, type LocalUser } from '../../infra/local/issuer';

/** A tiny HTTP client for the local stack, and tokens from its issuer. */

export const apiUrl = () => inject('apiUrl');
export const dataDir = () => inject('dataDir');

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

export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(apiUrl() + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A person with a token; ids are unique per test run so tests never see each other's data. */
export function newUser(name = 'Test User') {
  const sub = randomUUID();
  const user = { sub, name, email: `${sub.slice(0, 8)}@example.com` };
  return { ...user, id: sub, token: tokenFor(user) };
}

/** A valid create body; `producer` scopes a test's actions so its filters see only its own. */
export function actionBody(producer: string, overrides: Record<string, unknown> = {}) {
  return {
    title: 'Replace worn conveyor belt',
    description: 'Belt shows fraying at splice',
    actionProducer: { name: producer, url: 'https://inspections.example.com/i/1' },
    location: {
      businessUnit: 'Iron Ore',
      site: 'North Pit',
      department: 'Maintenance',
      workGroup: 'Mechanical',
      productiveUnit: 'Crusher 2',
      team: 'Day',
      crew: 'A',
    },
    allowAnonymousEdits: false,
    dueAt: '2026-12-01T10:00:00Z',
    priority: '2',
    status: '1',
    attachments: [],
    ...overrides,
  };
}

export const uniqueProducer = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
