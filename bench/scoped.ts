import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, fail } from '../infra/command-line';
import { startSeededStack } from '../infra/local/seeded';
import { parseListQuery } from '../lib/filter/query';
import { listed, type Scope, type Viewer } from '../lib/model/access';
import type { Action } from '../lib/model/action';
import { batchWriteRequests } from '../lib/store/batch';
import { postingsTableName } from '../lib/store/client';
import { listVisible } from '../lib/store/list/entry';
import { listActions } from '../lib/store/list/run/open';
import { gramsOf } from '../lib/store/search/grams';
import { createdKeyOf, foldedTexts, indexedText, postingPartition } from '../lib/store/search/keys';
import { postingRequests } from '../lib/store/search/postings';
import { baselineAnswer, scanTable } from './baseline';
import { generateActions } from './generate';

/**
 * `npm run bench:scoped [-- --actions N]`: what a scoped list costs (contract section 14, "Cost";
 * issue 37): people with 1, 5 and 20 site scopes, each asking the daily shapes of section 4. For
 * each: read units and index entries, whether `totalCount` equals the contract's oracle over a
 * full scan filtered by `listed` (the decision's filter form), and the ratio to the same query in
 * open mode. Writes bench/results/scoped-<N>.md; exits 1 when a count or page differs.
 */

const { values: args } = commandLine(
  `usage: npm run bench:scoped [-- --actions <n>]

Seeds --actions (default 10000) actions into a stack of its own (in memory) and measures scoped
lists for people with 1, 5 and 20 site scopes against the same lists in open mode.`,
  { actions: { type: 'string', default: '10000' } },
);
const ACTIONS = Number(args.actions);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 100) fail('--actions must be an integer of at least 100.');

const enc = encodeURIComponent;

/** The daily shapes of section 4, for a person and one of the sites they see. */
const shapes = (person: string, site: string): Array<[string, string]> => [
  ['everything they see, newest first', ''],
  ['count only', 'limit=0'],
  ['open ones', 'status=~1,2,5'],
  ['overdue ones', 'overdue=true'],
  ['open ones by due date', 'status=~1,2,5&sort=dueAt'],
  ['their open ones', `assignee=${enc(person)}&status=~1,2,5`],
  ['what they own, by due date', `owner=${enc(person)}&sort=dueAt`],
  ["a site's open ones", `location.site=${enc(site)}&status=~1,2`],
  ["a site's overdue ones", `location.site=${enc(site)}&overdue=true`],
  ['by title', 'sort=title'],
  [`title search (${SEARCHED})`, `title=${enc(SEARCHED)}`],
];

/**
 * The one search the benchmark asks. Only the postings of its grams are written (every action's
 * posting of each of them, so the search reads what it would over a whole index): all of an
 * action's postings are four fifths of a load, which at 100,000 actions would take hours.
 */
const SEARCHED = '*guard';

/** Every action's postings of the grams `SEARCHED` reads, and no other. */
async function writeSearchedPostings(actions: readonly Action[]) {
  const wanted = new Set(gramsOf(SEARCHED.replaceAll('*', '')).map((gram) => postingPartition('title', gram)));
  const requests = actions.flatMap((action) => {
    const text = indexedText(action);
    return postingRequests(createdKeyOf(text), undefined, foldedTexts(text)).filter((request) =>
      wanted.has(String(request.PutRequest?.Item?.id)),
    );
  });
  await batchWriteRequests(requests, { width: 4, maxAttempts: 20, table: postingsTableName() });
  return requests.length;
}

