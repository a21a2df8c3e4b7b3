import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as createHandler } from '../../functions/createAction';
import { handler as listHandler } from '../../functions/listActions';
import { localEnvironment } from '../../infra/local/stack';
import { logSink } from '../../lib/logger';
import { apiEvent } from '../support/api-event';
import { actionBody, dataDir, newUser, uniqueProducer } from '../support/client';

/**
 * Issue 8: every log line of a request carries its correlation id, and no line carries the
 * bearer token or the caller's personal data (only the caller id). Runs the real handler
 * modules in this process so their log lines can be read.
 */

type Handler = (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
const lines: string[] = [];
const create = createHandler as unknown as Handler;
const list = listHandler as unknown as Handler;

beforeAll(async () => {
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'debug' });
  logSink.write = (line) => lines.push(line);
});

const event = (method: string, path: string, token: string, correlationId: string, body?: unknown) =>
  apiEvent(method, path, { token, body, headers: { 'x-correlation-id': correlationId } });

describe('structured logs', () => {
  it('tag every line with the request correlation id and never log the token or personal data', async () => {
    const ann = newUser('Annabel Secretname');
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    lines.length = 0;
    // Concurrent requests in one process must not swap correlation ids.
    const replies = await Promise.all([
      create(event('POST', '/api/actions', ann.token, ids[0] as string, actionBody(uniqueProducer('logs'))), {}),
      list(event('GET', '/api/actions', ann.token, ids[1] as string), {}),
      list(event('GET', '/api/actions', 'not-a-token', ids[2] as string), {}),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([201, 200, 401]);

    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const id of ids) {
      const mine = entries.filter((e) => e.correlationId === id);
      expect(mine.length, `lines for ${id}`).toBeGreaterThan(0);
      expect(mine.some((e) => e.message === 'request completed')).toBe(true);
    }
    expect(entries.every((e) => ids.includes(e.correlationId))).toBe(true);
    const authenticated = entries.filter((e) => e.correlationId !== ids[2]);
    expect(authenticated.every((e) => e.callerId === ann.id)).toBe(true);
    const everything = lines.join('\n');
    expect(everything).not.toContain(ann.token);
    expect(everything).not.toContain(ann.token.split('.')[2]);
    expect(everything).not.toContain('Annabel');
    expect(everything).not.toContain(ann.email);
  });

  it('take a correlation id only when it is short and plain; any other gets a fresh one', async () => {
    const ann = newUser('Ann');
    const hostile = [
      'x'.repeat(8000),
      'forged\n{"level":"error","message":"injected"}',
      'a'.repeat(129),
      '{"callerId":"someone-else"}',
    ];
    for (const sent of hostile) {
      lines.length = 0;
      const reply = await list(event('GET', '/api/actions', ann.token, sent), {});
      expect(reply.statusCode).toBe(200);
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries.length).toBeGreaterThan(0);
      const used = entries[0].correlationId as string;
      expect(used).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(entries.every((e) => e.correlationId === used)).toBe(true);
      expect(reply.headers?.['x-correlation-id']).toBe(used);
      expect(lines.join('\n')).not.toContain(sent.slice(0, 50));
    }
  });
});
