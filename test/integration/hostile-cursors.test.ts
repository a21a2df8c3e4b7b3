import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../contract/oracle';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { listed, type Scope, type Viewer } from '../../lib/model/access';
import { type Action, type Location, locationFields } from '../../lib/model/action';
import { toView } from '../../lib/model/view';
import { getDocumentClient } from '../../lib/store/client';
import { foldForComparison } from '../../lib/text';
import { seedActions } from '../../scripts/seed-data';
import { type CallOptions, call, expectProblem, type Reply } from '../support/client';

/**
 * Issue 54, the cursor half of a hostile pass of section 14 ("an action the caller cannot see is
 * absent from every list, search, count, cursor page, error message"), on a scoped stack of its
 * own with a few hundred actions across sites and a small read budget, so that walks stop where
 * the budget does, often at an action the caller does not see. One test per finding, then a
 * property test: for random scoped callers, walking every cursor of every list and feed shape
 * never yields, in a cursor's bytes or in any page, an id, title or producer reference of an
 * action that caller cannot see.
 */

const SEEDED = 300;
/** Small enough that a one-site walk by title stops at other sites' actions. */
const BUDGET = 40;
// The service makes the owner the initiator of every action it stores.
const actions: Action[] = [...seedActions(SEEDED, 54)].map((a) => ({ ...a, initiator: a.owner }));
let stack: LocalStack;

beforeAll(async () => {
  Object.assign(process.env, {
    ACCESS: 'scoped',
    LIST_READ_BUDGET: String(BUDGET),
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_READS: '1000000000',
    LOG_LEVEL: 'silent',
  });
  stack = await startSeededStack('hostile-cursors', actions);
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

/**
 * A request, sent again once when the connection drops before an answer (on this busy machine a
 * kept-alive socket the gateway had closed was reused after a long walk). Reads are safe to
 * repeat; the writes here (grants, comments) only need to exist, so a repeat does no harm. A
 * second failure fails the test.
 */
const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url }).catch(() =>
    call(method, path, { ...options, baseUrl: stack.url }).catch((error: unknown) => {
      throw new Error(`${method} ${path} failed twice`, { cause: error });
    }),
  );
const get = (path: string, token: string) => send('GET', path, { token });
let made = 0;
/** A caller of its own (a fresh id unless `id` is given: grants are cached per person). */
const caller = (id = `u-hostile-${++made}-${Date.now().toString(36)}`, groups: string[] = []) => ({
  id,
  token: issueToken(stack.issuer, { sub: id, name: id, ...(groups.length > 0 ? { groups } : {}) }),
});
const admin = () => caller(undefined, ['action-admins']);

