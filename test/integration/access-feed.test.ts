import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { actionBody, type CallOptions, call } from '../support/client';
import { type Receiver, startReceiver } from '../support/receiver';

/**
 * Contract section 14 on the change feed and webhooks, on a scoped stack of its own: a person
 * sees the entries of an action they could see before or after each change, so an action moved
 * into their sight (assigned to them) shows from that change on, and one moved out of it shows
 * the move and nothing after. Their webhook receives exactly the same events.
 */

let stack: LocalStack;
let dataDir: string;
let receiver: Receiver;

const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

const person = (label: string) => {
  const id = `${label}-${randomUUID().slice(0, 8)}`;
  return { id, name: label, token: issueToken(stack.issuer, { sub: id, name: label, email: `${id}@example.com` }) };
};

const place = (businessUnit: string, site: string) => ({ businessUnit, site });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-access-feed-'));
  process.env.LOG_LEVEL = 'silent';
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0, access: { mode: 'scoped', cacheSeconds: 1 } });
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every entry of the feed for `token`, from the beginning, once the settle window has passed. */
async function wholeFeed(token: string) {
  const entries: Array<{ actionId: string; version: number; type: string }> = [];
  let after: string | undefined;
  for (let page = 0; page < 50; page++) {
    const reply = await send('GET', `/api/changes?limit=1000${after ? `&after=${encodeURIComponent(after)}` : ''}`, {
      token,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    entries.push(...reply.body.entries);
    if (reply.body.entries.length === 0) break;
    after = reply.body.nextCursor;
  }
  return entries;
}

describe('the change feed and webhooks in scoped mode', () => {
  it('show a person exactly the changes of actions they could see before or after each change', async () => {
    const olga = person('olga');
    const sam = person('sam');
    const hook = await send('POST', '/api/webhooks', { token: sam.token, body: { url: receiver.url } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);

    const created = async (who: { token: string }, location: object) => {
      const reply = await send('POST', '/api/actions', { token: who.token, body: actionBody('feed', { location }) });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body.id as string;
    };
    const patch = async (id: string, body: object) => {
      const reply = await send('PATCH', `/api/actions/${id}`, { token: olga.token, body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    };
    const olgas = await created(olga, place('Iron Ore', 'North Pit')); // v1: not sam's
    const sams = await created(sam, place('Coal', 'East Pit')); // v1: sam's own
    await patch(olgas, { assignee: { id: sam.id, name: 'sam' } }); // v2: into sam's sight
    await patch(olgas, { title: 'still his' }); // v3: seen
    await patch(olgas, { assignee: { id: olga.id, name: 'olga' } }); // v4: out of sight: the move is seen
    await patch(olgas, { title: 'no longer his' }); // v5: not seen
    const expected = [`${sams}:1`, `${olgas}:2`, `${olgas}:3`, `${olgas}:4`].sort();

    // The feed shows entries once they are 10 s old (its settle window).
    await new Promise((resolve) => setTimeout(resolve, 11_500));
    const mine = (entries: Array<{ actionId: string; version: number }>) =>
      entries
        .filter((e) => e.actionId === olgas || e.actionId === sams)
        .map((e) => `${e.actionId}:${e.version}`)
        .sort();
    expect(mine(await wholeFeed(sam.token))).toEqual(expected);
    // Olga sees all of her own action's entries, and none of Sam's.
    expect(mine(await wholeFeed(olga.token))).toEqual([1, 2, 3, 4, 5].map((v) => `${olgas}:${v}`).sort());

    // The webhook of Sam's subscription gets the same four events, and nothing of the others.
    await receiver.waitFor((r) => r.json?.data?.id === olgas || r.json?.data?.id === sams, 4, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const delivered = receiver.received
      .filter((r) => r.json?.data?.id === olgas || r.json?.data?.id === sams)
      .map((r) => `${r.json.data.id}:${r.json.data.version}`);
    expect([...new Set(delivered)].sort()).toEqual(expected);
    // No placement leaks into a webhook body.
    expect(receiver.received.some((r) => r.body.includes('"sight"'))).toBe(false);
  });
});
