import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/errors';
import { type ApiEvent, api, json } from '../../../lib/http/edge';
import { MAX_BODY_BYTES } from '../../../lib/http/limits';

/**
 * The HTTP edge (lib/http/edge.ts) of a public route, which needs no token and no quota: what
 * it does to a request before the handler (body size, media type, UTF-8, JSON) and to whatever
 * the handler answers or throws, run as middy runs it, with no store and no network.
 */

beforeAll(() => {
  process.env.LOG_LEVEL = 'silent';
});

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const echo = api({ public: true, body: 'json' }).handler(async (event) => json(201, { got: event.body }));
const failing = (error: unknown) =>
  api({ public: true }).handler(async () => {
    throw error;
  });

const event = (over: Partial<ApiEvent> & { body?: string; isBase64Encoded?: boolean } = {}): ApiEvent =>
  ({
    rawPath: '/api/things',
    headers: { 'content-type': 'application/json' },
    requestContext: { requestId: 'req-1', http: { method: 'POST' } },
    isBase64Encoded: false,
    ...over,
  }) as unknown as ApiEvent;

const run = async (handler: typeof echo, e: ApiEvent): Promise<Answer & { problem: Record<string, unknown> }> => {
  const answer = (await handler(e, {} as Context)) as unknown as Answer;
  return { ...answer, problem: answer.body ? JSON.parse(answer.body) : {} };
};

describe('json', () => {
  it('is the status, the body and the headers, unserialized', () => {
    expect(json(200, { a: 1 }, { etag: '"1"' })).toEqual({ statusCode: 200, headers: { etag: '"1"' }, body: { a: 1 } });
    expect(json(204)).toEqual({ statusCode: 204, headers: {}, body: undefined });
  });
});

describe('the edge of a public route with a JSON body', () => {
  it('parses the body, serializes the answer and marks it JSON and never cached', async () => {
    const answer = await run(echo, event({ body: '{"title":"x"}' }));
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.problem).toEqual({ got: { title: 'x' } });
  });

  it('takes the media type case-insensitively, as RFC 9110 says', async () => {
    const answer = await run(
      echo,
      event({ body: '{}', headers: { 'content-type': 'Application/JSON; charset=utf-8' } }),
    );
    expect(answer.statusCode).toBe(201);
  });

  it('refuses a missing body, naming it (400)', async () => {
    const answer = await run(echo, event({ body: '' }));
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.stringify(answer.problem)).toContain('body');
  });

  it('refuses a body over the limit before parsing it (413), counting base64 bodies by their bytes', async () => {
    const big = `"${'a'.repeat(MAX_BODY_BYTES)}"`;
    expect((await run(echo, event({ body: big }))).statusCode).toBe(413);
    const justFits = Buffer.alloc(MAX_BODY_BYTES - 2, 'a');
    const encoded = Buffer.concat([Buffer.from('"'), justFits, Buffer.from('"')]).toString('base64');
    // Longer than the limit as base64 text, within it as bytes.
    expect(encoded.length).toBeGreaterThan(MAX_BODY_BYTES);
    expect((await run(echo, event({ body: encoded, isBase64Encoded: true }))).statusCode).toBe(201);
  });

  it("refuses another media type (415) and malformed JSON (400, not the parser library's 415)", async () => {
    expect((await run(echo, event({ body: 'a=1', headers: { 'content-type': 'text/plain' } }))).statusCode).toBe(415);
    const malformed = await run(echo, event({ body: '{"title":' }));
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.problem)).toContain('is not well-formed JSON');
  });

  it('refuses a body that is not UTF-8 rather than decode it into U+FFFD (400)', async () => {
    const latin1 = Buffer.from([0x22, 0xe9, 0x22]).toString('base64');
    const answer = await run(echo, event({ body: latin1, isBase64Encoded: true }));
    expect(answer.statusCode).toBe(400);
    expect(JSON.stringify(answer.problem)).toContain('is not valid UTF-8');
  });
});

describe('errors at the edge', () => {
  it('turns a domain error into its status as problem+json', async () => {
    const answer = await run(failing(new ValidationError([{ parameter: 'limit', message: 'must be 1-100' }])), event());
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.problem).toMatchObject({ status: 400, detail: 'limit: must be 1-100' });
  });

  it('answers anything else with a 500 that says nothing of it', async () => {
    const answer = await run(failing(new Error('secret table name in a stack trace')), event());
    expect(answer.statusCode).toBe(500);
    expect(answer.body).not.toContain('secret');
    expect(answer.problem).toMatchObject({ status: 500, title: 'Internal Server Error' });
  });
});

describe('the correlation id', () => {
  it('echoes a plain one the client sent, and replaces anything else with the request id', async () => {
    const plain = await run(
      echo,
      event({ body: '{}', headers: { 'content-type': 'application/json', 'x-correlation-id': 'abc-123' } }),
    );
    expect(plain.headers['x-correlation-id']).toBe('abc-123');
    const noisy = await run(
      echo,
      event({ body: '{}', headers: { 'content-type': 'application/json', 'x-correlation-id': 'a\nb'.repeat(100) } }),
    );
    expect(noisy.headers['x-correlation-id']).toBe('req-1');
    const failed = await run(failing(new Error('x')), event({ headers: { 'x-correlation-id': 'on-error' } }));
    expect(failed.headers['x-correlation-id']).toBe('on-error');
  });
});
