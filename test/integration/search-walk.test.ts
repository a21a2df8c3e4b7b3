import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { parseListQuery } from '../../lib/filter/query';
import type { Action } from '../../lib/model/action';
import { listActions } from '../../lib/store/list/run/open';
import { foldForComparison } from '../../lib/text';
import { seedActions } from '../../scripts/seed-data';
import { call } from '../support/client';

/**
 * Issue 54's title search inside a site too large to read whole (`partitionCheaper` says no) for
 * a fragment common enough that the site's own matches fill a page soon: the search's probe
 * (`probe` in `lib/store/search/search.ts`) estimates how common the fragment is, and the list
 * walks the site's partition in creation order to its page (`walkCheaper` in
 * `lib/store/list/run/searched.ts`) rather than verify a page's worth of candidates from the whole
 * table. Its count is then a lower bound (a `*` on free text may answer one, section 4), and its
 * pages, cursor after cursor, are the oracle's matches in order.
 */

const SEEDED = 1500;
const SITE = 'Walk Site';
const FRAGMENT = 'guard';
let stack: LocalStack;
let actions: Action[];

beforeAll(async () => {
  Object.assign(process.env, { LOG_LEVEL: 'silent' });
  // A quarter of the actions at one site, every one of them titled with the fragment, and as many elsewhere.
  actions = [...seedActions(SEEDED, 54)].map((action, i) => ({
    ...action,
    ...(i % 2 === 0 ? { title: `Replace the ${FRAGMENT} on conveyor ${i}` } : {}),
    ...(i % 4 === 0 ? { location: { ...action.location, site: SITE } } : {}),
  }));
  stack = await startSeededStack('search-walk', actions);
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

/** The site's matches, newest first (the created key, `<createdAt>#<id>`, descending). */
function oracle(): string[] {
  return actions
    .filter((a) => a.location.site === SITE && foldForComparison(a.title).includes(FRAGMENT))
    .map((a) => ({ id: a.id, key: `${a.createdAt}#${a.id}` }))
    .sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0))
    .map((a) => a.id);
}

const query = `location.site=${encodeURIComponent(SITE)}&title=*${FRAGMENT}`;

describe('a title search in a large site, walked to its page', { timeout: 300_000 }, () => {
  it("walks the site's partition in creation order, not the postings", async () => {
    const result = await listActions(parseListQuery(`${query}&limit=10`));
    expect(result.strategy).toBe('planned');
    expect(result.index).toMatch(/site/);
    expect(result.actions.map((a) => a.id)).toEqual(oracle().slice(0, 10));
    // The walk stopped at its page: a lower bound at least the page and one more, at most every match.
    expect(result.totalCountRelation).toBe('gte');
    expect(result.totalCount).toBeGreaterThanOrEqual(11);
    expect(result.totalCount).toBeLessThanOrEqual(oracle().length);
  });

  it("pages through HTTP, cursor after cursor, to exactly the oracle's matches", async () => {
    const token = issueToken(stack.issuer, { sub: 'u-walker', name: 'Walker' });
    const seen: string[] = [];
    let path = `/api/actions?${query}&limit=25`;
    for (let pages = 0; pages < 40; pages++) {
      const reply = await call('GET', path, { token, baseUrl: stack.url });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      seen.push(...(reply.body.actions as Array<{ id: string }>).map((a) => a.id));
      const next = reply.body.nextCursor as string | undefined;
      if (next === undefined) break;
      path = `/api/actions?cursor=${encodeURIComponent(next)}&limit=25`;
    }
    expect(oracle().length).toBeGreaterThan(100);
    expect(seen).toEqual(oracle());
  });
});
