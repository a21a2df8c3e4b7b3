import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { sweepDueDates } from '../../lib/due-dates/sweep';
import { seedActions } from '../../scripts/seed-data';
import { call } from '../support/client';
import { DOC_PAGES, readPage } from '../support/doc-pages';

/**
 * Issue 12: every filter example of the README and the docs (`DOC_PAGES`) and of the API document
 * finds something in freshly seeded data. The examples are read from the pages and openapi.json themselves, so they
 * cannot drift. The seed is pinned to one day: the examples name real dates.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SEED_DAY = new Date('2026-11-22T00:00:00.000Z');
let stack: LocalStack;
let token: string;

// A bulk load of 800 actions and their search postings beside three other files took over 180 s.
beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  // As `npm run seed` writes them.
  stack = await startSeededStack('readme', seedActions(800, 1, SEED_DAY));
  // Ann Lee, as in the docs, so its `me` examples find her actions.
  token = issueToken(stack.issuer, { sub: 'u-ann', name: 'Ann Lee' });
  // What `npm start` does within REMINDER_INTERVAL_SECONDS of the seed: the past-due actions become overdue.
  await sweepDueDates();
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

/** `curl ... "$API?<query>"` lines of the README and the docs. */
const readmeQueries = DOC_PAGES.flatMap((page) => [...readPage(page).matchAll(/"\$API\?([^"]+)"/g)]).map(
  (m) => m[1] as string,
);

/** `E.g. \`name=value\`` in each list parameter's description. */
const documentQueries = (
  JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')).paths['/api/actions'].get.parameters as Array<{
    description?: string;
  }>
).flatMap((p) => {
  const example = /E\.g\. `([^`=]+)=([^`]+)`/.exec(p.description ?? '');
  return example ? [`${example[1]}=${encodeURIComponent(example[2] as string)}`] : [];
});

const found = async (query: string) => {
  const reply = await call('GET', `/api/actions?${query}`, { token, baseUrl: stack.url });
  expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body.totalCount as number;
};

describe('examples a newcomer tries on seeded data', () => {
  it('the README and the docs have filter examples, and the API document one per filter parameter', () => {
    expect(readmeQueries.length).toBeGreaterThanOrEqual(15);
    expect(documentQueries).toHaveLength(19); // closedAt (section 17) is the 19th filter parameter
  });

  it.each(readmeQueries)('docs: %s finds something', async (query) => {
    expect(await found(query.replace(/\\\\/g, '\\').replace(/\\,/g, '%5C%2C'))).toBeGreaterThan(0);
  });

  it.each(documentQueries)('API document: %s finds something', async (query) => {
    expect(await found(query)).toBeGreaterThan(0);
  });

  it('people have readable ids, Ann Lee first', async () => {
    const page = await call('GET', '/api/actions?owner=u-ann&limit=1', { token, baseUrl: stack.url });
    expect(page.body.actions[0].owner).toEqual({ id: 'u-ann', name: 'Ann Lee', email: 'ann@example.com' });
  });
});
