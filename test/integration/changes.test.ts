import { beforeAll, describe, expect, it } from 'vitest';
import {
  actionBody,
  call,
  create,
  expectProblem,
  list,
  newUser,
  q,
  uniqueProducer,
  useOwnStack,
} from '../support/client';

/**
 * Issue 25, contract section 11: the change feed. Six writers, one of every kind, change a pool
 * of actions at once while a poller follows `nextCursor`; afterwards the poller has seen each
 * history entry of every one of those actions exactly once, each action's in version order,
 * deletes included.
 *
 * The feed is every write of the stack, so this file runs on a stack of its own: another file's
 * writes would keep the poller's pages from ever running dry and push its entries past a page.
 */

useOwnStack();

interface FeedEntry {
  actionId: string;
  version: number;
  type: string;
  actor: { id: string };
  time: string;
}
type FeedPage = { entries: FeedEntry[]; nextCursor: string };

const SETTLE_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function feed(token: string, query: string): Promise<FeedPage> {
  const reply = await call<FeedPage>('GET', `/api/changes?${query}`, { token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(typeof reply.body.nextCursor).toBe('string');
  return reply.body;
}

async function historyOf(token: string, id: string): Promise<FeedEntry[]> {
  const entries: FeedEntry[] = [];
  let cursor: string | undefined;
  do {
    const reply = await call('GET', `/api/actions/${id}/history?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    });
    expect(reply.status).toBe(200);
    entries.push(...reply.body.entries.map((e: FeedEntry) => ({ ...e, actionId: id })));
    cursor = reply.body.nextCursor;
  } while (cursor);
  return entries;
}

describe('the change feed', () => {
  const owner = newUser('Olive Owner');
  const others = Array.from({ length: 4 }, (_, i) => newUser(`Writer ${i}`));
  const producer = uniqueProducer('feed');
  let started: string;

  beforeAll(() => {
    started = new Date(Date.now() - 1000).toISOString();
  });

  it('gives a poller every entry once, in version order per action, under six concurrent writers', async () => {
    const pool: string[] = [];
    for (let i = 0; i < 10; i++)
      pool.push(await create(owner.token, actionBody(producer, { allowAnonymousEdits: true })));
    const mine = new Set(pool);
    const seen: FeedEntry[] = [];
    let writing = true;
    let lastWrite = Date.now();

    const poller = (async () => {
      let page = await feed(owner.token, `since=${encodeURIComponent(started)}&limit=7`);
      for (;;) {
        seen.push(...page.entries.filter((e) => mine.has(e.actionId)));
        if (page.entries.length === 0) {
          if (!writing && Date.now() - lastWrite > SETTLE_MS + 1500) return;
          await sleep(250);
        }
        page = await feed(owner.token, `after=${page.nextCursor}&limit=7`);
      }
    })();

    const pick = () => pool[Math.floor(Math.random() * pool.length)] as string;
    const until = Date.now() + 5_000;
    // Each writer writes for 5 s and until one of its writes has landed: under load a writer may
    // get only a few turns, and each type must show in the feed.
    const loop = async (write: () => Promise<boolean>) => {
      let landed = false;
      while (Date.now() < until || !landed) {
        landed = (await write()) || landed;
        lastWrite = Date.now();
      }
    };
    const ok = (reply: { status: number }) => reply.status < 300;
    const helper = others[0] as (typeof others)[number];
    await Promise.all([
      loop(async () => {
        const id = await create(owner.token, actionBody(producer, { allowAnonymousEdits: true }));
        pool.push(id);
        mine.add(id);
        return true;
      }),
      loop(async () =>
        ok(
          await call('PATCH', `/api/actions/${pick()}`, {
            token: helper.token,
            body: { title: `edited ${Math.random()}` },
          }),
        ),
      ),
      loop(async () => {
        await sleep(300);
        if (pool.length <= 6) return false;
        // A deleted action leaves the pool, so the other writers keep finding live ones.
        const id = pool.splice(Math.floor(Math.random() * pool.length), 1)[0] as string;
        return ok(await call('DELETE', `/api/actions/${id}`, { token: owner.token }));
      }),
      loop(async () =>
        ok(await call('POST', `/api/actions/${pick()}/comments`, { token: helper.token, body: { text: 'a note' } })),
      ),
      loop(async () =>
        ok(
          await call('PUT', `/api/actions/${pick()}/endorsements/me`, {
            token: (others[1 + Math.floor(Math.random() * 2)] as typeof helper).token,
          }),
        ),
      ),
      loop(async () => {
        // Withdraw what this writer endorsed itself, so a withdrawal happens however the picks fall.
        const withdrawer = others[3] as typeof helper;
        const id = pick();
        await call('PUT', `/api/actions/${id}/endorsements/me`, { token: withdrawer.token });
        return ok(await call('DELETE', `/api/actions/${id}/endorsements/me`, { token: withdrawer.token }));
      }),
    ]);
    writing = false;
    await poller;

    const truth = (await Promise.all([...mine].map((id) => historyOf(owner.token, id)))).flat();
    const key = (e: FeedEntry) => `${e.actionId}#${e.version}`;
    const seenKeys = seen.map(key);
    expect(new Set(seenKeys).size, 'an entry seen twice').toBe(seenKeys.length);
    expect(new Set(seenKeys)).toEqual(new Set(truth.map(key)));
    // Entries as the history shows them, and one action's in version order.
    const byKey = new Map(truth.map((e) => [key(e), e]));
    for (const entry of seen) expect(entry).toEqual(byKey.get(key(entry)));
    const versions = new Map<string, number>();
    for (const entry of seen) {
      expect(entry.version, entry.actionId).toBe((versions.get(entry.actionId) ?? 0) + 1);
      versions.set(entry.actionId, entry.version);
    }
    const types = new Set(seen.map((e) => e.type));
    for (const type of ['created', 'updated', 'deleted', 'commented', 'endorsed', 'endorsement-withdrawn'])
      expect(types, type).toContain(type);
  }, 90_000);

  it('starts at a time with since=, and from the beginning with neither', async () => {
    const id = await create(owner.token, actionBody(producer));
    const created = (await call('GET', `/api/actions/${id}`, { token: owner.token })).body.createdAt as string;
    await sleep(SETTLE_MS + 500);
    let page = await feed(owner.token, `since=${encodeURIComponent(created)}&limit=1000`);
    expect(page.entries.every((e) => e.time >= created)).toBe(true);
    expect(page.entries.find((e) => e.actionId === id)).toMatchObject({ version: 1, type: 'created' });
    // An offset names the same instant.
    const plus = created.replace('Z', '+00:00');
    page = await feed(owner.token, `since=${encodeURIComponent(plus)}&limit=1000`);
    expect(page.entries.find((e) => e.actionId === id)).toBeDefined();
    const first = await feed(owner.token, 'limit=3');
    expect(first.entries).toHaveLength(3);
    expect((first.entries[0] as FeedEntry).time <= (first.entries[2] as FeedEntry).time).toBe(true);
    // An empty page keeps the place: polling with its cursor later returns what came after.
    const future = await feed(owner.token, `since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.entries).toEqual([]);
    expect((await feed(owner.token, `after=${future.nextCursor}`)).entries).toEqual([]);
  }, 30_000);

  it('refuses what it cannot serve', async () => {
    const refused = async (query: string, parameter: string) =>
      expectProblem(await call('GET', `/api/changes?${query}`, { token: owner.token }), 400, { parameter });
    await refused('limit=0', 'limit');
    await refused('limit=1001', 'limit');
    await refused('limit=ten', 'limit');
    await refused('since=yesterday', 'since');
    await refused('since=2026-01-01T00:00:00', 'since');
    await refused('after=nonsense', 'after');
    await refused('after=', 'after');
    await refused('foo=1', 'foo');
    const page = await feed(owner.token, 'limit=1');
    await refused(`after=${page.nextCursor}&since=2026-01-01T00:00:00Z`, 'since');
    await refused(`after=${page.nextCursor.slice(0, -2)}`, 'after');
    const listed = await list(owner.token, `${q('actionProducer.name', producer)}&limit=1`);
    await refused(`after=${(listed as unknown as { nextCursor: string }).nextCursor}`, 'after');
    expect((await call('GET', '/api/changes')).status).toBe(401);
  });
});
