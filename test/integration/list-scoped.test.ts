import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { parseListQuery } from '../../lib/filter/query';
import { listed, type Role, type Scope, type Viewer } from '../../lib/model/access';
import { type Action, type Location, locationFields } from '../../lib/model/action';
import { listVisible } from '../../lib/store/list/entry';
import type { Position } from '../../lib/store/list/plan/result';
import { listActions } from '../../lib/store/list/run/open';
import { seedActions } from '../../scripts/seed-data';
import { type CallOptions, call, expectProblem } from '../support/client';

/**
 * Contract section 14, lists (issue 37 item 3): with `ACCESS=scoped`, a list, a search, a count
 * and a cursor walk show exactly what `listed` (the filter form of `rightsOver(...).see`) allows:
 * the actions in the caller's scopes and their own. A stack of its own in scoped mode, seeded
 * through the bulk load. The oracle is the open list of the same query (every match, in order)
 * filtered by `listed`. Viewers with roles are built here and asked of the store's list directly,
 * in this process (grants are another engineer's work in progress); the HTTP half checks a caller
 * with no grant sees exactly their own, and that a cursor is bound to its caller.
 */

const SEEDED = 400;
// The service makes the owner the initiator of every action it stores (a create and an event alike).
const actions: Action[] = [...seedActions(SEEDED, 37)].map((a) => ({ ...a, initiator: a.owner }));
let stack: LocalStack;

