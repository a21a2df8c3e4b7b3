import { afterAll, describe, expect, it } from 'vitest';
import { call, expectProblem, newUser, type TestUser } from '../support/client';
import { firstAttemptAnswers, type Receiver, startReceiver } from '../support/receiver';

/**
 * "Fair to every subscriber" (contract section 9, issue 34): one caller's subscriptions to
 * receivers that hang, buried in redeliveries, never hold up another caller's ping or retry by
 * more than a sweep; redeliveries and pings are limited per subscription (429 with Retry-After).
 * Before the lanes, a pile like this one held another caller's ping for minutes.
 */

const receivers: Receiver[] = [];
const made: Array<{ user: TestUser; id: string }> = [];
afterAll(async () => {
  for (const { user, id } of made) await call('DELETE', `/api/webhooks/${id}`, { token: user.token });
  await Promise.all(receivers.map((r) => r.close()));
});

async function subscribe(user: TestUser, url: string, events = ['ActionEscalated']) {
  const reply = await call('POST', '/api/webhooks', { token: user.token, body: { url, events } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  made.push({ user, id: reply.body.id });
  return reply.body.id as string;
}

const ping = (user: TestUser, id: string) => call('POST', `/api/webhooks/${id}/ping`, { token: user.token });
const redeliver = (user: TestUser, id: string, deliveryId: string) =>
  call('POST', `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { token: user.token });

describe('fair webhook delivery', () => {
  it('a redelivery flood to hanging receivers by one caller holds up no other caller’s ping or retry', async () => {
    const hanging = await startReceiver(['hang']);
    receivers.push(hanging);
    const hostile = newUser('Hostile Caller');
    // Subscriptions to a receiver that never answers, each buried in as many redeliveries as it
    // may ask for: 150 attempts of 10 seconds, three times what the sweep used to run at once.
    const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => subscribe(hostile, `${hanging.url}/${i}`)));
    const replies = await Promise.all(
      ids.map(async (id) => {
        const first = await ping(hostile, id);
        expect(first.status).toBe(202);
        const statuses: number[] = [];
        for (let i = 0; i < 29; i++) statuses.push((await redeliver(hostile, id, first.body.deliveryId)).status);
        // The ping and 29 redeliveries are the most one subscription may ask for in 10 minutes.
        expect(statuses.every((s) => s === 202)).toBe(true);
        return { id, deliveryId: first.body.deliveryId as string };
      }),
    );
    // The pile is moving: the hanging receiver is being tried.
    await hanging.waitFor(() => true, 1, 10_000);

    // Another caller: its ping arrives within 10 seconds...
    const healthy = await startReceiver([200]);
    receivers.push(healthy);
    const other = newUser('Other Caller');
    const otherId = await subscribe(other, healthy.url);
    const pinged = Date.now();
    expect((await ping(other, otherId)).status).toBe(202);
    await healthy.waitFor((r) => r.json?.type === 'WebhookPing', 1, 10_000);
    expect(Date.now() - pinged).toBeLessThan(10_000);

    // ...and so does its retry (the stack retries after 1 second here).
    const flaky = await startReceiver([firstAttemptAnswers(500)]);
    receivers.push(flaky);
    const flakyId = await subscribe(other, flaky.url);
    const sent = Date.now();
    expect((await ping(other, flakyId)).status).toBe(202);
    const [failed, retried] = await flaky.waitFor((r) => r.json?.type === 'WebhookPing', 2, 10_000);
    expect(failed!.headers['webhook-id']).toBe(retried!.headers['webhook-id']);
    expect(retried!.at - sent).toBeLessThan(10_000);

    // One more redelivery of a buried subscription is refused.
    const past = await redeliver(hostile, replies[0]!.id, replies[0]!.deliveryId);
    expectProblem(past, 429);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('limits redeliveries and pings per subscription, not per caller', async () => {
    const hook = await startReceiver([200]);
    receivers.push(hook);
    const user = newUser();
    const [one, two] = [await subscribe(user, `${hook.url}/one`), await subscribe(user, `${hook.url}/two`)];
    const replies = await Promise.all(Array.from({ length: 31 }, () => ping(user, one)));
    const counted = replies.filter((r) => r.status === 202).length;
    expect(counted).toBeLessThanOrEqual(30);
    expect(counted).toBeGreaterThanOrEqual(20);
    const past = await ping(user, one);
    expectProblem(past, 429);
    expect(past.body.detail).toMatch(/30 redeliveries and pings/);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(500);
    // The caller's other subscription is not affected.
    expect((await ping(user, two)).status).toBe(202);
  }, 120_000);
});
