import { createAction } from '../lib/actions/action-service';
import { once } from '../lib/actions/idempotency';
import { ValidationError } from '../lib/errors';
import { parseListQuery, queryLimits } from '../lib/filter/query';
import type { Action } from '../lib/model/action';
import { toView } from '../lib/model/view';
import { writeHistoryInBulk } from '../lib/store/bulk/bulk';
import { listActions } from '../lib/store/list/run/open';
import { recordingTransactions, summarize } from '../lib/store/measure/write-cost';
import { readChanges } from '../lib/store/sync/feed';
import type { World } from './world';

/**
 * Issue 25's figures, for `npm run bench` (and alone: `tsx bench/sync.ts --actions N`):
 * - a list page reached through cursors deep in the list against the first page, for a counted
 *   shape and a planner's shape, in read units (DynamoDB Local's `ReturnConsumedCapacity`), and
 *   whether the walk was right: no action twice, and the page `skip` reaches at the same depth
 *   (or at the deepest it may: `skip + limit` stops at 10,000) the same actions (`problems`);
 * - a change-feed page of 100 with a tenth of the history entries stored, and with all of them;
 * - what a create costs with an `Idempotency-Key` against without, in write units.
 * Run it once the environment points at a store that holds `actions` seeded actions.
 */

export interface SyncFigures {
  cursor: Array<{ query: string; depth: number; first: number; deep: number; ratio: number; skipDepth?: number }>;
  /** What a cursor walk got wrong; empty when it was right. */
  problems: string[];
  feed: Array<{ entries: number; readUnits: number; itemsRead: number }>;
  feedRatio: number;
  idempotency: {
    withoutKey: number;
    withKey: number;
    claim: number;
    extra: number;
    reportedWithout: number;
    reportedWith: number;
  };
}