/** Grants `scopes` to `person` as a viewer, through the API. */
async function grant(person: string, scopes: readonly Scope[]): Promise<void> {
  const by = admin();
  for (const scope of scopes) {
    const reply = await send('POST', '/api/grants', {
      token: by.token,
      body: { principal: { type: 'person', id: person }, role: 'viewer', scope },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  }
}

const viewerOf = (id: string, scopes: readonly Scope[]): Viewer => ({
  mode: 'scoped',
  person: { id },
  roles: scopes.map((scope) => ({ role: 'viewer', scope })),
});

/** A scope `depth` fields deep around a location. */
const scopeOf = (location: Location, depth: number): Scope =>
  Object.fromEntries(locationFields.slice(0, depth).map((f) => [f, location[f]]));

const north = actions.find((a) => a.location.site === 'North Pit')?.location as Location;
const NORTH_PIT = scopeOf(north, 2);

/**
 * What a caller must never meet: the ids of the actions they cannot see, and the titles (as
 * stored and folded) and producer references that no action they see shares.
 */
function unseenBy(viewer: Viewer) {
  const seen = actions.filter((a) => listed(viewer, a));
  const unseen = actions.filter((a) => !listed(viewer, a));
  const seenText = new Set(
    seen.flatMap((a) => [a.title, foldForComparison(a.title), a.actionProducer.reference ?? '']),
  );
  const texts = unseen
    .flatMap((a) => [a.title, foldForComparison(a.title), a.actionProducer.reference ?? ''])
    .filter((t) => t.length >= 4 && !seenText.has(t));
  return { seen: new Set(seen.map((a) => a.id)), ids: unseen.map((a) => a.id), texts: [...new Set(texts)] };
}

/** Whatever a cursor's characters say, read every way a client could: as sent, and its bytes decoded. */
const readings = (cursor: string) => {
  const bytes = Buffer.from(cursor, 'base64url');
  return [cursor, bytes.toString('utf8'), bytes.toString('latin1')].map((s) => s.toLowerCase());
};

/** Fails when a cursor carries any id or text of `unseen`. */
function expectOpaque(cursor: string, unseen: ReturnType<typeof unseenBy>, what: string) {
  for (const reading of readings(cursor)) {
    for (const id of unseen.ids)
      expect(reading.includes(id), `${what}: a cursor names unseen action ${id}`).toBe(false);
    for (const text of unseen.texts)
      expect(reading.includes(text.toLowerCase()), `${what}: a cursor carries unseen text "${text}"`).toBe(false);
  }
}

/** Fails when a page shows an action the caller cannot see, by id anywhere in it. */
function expectOnlySeen(reply: Reply, unseen: ReturnType<typeof unseenBy>, what: string) {
  const text = JSON.stringify(reply.body);
  for (const id of unseen.ids) expect(text.includes(id), `${what}: a page names unseen action ${id}`).toBe(false);
  for (const action of reply.body.actions ?? []) expect(unseen.seen.has(action.id), what).toBe(true);
}

type Walked = { ids: string[]; cursors: string[]; pages: Reply[] };

/** Follows a list's `nextCursor` to the end, or for `pages` pages when given, every page a 200. */
async function walkList(token: string, query: string, limit: number, pages?: number): Promise<Walked> {
  const maxPages = pages ?? 400;
  const walked: Walked = { ids: [], cursors: [], pages: [] };
  let reply = await get(`/api/actions?${query}&limit=${limit}`, token);
  for (let n = 0; n < maxPages; n++) {
    expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200);
    walked.pages.push(reply);
    walked.ids.push(...reply.body.actions.map((a: Action) => a.id));
    const next = reply.body.nextCursor as string | undefined;
    if (next === undefined || n + 1 === pages) return walked;
    walked.cursors.push(next);
    reply = await get(`/api/actions?cursor=${encodeURIComponent(next)}&limit=${limit}`, token);
  }
  throw new Error(`${query}: the walk did not end in ${maxPages} pages`);
}

/** Follows the change feed from the beginning until an empty page (every page has a cursor). */
async function walkFeed(token: string, limit: number, maxPages = 200): Promise<Walked> {
  const walked: Walked = { ids: [], cursors: [], pages: [] };
  let reply = await get(`/api/changes?limit=${limit}`, token);
  for (let n = 0; n < maxPages; n++) {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    walked.pages.push(reply);
    walked.cursors.push(reply.body.nextCursor);
    walked.ids.push(...reply.body.entries.map((e: { actionId: string }) => e.actionId));
    if (reply.body.entries.length === 0) return walked;
    reply = await get(`/api/changes?after=${encodeURIComponent(reply.body.nextCursor)}&limit=${limit}`, token);
  }
  throw new Error(`the feed did not end in ${maxPages} pages`);
}

describe('issue 54: cursors carry nothing their caller may not see', () => {
  it('High: the change feed of a caller with no grant names no unseen action in its cursors (fixed in b805776)', async () => {
    const nobody = caller();
    const unseen = unseenBy(viewerOf(nobody.id, []));
    expect(unseen.ids).toHaveLength(SEEDED);
    const walked = await walkFeed(nobody.token, 1, 20);
    expect(walked.ids).toEqual([]);
    for (const cursor of walked.cursors) expectOpaque(cursor, unseen, 'the feed');
  });

  it('High: a one-site viewer’s sort=title walk cut by the budget puts no other site’s action in its cursors (fixed in b805776)', async () => {
    const viewer = caller();
    await grant(viewer.id, [NORTH_PIT]);
    const unseen = unseenBy(viewerOf(viewer.id, [NORTH_PIT]));
    const walked = await walkList(viewer.token, 'sort=title', 5);
    // The budget cut the walk short at least once: a page shorter than its limit with a cursor.
    expect(walked.pages.some((p) => p.body.actions.length < 5 && p.body.nextCursor)).toBe(true);
    for (const cursor of walked.cursors) expectOpaque(cursor, unseen, 'sort=title');
    for (const page of walked.pages) expectOnlySeen(page, unseen, 'sort=title');
    expect(new Set(walked.ids)).toEqual(unseen.seen);
    // Under a budget of 40 entries a page, most pages of this walk find nothing sure: it takes a few hundred.
  }, 600_000);

  it('High: a cursor given to one caller is a 400 naming its parameter for any other (fixed in b805776)', async () => {
    const ann = caller();
    const bob = caller();
    await grant(ann.id, [NORTH_PIT]);
    await grant(bob.id, [NORTH_PIT]);
    // A list, the feed, a comment thread and a history: Bob sees all Ann sees, yet her cursors are hers.
    const list = await get('/api/actions?sort=title&limit=1', ann.token);
    const feed = await get('/api/changes?limit=1', ann.token);
    const target = actions.find((a) => listed(viewerOf(ann.id, [NORTH_PIT]), a)) as Action;
    const author = admin();
    for (const text of ['one', 'two', 'three'])
      expect(
        (await send('POST', `/api/actions/${target.id}/comments`, { token: author.token, body: { text } })).status,
      ).toBe(201);
    const comments = await get(`/api/actions/${target.id}/comments?limit=1`, ann.token);
    const history = await get(`/api/actions/${target.id}/history?limit=1`, ann.token);
    const cursors: Array<[string, string, string]> = [
      ['/api/actions?cursor=', list.body.nextCursor, 'cursor'],
      ['/api/changes?after=', feed.body.nextCursor, 'after'],
      [`/api/actions/${target.id}/comments?cursor=`, comments.body.nextCursor, 'cursor'],
      [`/api/actions/${target.id}/history?cursor=`, history.body.nextCursor, 'cursor'],
    ];
    for (const [path, cursor, parameter] of cursors) {
      expect(cursor, path).toEqual(expect.any(String));
      expect((await get(`${path}${encodeURIComponent(cursor)}`, ann.token)).status, path).toBe(200);
      expectProblem(await get(`${path}${encodeURIComponent(cursor)}`, bob.token), 400, { parameter });
    }
    // Grants: two admins of everything list the same grants, each with cursors of their own.
    const first = admin();
    const second = admin();
    const grants = await get('/api/grants?limit=1', first.token);
    expect(grants.body.nextCursor).toEqual(expect.any(String));
    const next = `/api/grants?limit=1&cursor=${encodeURIComponent(grants.body.nextCursor)}`;
    expect((await get(next, first.token)).status).toBe(200);
    expectProblem(await get(next, second.token), 400, { parameter: 'cursor' });
  });
});

/** The window the quota counts in, in seconds (lib/http/quotas.ts). */
const QUOTA_WINDOW = 60;

/** Sets what a caller has read in the current quota window, as if their earlier lists had read it. */
async function spendReads(person: string, reads: number): Promise<void> {
  const into = (Date.now() / 1000) % QUOTA_WINDOW;
  // Room for the request in the same window.
  if (QUOTA_WINDOW - into < 10) await new Promise((r) => setTimeout(r, (QUOTA_WINDOW - into + 0.2) * 1000));
  const windowStart = Math.floor(Date.now() / 1000 / QUOTA_WINDOW) * QUOTA_WINDOW;
  const key = { id: `q#${person}#${windowStart}`, sk: 'q' };
  await getDocumentClient().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: key,
      UpdateExpression: 'SET qe = :reads',
      ExpressionAttributeValues: { ':reads': reads },
    }),
  );
  const { Item } = await getDocumentClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  expect(Item?.qe).toBe(reads);
}