async function main() {
  const actions: Action[] = [...generateActions(ACTIONS, 37)].map((a) => ({ ...a, initiator: a.owner }));
  const started = Date.now();
  // No query here searches: the actions go in without their search postings (four fifths of a load).
  const stack = await startSeededStack('bench-scoped', actions, { postings: false });
  const postings = await writeSearchedPostings(actions);
  const seededSeconds = (Date.now() - started) / 1000;
  const lines: string[] = [];
  let failures = 0;
  let outside = 0;
  let overTight = 0;
  try {
    const table = await scanTable(actions.length * 4);
    const sites = [
      ...new Map(actions.map((a) => [`${a.location.businessUnit}\u0000${a.location.site}`, a.location])).values(),
    ];
    const person = actions[0]?.assignee?.id ?? (actions[0]?.owner.id as string);
    // Contract section 14's bound: 25 read units, plus one per scope, plus the person's own actions.
    const own = actions.filter(
      (a) => a.owner.id === person || a.assignee?.id === person || a.initiator?.id === person,
    ).length;
    lines.push(
      `# Scoped lists at ${ACTIONS} actions`,
      '',
      `Seeded in ${seededSeconds.toFixed(0)} s (bulk load, no stream reader; of the search postings only the ${postings} of the grams of \`${SEARCHED}\`, every action's, the only search asked); ${sites.length} sites; the person owns, initiates or is assigned ${own} actions. Read units are DynamoDB Local's.`,
      `Reproduce: \`npm run bench:scoped -- --actions ${ACTIONS}\`.`,
      '',
      '| scopes | shape | RU scoped | entries | RU open | ratio | 25 + scopes | bound (RU) | count | exact |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const count of [1, 5, 20]) {
      const scopes: Scope[] = Array.from({ length: count }, (_, i) => {
        const at = sites[(i * 7) % sites.length] as Action['location'];
        return { businessUnit: at.businessUnit, site: at.site };
      });
      const viewer: Viewer = {
        mode: 'scoped',
        person: { id: person },
        roles: scopes.map((scope) => ({ role: 'viewer', scope })),
      };
      const visible = table.listed.filter((a) => listed(viewer, table.actions.get(a.id) as Action));
      const site = scopes[0]?.site as string;
      for (const [name, query] of shapes(person, site)) {
        const scoped = await listVisible(parseListQuery(query, person), undefined, viewer);
        const open = await listActions(parseListQuery(query, person));
        const expected = baselineAnswer({ ...table, listed: visible }, query);
        const exact = scoped.totalCount === expected.totalCount && scoped.totalCountRelation === 'eq';
        // Contract section 4: a free-text search may answer a marked lower bound (`gte`), never more than the truth.
        const lowerBound =
          query.startsWith('title=*') &&
          scoped.totalCountRelation === 'gte' &&
          scoped.totalCount <= expected.totalCount;
        const page = scoped.actions.map((a) => a.id).join() === expected.ids.slice(0, scoped.actions.length).join();
        if (!(exact || lowerBound) || !page) failures++;
        const ratio = open.stats.readUnits === 0 ? '-' : (scoped.stats.readUnits / open.stats.readUnits).toFixed(1);
        const bound = 25 + count + own;
        const within = scoped.stats.readUnits <= bound;
        if (!within) outside++;
        const tight = scoped.stats.readUnits <= 25 + count;
        if (!tight) overTight++;
        lines.push(
          `| ${count} | ${name} | ${scoped.stats.readUnits} | ${scoped.stats.indexEntries} | ${open.stats.readUnits} | ${ratio} | ${25 + count} ${tight ? 'within' : '**over**'} | ${bound} ${within ? 'within' : '**over**'} | ${scoped.totalCount}${scoped.totalCountRelation === 'eq' ? '' : ` (${scoped.totalCountRelation})`} | ${exact && page ? 'yes' : lowerBound && page ? `lower bound (oracle ${expected.totalCount})` : `NO (oracle ${expected.totalCount})`} |`,
        );
      }
    }
  } finally {
    await stack.close();
  }
  lines.push(
    '',
    `${outside} of ${3 * shapes('', '').length} queries over the bound of 25 RU + 1 per scope + the person's own actions; ${overTight} over 25 RU + 1 per scope alone.`,
  );
  const report = `${lines.join('\n')}\n`;
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `scoped-${ACTIONS}.md`), report);
  process.stdout.write(report);
  if (failures > 0) {
    process.stderr.write(`${failures} scoped answers differ from the oracle\n`);
    process.exit(1);
  }
}

await main();