export async function measureSync(actions: number, w: World, actionAt: (w: World, i: number) => Action) {
  // ---- cursors: the first page against one deep in the list ----
  const cursor: SyncFigures['cursor'] = [];
  const problems: string[] = [];
  for (const query of ['limit=10', 'status=3&sort=title&limit=10']) {
    const parsed = parseListQuery(query);
    const first = await listActions(parsed);
    const walked = first.actions.map((a) => a.id);
    let after = first.next;
    const walk = parseListQuery(query.replace('limit=10', 'limit=100'));
    while (after !== undefined && walked.length < Math.floor(first.totalCount / 2)) {
      const page = await listActions(walk, after);
      walked.push(...page.actions.map((a) => a.id));
      after = page.next;
    }
    const depth = walked.length;
    const deep = await listActions(parsed, after);
    walked.push(...deep.actions.map((a) => a.id));
    if (new Set(walked).size !== walked.length) problems.push(`${query}: the cursor walk returned an action twice`);
    // The same depth by skip, or the deepest page skip reaches (the walk passed it on the way).
    // (Under `--as`, a smaller budget may refuse so deep a skip: then there is nothing to compare.)
    let skipDepth: number | undefined = Math.min(depth, queryLimits.maxWindow - parsed.limit);
    try {
      const bySkip = await listActions(parseListQuery(`${query}&skip=${skipDepth}`));
      const skipIds = bySkip.actions.map((a) => a.id).join(',');
      if (skipIds !== walked.slice(skipDepth, skipDepth + parsed.limit).join(','))
        problems.push(`${query}: the cursor's page at depth ${skipDepth} is not skip's page there`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      skipDepth = undefined;
    }
    cursor.push({
      query,
      depth,
      first: first.stats.readUnits,
      deep: deep.stats.readUnits,
      ratio: deep.stats.readUnits / first.stats.readUnits,
      ...(skipDepth !== undefined ? { skipDepth } : {}),
    });
  }

  // ---- the change feed at a tenth of its entries and at all of them ----
  const writeEntries = (from: number, to: number) =>
    writeHistoryInBulk(
      Array.from({ length: to - from }, (_, k) => {
        const action = actionAt(w, from + k);
        return {
          actionId: action.id,
          version: 1,
          type: 'created' as const,
          actor: action.owner,
          time: action.createdAt,
          action: toView(action),
        };
      }),
    );
  const feed: SyncFigures['feed'] = [];
  const tenth = Math.floor(actions / 10);
  for (const [from, to] of [
    [0, tenth],
    [tenth, actions],
  ] as const) {
    await writeEntries(from, to);
    // A page from the middle of the entries stored so far (since= the reference date minus a year).
    const page = await readChanges(100, '2024-06-01T00:00:00.000Z');
    feed.push({ entries: to, readUnits: page.stats.readUnits, itemsRead: page.stats.itemsRead });
  }

  // ---- creates with and without an Idempotency-Key ----
  const body = {
    title: 'Bench create',
    actionProducer: { name: 'Bench' },
    dueAt: '2026-12-01T10:00:00Z',
    priority: '2',
    status: '1',
  };
  const caller = { id: 'bench-caller', name: 'Bench Caller', email: null };
  const reply = (a: { id: string }) => ({ status: 201, body: { id: a.id }, location: `/api/actions/${a.id}` });
  const SAMPLES = 20;
  const plain = await recordingTransactions(async () => {
    for (let i = 0; i < SAMPLES; i++) await createAction(caller, body);
  });
  const keyed = await recordingTransactions(async () => {
    for (let i = 0; i < SAMPLES; i++)
      await once({ caller, header: `bench-${i}`, method: 'POST', path: '/api/actions', body }, reply, (remember) =>
        createAction(caller, body, remember),
      );
  });
  const [without, withKeyed] = [summarize(plain.costs), summarize(keyed.costs)];
  const withoutKey = without.total;
  const withKey = withKeyed.total;
  // The claim that precedes the transaction is one PutItem of an item under 1 KB: 1 write unit.
  const claim = 1;
  const idempotency = {
    withoutKey,
    withKey,
    claim,
    extra: withKey - withoutKey + claim,
    reportedWithout: without.reported,
    reportedWith: withKeyed.reported,
  };
  const [small, large] = feed as [SyncFigures['feed'][number], SyncFigures['feed'][number]];
  return { cursor, problems, feed, feedRatio: large.readUnits / small.readUnits, idempotency } satisfies SyncFigures;
}

/** The figures as the report's section. */
export function syncReport(f: SyncFigures): string[] {
  return [
    '## Sync (issue 25)',
    '',
    '| what | first | deep | ratio |',
    '|---|---|---|---|',
    ...f.cursor.map(
      (c) =>
        `| cursor page \`${c.query}\` at depth ${c.depth} (read units) | ${c.first} | ${c.deep} | ${c.ratio.toFixed(2)} |`,
    ),
    `| the cursor walks: no action twice, skip's page at depth ${f.cursor.map((c) => c.skipDepth ?? 'none (the budget refuses so deep a skip)').join(' and ')} the same | | | ${f.problems.length === 0 ? 'yes' : `NO: ${f.problems.join('; ')}`} |`,
    ...f.feed.map(
      (x) =>
        `| change-feed page of 100 with ${x.entries} entries stored | ${x.readUnits} read units | ${x.itemsRead} entries read | |`,
    ),
    `| change-feed page, larger / smaller feed | | | ${f.feedRatio.toFixed(2)} |`,
    `| create without / with Idempotency-Key (write units by DynamoDB's rules, + ${f.idempotency.claim} for the claim) | ${f.idempotency.withoutKey.toFixed(1)} | ${(f.idempotency.withKey + f.idempotency.claim).toFixed(1)} | +${f.idempotency.extra.toFixed(1)} |`,
    `| the same as DynamoDB Local reports it (transaction only) | ${f.idempotency.reportedWithout.toFixed(1)} | ${f.idempotency.reportedWith.toFixed(1)} | |`,
    '',
  ];
}