beforeAll(async () => {
  Object.assign(process.env, { ACCESS: 'scoped', LOG_LEVEL: 'silent' });
  stack = await startSeededStack('scoped', actions);
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

/** A scope `depth` fields deep around an action's location. */
const scopeOf = (location: Location, depth: number): Scope =>
  Object.fromEntries(locationFields.slice(0, depth).map((f) => [f, location[f]]));

/** A deterministic pseudo-random sequence. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const people = [...new Set(actions.flatMap((a) => [a.owner.id, a.assignee?.id ?? a.owner.id]))];
/** The person on the most actions. */
const busiest = people
  .map((id) => ({ id, n: actions.filter((a) => a.owner.id === id || a.assignee?.id === id).length }))
  .sort((a, b) => b.n - a.n)[0]?.id as string;

/** A person holding `count` scopes, of depths 1 to 4, around seeded locations. */
function viewerWith(count: number, seed: number): Viewer {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
  const role: Role = 'viewer';
  return {
    mode: 'scoped',
    person: { id: pick(people) },
    roles: Array.from({ length: count }, () => ({
      role,
      scope: scopeOf(pick(actions).location, 1 + Math.floor(next() * 4)),
    })),
  };
}

/** Every match of an open list, in order: the list walked with its cursor. */
async function walkOpen(query: string): Promise<Action[]> {
  const found: Action[] = [];
  let after: Position | undefined;
  for (;;) {
    const page = await listActions(parseListQuery(`${query}&limit=100`), after);
    found.push(...page.actions);
    if (page.next === undefined) return found;
    after = page.next;
  }
}

/** Every match of a scoped list, in pages of `limit`, and the count each page gave. */
async function walkScoped(query: string, viewer: Viewer, limit: number) {
  const found: string[] = [];
  const counts = new Set<string>();
  let after: Position | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await listVisible(parseListQuery(`${query}&limit=${limit}`, viewer.person.id), after, viewer);
    expect(page.actions.length).toBeLessThanOrEqual(limit);
    found.push(...page.actions.map((a) => a.id));
    counts.add(`${page.totalCount}/${page.totalCountRelation}`);
    if (page.next === undefined) return { found, counts };
    after = page.next;
  }
  throw new Error('the walk did not end');
}

const queries = [
  '',
  'status=~1,2,5',
  'sort=dueAt',
  'sort=-title',
  'sort=status',
  'sort=-owner',
  'priority=>2&sort=priority',
  // The reference order holds every action: a scope's part reads its own matches first.
  'sort=-actionProducer.reference',
  'overdue=true',
  'assignee=undefined',
  `location.site=${encodeURIComponent(actions[0]?.location.site ?? '')}`,
  `title=*${encodeURIComponent((actions[3]?.title ?? 'abc').slice(2, 6).toLowerCase())}`,
  'createdAt=>2000-01-01&sort=createdAt',
  // A scope whose site or business unit a filter rules out is not read; the others still are.
  `location.site=!${encodeURIComponent(actions[0]?.location.site ?? '')}&status=~1,2`,
  `location.businessUnit=~${encodeURIComponent(actions[1]?.location.businessUnit ?? '')},${encodeURIComponent(actions[2]?.location.businessUnit ?? '')}`,
];

describe('a scoped list', () => {
  for (const [n, scopes] of [1, 5, 20].entries()) {
    it(`shows exactly the visible set to a person with ${scopes} scope(s): lists, searches, counts and cursor walks`, async () => {
      const viewer = viewerWith(scopes, 1000 + n);
      // Twenty scopes run twenty-one parts a page: a few shapes each of search, sort and count.
      for (const query of scopes === 20 ? queries.filter((_, i) => i % 3 === 0) : queries) {
        const expected = (await walkOpen(query)).filter((a) => listed(viewer, a)).map((a) => a.id);
        const counted = await listVisible(parseListQuery(`${query}&limit=0`, viewer.person.id), undefined, viewer);
        expect(counted.actions, query).toEqual([]);
        expect(counted.totalCount, query).toBe(expected.length);
        const limit = n === 0 ? 7 : 25;
        const walked = await walkScoped(query, viewer, limit);
        expect(walked.found, query).toEqual(expected);
        // Exact on every page (this stack's budget reads every match).
        expect([...walked.counts], query).toEqual([`${expected.length}/eq`]);
        // The first page at a skip is the slice of the visible set.
        const skipped = await listVisible(
          parseListQuery(`${query}&skip=3&limit=4`, viewer.person.id),
          undefined,
          viewer,
        );
        expect(
          skipped.actions.map((a) => a.id),
          query,
        ).toEqual(expected.slice(3, 7));
      }
    }, 600_000);
  }

  it('is the open list when a scope is everything, or the list asks only for the caller’s own', async () => {
    const everything: Viewer = { mode: 'scoped', person: { id: 'u-nobody' }, roles: [{ role: 'viewer', scope: {} }] };
    const open = await listActions(parseListQuery('limit=0'));
    expect((await listVisible(parseListQuery('limit=0'), undefined, everything)).totalCount).toBe(open.totalCount);
    const own = viewerWith(0, 5);
    const mine = actions.filter((a) => a.assignee?.id === own.person.id);
    const result = await listVisible(parseListQuery('assignee=me&limit=0', own.person.id), undefined, own);
    expect(result.totalCount).toBe(mine.length);
  });
});

describe('a scoped list through HTTP', () => {
  const send = (method: string, path: string, options: CallOptions = {}) =>
    call(method, path, { ...options, baseUrl: stack.url });
  const tokenOf = (id: string) => issueToken(stack.issuer, { sub: id, name: id });

  it('shows a caller with no grant exactly their own, and a stranger nothing', async () => {
    const person = busiest;
    const theirs = actions.filter((a) => a.owner.id === person || a.assignee?.id === person);
    expect(theirs.length).toBeGreaterThan(1);
    const first = await send('GET', '/api/actions?limit=100', { token: tokenOf(person) });
    expect(first.status).toBe(200);
    expect(first.body.totalCount).toBe(theirs.length);
    expect(new Set(first.body.actions.map((a: Action) => a.id))).toEqual(new Set(theirs.map((a) => a.id)));
    const stranger = await send('GET', '/api/actions?status=~1,2,3,4,5', { token: tokenOf('u-stranger') });
    expect(stranger.body).toEqual({ actions: [], totalCount: 0, totalCountRelation: 'eq' });
  });

  it('binds a cursor to its caller: another caller’s use of it is a 400 naming cursor', async () => {
    const person = busiest;
    const page = await send('GET', '/api/actions?limit=1', { token: tokenOf(person) });
    expect(page.body.nextCursor).toBeDefined();
    const mine = await send('GET', `/api/actions?cursor=${encodeURIComponent(page.body.nextCursor)}`, {
      token: tokenOf(person),
    });
    expect(mine.status).toBe(200);
    const foreign = await send('GET', `/api/actions?cursor=${encodeURIComponent(page.body.nextCursor)}`, {
      token: tokenOf('u-stranger'),
    });
    expectProblem(foreign, 400, { parameter: 'cursor' });
  });
});