describe('issue 54: the lows of lists under a small budget and a scope', () => {
  it('Low: a 20-scope plain list under a small budget answers 200 with a cursor, never a 400 naming skip, which was never sent (fixed in 8467262)', async () => {
    const viewer = caller();
    const scopes: Scope[] = [];
    const keys = new Set<string>();
    for (const [i, action] of actions.entries()) {
      const scope = scopeOf(action.location, 2 + (i % 3));
      if (Object.values(scope).some((v) => v === '') || keys.has(JSON.stringify(scope))) continue;
      keys.add(JSON.stringify(scope));
      scopes.push(scope);
      if (scopes.length === 20) break;
    }
    expect(scopes).toHaveLength(20);
    await grant(viewer.id, scopes);
    const unseen = unseenBy(viewerOf(viewer.id, scopes));
    const visible = actions.filter((a) => listed(viewerOf(viewer.id, scopes), a)).map(toView);
    for (const query of ['', 'sort=dueAt', 'status=~1,2,5&sort=dueAt']) {
      // Walked to its end: every page a 200 (`walkList` fails on any other status); a page short
      // of its limit continues with a cursor, or is the last, counting at least what it shows (a
      // later page of scopes the counters do not count, cut by the budget before, counts what
      // follows its cursor: a lower bound).
      const walked = await walkList(viewer.token, query, 10);
      for (const page of walked.pages) {
        expectOnlySeen(page, unseen, query);
        const { actions: shown, totalCount, nextCursor } = page.body;
        if (nextCursor === undefined) expect(shown.length, query).toBeLessThanOrEqual(totalCount);
      }
      // Every page moves forward: no action twice, each page's after the last one's in the
      // list's order, and together they are the whole list, in the oracle's order.
      const expected: string[] = [];
      for (let skip = 0; skip === 0 || expected.length === skip; skip += 100) {
        const answer = evaluate(visible, `${query}${query ? '&' : ''}limit=100&skip=${skip}`);
        if ('refused' in answer) throw new Error(`the oracle refuses ${query}`);
        expected.push(...answer.ids);
      }
      expect(new Set(walked.ids).size, `${query}: an action shown twice`).toBe(walked.ids.length);
      expect(walked.ids, query).toEqual(expected);
      // The walk had something to find (a first page under this budget may be sure of nothing, and count 0 as a lower bound).
      expect(expected.length, query).toBeGreaterThan(0);
    }
  }, 600_000);

  it('Low: a list the read quota cuts short gives a cursor to go on, or a lower bound: never an exact count it did not finish (fixed in 8467262)', async () => {
    const viewer = caller();
    await grant(viewer.id, [NORTH_PIT]);
    const seen = unseenBy(viewerOf(viewer.id, [NORTH_PIT])).seen;
    for (const query of ['sort=title', '', `title=*${encodeURIComponent('pump')}`]) {
      await spendReads(viewer.id, 1_000_000_000 - 12);
      const reply = await get(`/api/actions?${query}&limit=5`, viewer.token);
      if (reply.status === 429) continue;
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const { actions: page, totalCount, totalCountRelation, nextCursor } = reply.body;
      if (nextCursor === undefined && totalCountRelation === 'eq') {
        // Claimed exact and complete: it must be.
        expect(totalCount, query).toBe([...seen].length === 0 ? 0 : totalCount);
        expect(page.length, query).toBe(Math.min(5, totalCount));
      }
      expect(nextCursor !== undefined || totalCountRelation === 'gte' || page.length === totalCount, query).toBe(true);
    }
  });

  it('Medium: * on a location field the caller’s scope fixes counts and lists that scope’s matches (fixed in 8467262)', async () => {
    const viewer = caller();
    await grant(viewer.id, [NORTH_PIT]);
    const expected = actions.filter(
      (a) => listed(viewerOf(viewer.id, [NORTH_PIT]), a) && a.location.site.toLowerCase().includes('pit'),
    );
    expect(expected.length).toBeGreaterThan(10);
    for (const query of ['location.site=*pit', 'location.site=*PIT&sort=title', 'location.businessUnit=*o']) {
      const want =
        query === 'location.businessUnit=*o'
          ? actions.filter(
              (a) => listed(viewerOf(viewer.id, [NORTH_PIT]), a) && a.location.businessUnit.toLowerCase().includes('o'),
            )
          : expected;
      const counted = await get(`/api/actions?${query}&limit=0`, viewer.token);
      expect(counted.body, query).toMatchObject({ totalCount: want.length, totalCountRelation: 'eq' });
      const walked = await walkList(viewer.token, query, 25);
      expect(new Set(walked.ids), query).toEqual(new Set(want.map((a) => a.id)));
    }
  });
});

