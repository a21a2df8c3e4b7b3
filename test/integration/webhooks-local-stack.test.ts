import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIssuer, issueToken } from '../../infra/local/issuer';
import { freePort } from '../../infra/local/store';
import { actionBody, call, create, expectProblem } from '../support/client';
import { npmStart, npmStop, type Running } from '../support/npm-start';
import { firstAttemptAnswers, type Receiver, startReceiver } from '../support/receiver';

/**
 * Webhooks on `npm start` itself, as a child process: with WEBHOOKS_ALLOW_PRIVATE=false every
 * private-address form of the contract is a 400 when subscribing; and a retry that is due while
 * the stack is down still leaves on time once it is back (the attempts due are in the table).
 */

const dirs: string[] = [];
const running: Running[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of running) await npmStop(r);
  await Promise.all(receivers.map((r) => r.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'actions-webhooks-'));
  dirs.push(dir);
  return dir;
};
const tokenFor = (dir: string) =>
  issueToken(ensureIssuer(dir), { sub: 'hook-owner', name: 'Hook Owner', email: 'hook@example.com' });

describe('npm start and webhooks', () => {
  it('with WEBHOOKS_ALLOW_PRIVATE=false refuses every private, loopback, link-local and metadata host', async () => {
    const dir = dataDir();
    const stack = await npmStart(dir, await freePort(), { WEBHOOKS_ALLOW_PRIVATE: 'false', STORE: 'memory' });
    running.push(stack);
    expect(stack.output()).toMatch(/Webhooks: public https URLs only \(WEBHOOKS_ALLOW_PRIVATE=false/);
    const token = tokenFor(dir);
    for (const url of [
      'https://127.0.0.1/',
      'https://127.1/',
      'https://2130706433/',
      'https://0x7f.0.0.1/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.0.10/',
      'https://169.254.169.254/latest/meta-data/',
      'https://0.0.0.0/',
      'https://[::1]/',
      'https://[::]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[fc00::1]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://localhost/',
      'https://localhost./',
      'https://app.localhost/',
      'https://metadata.google.internal/',
      'http://hooks.example.com/',
    ]) {
      const reply = await call('POST', '/api/webhooks', { token, body: { url }, baseUrl: stack.url });
      expectProblem(reply, 400, { field: 'url' });
    }
    const allowed = await call('POST', '/api/webhooks', {
      token,
      body: { url: 'https://hooks.example.com/' },
      baseUrl: stack.url,
    });
    expect(allowed.status).toBe(201);
    await npmStop(stack);
  }, 120_000);

  describe('on a store on disk, restarted', () => {
    const RETRY_SECONDS = 30;
    // Left unset, so the local stack allows private addresses itself (the receiver is on 127.0.0.1).
    const env = { WEBHOOK_RETRY_SECONDS: String(RETRY_SECONDS), WEBHOOKS_ALLOW_PRIVATE: '' };
    let dir: string;
    let first: Running;
    // One `npm start` serves both tests: starting one costs seconds of a busy machine.
    beforeAll(async () => {
      dir = dataDir();
      first = await npmStart(dir, await freePort(), env);
      running.push(first);
    }, 120_000);

    it('says when it allows private addresses itself', () => {
      expect(first.output()).toMatch(/WEBHOOKS_ALLOW_PRIVATE=true, set by the local stack/);
    });

    it('a retry due while the stack is down leaves on time after a restart', async () => {
      // The first attempt is answered only after 1.5 s, and the stack is stopped while it waits:
      // a stop that cut the attempt's bookkeeping off would leave its retry to the lease (60 s).
      const ANSWER_AFTER_MS = 1_500;
      const hook = await startReceiver([firstAttemptAnswers(500, { delayMs: ANSWER_AFTER_MS })]);
      receivers.push(hook);
      const token = tokenFor(dir);
      const subscription = await call('POST', '/api/webhooks', {
        token,
        body: { url: hook.url, events: ['ActionCreated'] },
        baseUrl: first.url,
      });
      expect(subscription.status).toBe(201);
      const id = await create(token, actionBody('restart-hooks'), first.url);
      const [failed] = await hook.waitFor((r) => r.json?.data?.id === id);
      await npmStop(first);

      const second = await npmStart(dir, await freePort(), env);
      const backAt = Date.now();
      running.push(second);
      const [, retried] = await hook.waitFor((r) => r.json?.data?.id === id, 2, 60_000);
      const dueAt = failed!.at + ANSWER_AFTER_MS + RETRY_SECONDS * 1000;
      console.log(
        `retry after the restart: ${(retried!.at - failed!.at) / 1000} s after the first attempt (due after ${RETRY_SECONDS} s; the stack was back after ${(backAt - failed!.at) / 1000} s)`,
      );
      // On time: not before it was due, and within the sweep's second (plus a slow machine's margin)
      // of when it was due or, if the restart took longer than that, of the stack being back. Late
      // by the attempt's lease (60 s) would mean the stop cut off the first attempt's bookkeeping.
      expect(retried!.at - dueAt).toBeGreaterThanOrEqual(-100);
      expect(retried!.at - Math.max(dueAt, backAt)).toBeLessThan(3_000);
      expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
      const headers = Object.fromEntries(Object.entries(retried!.headers).map(([k, v]) => [k, String(v)]));
      expect(() => new Webhook(subscription.body.secret).verify(retried!.body, headers)).not.toThrow();
      await npmStop(second);
    }, 180_000);
  });
});
