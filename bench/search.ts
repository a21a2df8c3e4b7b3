import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localEnvironment } from '../infra/local/stack';
import { startStore } from '../infra/local/store';
import { parseListQuery } from '../lib/filter/query';
import type { Action } from '../lib/model/action';
import { toView } from '../lib/model/view';
import { putNewAction } from '../lib/store/actions/writes';
import { listActions } from '../lib/store/list/run/open';
import { itemBytes, stored, writeUnitsOf } from '../lib/store/measure/item-size';
import { recordingTransactions, summarize } from '../lib/store/measure/write-cost';
import { createdKeyOf, foldedTexts, indexedText } from '../lib/store/search/keys';
import { indexChanges, postingRequests } from '../lib/store/search/postings';
import { actionAt, generateActions, writeActions } from './generate';
import { world } from './world';

/**
 * `npm run bench:search [-- --actions N] [--disk]`: what search costs (issue 31 item 3). Seeds N
 * generated actions (their postings too), then creates a needle through the service's own write
 * path and measures, by DynamoDB's rules:
 * - the create's transaction (its pending mark included) and what the stream then writes for it
 *   (one posting per gram, the mark's removal), for a generated title, a 40- and a 200-character one;
 * - the read units of `title=*<fragment of the needle>` before the stream indexed it (the mark
 *   answers) and after (the postings answer), of `title=*<common word>` (a first page, its count
 *   exact or a lower bound) and of `actionProducer.reference=*<fragment of one reference>`.
 * Targets (issue 31): the needle at most 10 read units at 100,000; the common word's first page
 * at most 25; a create at most 100 write units with its postings.
 */

const { values: args } = parseArgs({
  options: { actions: { type: 'string', default: '10000' }, disk: { type: 'boolean', default: false } },
});
const ACTIONS = Number(args.actions);
const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
const store = await startStore(args.disk ? { path: join(dataDir, 'dynamodb') } : {});
Object.assign(process.env, localEnvironment(dataDir, store.endpoint), { LOG_LEVEL: 'silent' });

const w = world(1);
const seeded = await writeActions(generateActions(ACTIONS, 1, w), ACTIONS, `seeding ${ACTIONS} actions with postings`);

/** Write units of what the stream writes for a new action: its postings, and the removal of its mark. */
function streamUnits(action: Action): { postings: number; units: number } {
  const text = indexedText(action);
  const requests = postingRequests(createdKeyOf(text), undefined, foldedTexts(text));
  const units = requests.reduce((s, r) => s + writeUnitsOf(itemBytes(stored(r.PutRequest?.Item ?? {}))), 0);
  return { postings: requests.length, units: units + 1 };
}

/** Creates `action` through the service's write path; its transaction's units, and then the stream's part. */
async function createMeasured(action: Action) {
  const { costs } = await recordingTransactions(() => putNewAction(action, action.owner));
  const transaction = summarize(costs);
  const stream = streamUnits(action);
  return {
    transaction: transaction.total,
    // The transaction's items besides the action, its entry and its counters: the pending mark.
    mark:
      Math.round(
        (transaction.total - transaction.item - transaction.history - transaction.counters - transaction.indexes) * 100,
      ) / 100,
    ...stream,
    total: transaction.total + stream.units,
  };
}

async function measure(query: string) {
  const result = await listActions(parseListQuery(query));
  return {
    query,
    readUnits: result.stats.readUnits,
    entries: result.stats.indexEntries,
    requests: result.stats.requests,
    page: result.actions.length,
    totalCount: result.totalCount,
    relation: result.totalCountRelation ?? 'eq',
    servedBy: result.index,
  };
}

const now = new Date().toISOString();
const like = (index: number, title: string, reference?: string): Action => {
  const base = actionAt(w, index, 1);
  return {
    ...base,
    id: crypto.randomUUID(),
    title,
    actionProducer: { ...base.actionProducer, ...(reference ? { reference } : {}) },
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
};
const needle = like(1, 'Inspect QZX-7731 relief valve', 'NDL-4242-QZX');
const created = await createMeasured(needle);
const entry = {
  actionId: needle.id,
  version: 1,
  type: 'created' as const,
  actor: needle.owner,
  time: now,
  action: toView(needle),
};

const reports: Array<Record<string, unknown>> = [];
reports.push({
  step: 'needle, before the stream indexed it (its pending mark answers)',
  ...(await measure('title=*qzx-7731')),
});
await indexChanges([entry]);
const common = (w.vocabulary.verbs[0] as string).toLowerCase();
for (const query of [
  'title=*qzx-7731',
  'title=*QZX',
  `title=*qzx-7731&status=${needle.status}`,
  'actionProducer.reference=*4242-q',
  `title=*${common}`,
  `title=*${common}&limit=0`,
  `title=*${common}&sort=createdAt`,
  `title=*${(w.vocabulary.objects[0] as string).slice(0, 8)}`,
])
  reports.push({ step: 'indexed', ...(await measure(query)) });

const generated = actionAt(w, 7, 1);
const writes = {
  needle: { title: needle.title, ...created },
  generated: {
    title: generated.title,
    ...(await createMeasured(like(7, generated.title, generated.actionProducer.reference))),
  },
  forty: await createMeasured(like(8, 'Replace worn conveyor belt at North Pit 2')),
  twoHundred: await createMeasured(
    like(
      9,
      'Replace the worn conveyor belt splice on CV-12 at the North Pit crusher after the 3 May inspection found fraying, loose guard rail bolts and a seized idler; isolate, lock out and tag out before work starts'.slice(
        0,
        200,
      ),
    ),
  ),
};
console.log(JSON.stringify({ actions: ACTIONS, seededSeconds: seeded.seconds, reads: reports, writes }, null, 2));
await store.close();
rmSync(dataDir, { recursive: true, force: true });