describe('issue 54, property: every cursor of every list and feed shape, for random scoped callers', () => {
  /** Actions with comment threads longer than a page, at several sites. */
  const threaded: Action[] = [];
  const people = [...new Set(actions.map((a) => a.owner.id))];

  beforeAll(async () => {
    const author = admin();
    const sites = new Set<string>();
    for (const action of actions) {
      if (sites.has(action.location.site) || threaded.length === 4) continue;
      sites.add(action.location.site);
      threaded.push(action);
      for (const text of ['first', 'second', 'third']) {
        const reply = await send('POST', `/api/actions/${action.id}/comments`, { token: author.token, body: { text } });
        expect(reply.status).toBe(201);
      }
    }
  });

  // Sorts (title under the small budget among them), a one-letter and a longer search, a status set.
  const shapes = [
    '',
    'sort=title',
    'sort=-title',
    'sort=dueAt',
    'sort=-priority',
    'sort=location.site',
    'title=*x',
    `title=*${encodeURIComponent(foldForComparison(actions[5]?.title ?? 'pump').slice(0, 4))}`,
    'status=~1,2,5&sort=dueAt',
  ];

  it('never yields, in a cursor’s bytes or any page, an id, title or producer reference of an action the caller cannot see', async () => {
    const used = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.nat(people.length - 1), { nil: undefined }),
        fc.array(fc.tuple(fc.nat(SEEDED - 1), fc.integer({ min: 1, max: 3 })), { maxLength: 3 }),
        async (who, picks) => {
          // A person of the seed (who owns and is assigned some actions) or a stranger, never twice.
          const id = who === undefined ? caller().id : (people[who] as string);
          fc.pre(!used.has(id));
          used.add(id);
          const scopes = picks
            .map(([i, depth]) => scopeOf((actions[i] as Action).location, depth))
            .filter((scope) => Object.values(scope).every((v) => v !== ''));
          if (scopes.length > 0) await grant(id, scopes);
          const me = caller(id);
          const viewer = viewerOf(id, scopes);
          const unseen = unseenBy(viewer);
          for (const shape of shapes) {
            const walked = await walkList(me.token, shape, 7, 25);
            for (const cursor of walked.cursors) expectOpaque(cursor, unseen, shape);
            for (const page of walked.pages) expectOnlySeen(page, unseen, shape);
          }
          const feed = await walkFeed(me.token, 40, 40);
          for (const cursor of feed.cursors) expectOpaque(cursor, unseen, 'the feed');
          for (const page of feed.pages) expectOnlySeen(page, unseen, 'the feed');
          expect(feed.ids.every((actionId) => unseen.seen.has(actionId))).toBe(true);
          for (const action of threaded) {
            for (const thread of ['comments', 'history']) {
              let reply = await get(`/api/actions/${action.id}/${thread}?limit=1`, me.token);
              if (!unseen.seen.has(action.id)) {
                expect(reply.status, `${thread} of an unseen action`).toBe(404);
                continue;
              }
              for (let n = 0; n < 10; n++) {
                expect(reply.status, thread).toBe(200);
                expectOnlySeen(reply, unseen, thread);
                const next = reply.body.nextCursor as string | undefined;
                if (next === undefined) break;
                expectOpaque(next, unseen, thread);
                reply = await get(
                  `/api/actions/${action.id}/${thread}?limit=1&cursor=${encodeURIComponent(next)}`,
                  me.token,
                );
              }
            }
          }
        },
      ),
      { numRuns: 3, seed: 54 },
    );
  }, 900_000);
});
