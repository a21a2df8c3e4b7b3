import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import { createServer, globalAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as listHandler } from '../../functions/listActions';
import { localEnvironment } from '../../infra/local/stack';
import { apiEvent } from '../support/api-event';
import { dataDir, issuerFiles, newUser } from '../support/client';

/**
 * Issue 7: when the user pool's keys cannot be fetched, requests get a 503 with Retry-After (or a
 * 401), promptly, never a hang; once the key server answers again, the service recovers by itself.
 * The handler runs as in AWS (no JWKS_FILE), with JWKS_URI pointing at a key server we control.
 */

type Handler = (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
type Mode = 'hang' | 'error' | 'serve';

let mode: Mode = 'hang';
let server: Server;
const hanging: ServerResponse[] = [];
const list = listHandler as unknown as Handler;

beforeAll(async () => {
  // A key server on loopback with a test certificate, trusted only by this test process.
  const tls = { key: readFileSync('test/support/tls/key.pem'), cert: readFileSync('test/support/tls/cert.pem') };
  globalAgent.options.ca = tls.cert;
  server = createServer(tls, (_request, response) => {
    if (mode === 'hang') hanging.push(response);
    else if (mode === 'error') response.writeHead(500).end('no');
    else response.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(issuerFiles().jwksFile));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { JWKS_FILE: _localKeys, ...environment } = localEnvironment(dataDir(), inject('storeEndpoint'));
  Object.assign(process.env, environment, {
    JWKS_URI: `https://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    LOG_LEVEL: 'silent',
  });
  delete process.env.JWKS_FILE;
});

afterAll(async () => {
  for (const response of hanging) response.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const event = (token: string) => apiEvent('GET', '/api/actions?limit=1', { token });

async function timed(token: string) {
  const started = Date.now();
  const reply = await list(event(token), {});
  return { reply, ms: Date.now() - started };
}

describe('a JWKS that cannot be fetched', () => {
  it('answers 503 with Retry-After well inside the function timeout, then recovers by itself', async () => {
    const { token } = newUser();

    mode = 'hang';
    const hung = await timed(token);
    expect(hung.reply.statusCode).toBe(503);
    expect(hung.reply.headers?.['retry-after']).toBeDefined();
    expect(hung.ms).toBeLessThan(8_000);

    mode = 'error';
    // Inside the back-off after a failure, no fetch is tried: still a prompt 503.
    const refused = await timed(token);
    expect(refused.reply.statusCode).toBe(503);
    expect(refused.ms).toBeLessThan(8_000);
    expect(String(refused.reply.body)).not.toMatch(/jwks|fetch|127\.0\.0\.1/i);

    mode = 'serve';
    await new Promise((r) => setTimeout(r, 5_500));
    const recovered = await timed(token);
    expect(recovered.reply.statusCode).toBe(200);
  }, 30_000);
});
