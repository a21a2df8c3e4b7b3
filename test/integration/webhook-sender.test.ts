import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ADDRESS_NOT_ALLOWED, attempt } from '../../lib/webhooks/send';
import { type Behaviour, type Receiver, startReceiver } from '../support/receiver';

/**
 * One attempt of a delivery (lib/webhooks/send.ts) against real receivers on 127.0.0.1: what a
 * hostile receiver costs, and the private-address guard where it matters, on the address
 * actually connected to. (The subscribe-time 400s are in webhooks-local-stack.test.ts.)
 */

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
const receiver = async (...answers: Behaviour[]) => {
  const started = await startReceiver(answers);
  receivers.push(started);
  return started;
};

/** A resolver that answers every name with 127.0.0.1, as a rebinding DNS server would. */
const toLoopback = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const address: LookupAddress = { address: '127.0.0.1', family: 4 };
  if (options.all) callback(null, [address]);
  else callback(null, address.address, address.family);
}) as never;

const send = (url: string, options: { allowPrivate: boolean; lookup?: never; timeoutMs?: number }) =>
  attempt({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 10_000, ...options });

describe('one attempt', () => {
  it('refuses, sending nothing, a name that resolves to 127.0.0.1 when private addresses are not allowed', async () => {
    const hook = await receiver(200);
    const port = hook.port;
    for (const url of [`https://hooks.example.com:${port}/`, `http://hooks.example.com:${port}/`]) {
      // http:// is refused for its scheme first; https:// by the lookup on the address it would connect to.
      const result = await send(url, { allowPrivate: false, lookup: toLoopback });
      expect(result.error).toBe(ADDRESS_NOT_ALLOWED);
    }
    // The real resolver: `localhost` is 127.0.0.1 (and ::1).
    expect((await send(`https://localhost:${port}/`, { allowPrivate: false })).error).toBe(ADDRESS_NOT_ALLOWED);
    // A literal, which Node connects to without any lookup.
    expect((await send(`https://127.0.0.1:${port}/`, { allowPrivate: false })).error).toBe(ADDRESS_NOT_ALLOWED);
    expect((await send(`https://[::ffff:127.0.0.1]:${port}/`, { allowPrivate: false })).error).toBe(
      ADDRESS_NOT_ALLOWED,
    );
    expect(hook.received).toEqual([]);
    // With the switch on, the same name reaches the receiver.
    expect(await send(`http://hooks.example.com:${port}/`, { allowPrivate: true, lookup: toLoopback })).toMatchObject({
      responseStatus: 200,
    });
    expect(hook.received).toHaveLength(1);
  });

  it('a receiver that answers a gigabyte, or never finishes, costs its status line and no more', async () => {
    const endless = await receiver('endless');
    const started = Date.now();
    const result = await send(endless.url, { allowPrivate: true });
    expect(result.responseStatus).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a receiver that hangs costs one 10-second attempt', async () => {
    const hanging = await receiver('hang');
    const result = await send(hanging.url, { allowPrivate: true, timeoutMs: 10_000 });
    expect(result.responseStatus).toBeUndefined();
    expect(result.error).toBe('timed out');
    expect(result.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(result.durationMs).toBeLessThan(11_000);
  }, 20_000);

  it('a redirect is an answer, never followed', async () => {
    const redirecting = await receiver(307);
    const result = await send(redirecting.url, { allowPrivate: true });
    expect(result.responseStatus).toBe(307);
    expect(redirecting.received).toHaveLength(1);
  });

  it('a refused connection is a failed attempt, not an exception', async () => {
    const closed = await receiver(200);
    await closed.close();
    expect((await send(closed.url, { allowPrivate: true })).error).toBe('connection failed');
  });

  it('says why an attempt failed in a few plain words, never a library code (a port prober learns nothing more)', async () => {
    const tls = { key: readFileSync('test/support/tls/key.pem'), cert: readFileSync('test/support/tls/cert.pem') };
    const server = createHttpsServer(tls, (_request, response) => response.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    try {
      // A certificate no authority signed for this name: TLS failed, whatever the reason.
      expect(await send(`https://127.0.0.1:${port}/`, { allowPrivate: true })).toMatchObject({ error: 'TLS failed' });
    } finally {
      server.close();
    }
    // A name that does not resolve reads like a closed port: nothing tells the two apart.
    const notFound = ((_name: string, _options: unknown, callback: (...args: unknown[]) => void) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))) as never;
    const missing = await send('https://nowhere.example.com/', { allowPrivate: false, lookup: notFound });
    expect(missing.error).toBe('connection failed');
    // An answer outside 2xx says its status.
    const failing = await receiver(503);
    expect(await send(failing.url, { allowPrivate: true })).toMatchObject({ responseStatus: 503, error: 'HTTP 503' });
    const ok = await receiver(204);
    expect((await send(ok.url, { allowPrivate: true })).error).toBeUndefined();
    const bad = await send('not a url', { allowPrivate: true });
    expect(['connection failed', 'address not allowed']).toContain(bad.error);
  });
});
