import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, fail } from '../infra/command-line';
import { localEnvironment } from '../infra/local/stack';
import { startStore } from '../infra/local/store';
import { updateAction } from '../lib/actions/action-service';
import { countActions, type overdueAges, overdueAgeTerms } from '../lib/actions/counts';
import { groupedFields } from '../lib/filter/fields';
import { parseListTerms } from '../lib/filter/query';
import { openViewer, type Scope, type Viewer } from '../lib/model/access';
import type { Action } from '../lib/model/action';
import { putNewAction } from '../lib/store/actions/writes';
import { listVisible } from '../lib/store/list/entry';
import { newStats } from '../lib/store/list/plan/result';
import { entriesOf, recordingTransactions, summarize, type TransactionCost } from '../lib/store/measure/write-cost';
import { countTrends } from '../lib/trends/trend-stream';
import { actionAt, generateActions, writeActions } from './generate';
import { world as buildWorld } from './world';

/**
 * `npm run bench:counts [-- --actions N]`: what `GET /api/actions/counts` costs (contract section
 * 17, "Cost": grouped by a counted field it reads at most 25 read units plus 1 per group returned,
 * with up to 20 scopes). Seeds N actions (their counters and registry, through the bulk writer,
 * into a store of its own), then counts by every `by` field and two pairs, in open mode and for a
 * person with 1, 5 and 20 site scopes, through `countActions` itself (what the handler runs), and
 * reports each answer's read units (DynamoDB Local's `ReturnConsumedCapacity`, every read of the
 * request: counters, registry, index entries, labels), its groups, whether it is complete and
 * exact, and its time (on a loaded machine), against the bound. The three largest groups of each
 * answer are checked against the list's own `totalCount` with the group's filter (the rule a
 * client can check). Then it measures what a create and a close write (`lib/store/measure/write-cost.ts`), what
 * of that is `closedAt`'s alone, and what the trend counters the stream consumer keeps add
 * (`countTrends` on the change's history entries). Writes bench/results/counts-<N>.md, with the
 * ratio to the other size's results where they exist; exits 1 when an answer is over the bound,
 * incomplete or differs from its list.
 */

const { values: args } = commandLine(
  `usage: npm run bench:counts [-- --actions <n>]

Seeds --actions (default 10000) actions into a store of its own (in memory) and measures the read
units of counts by every field, open and for people with 1, 5 and 20 site scopes.`,
  { actions: { type: 'string', default: '10000' } },
);
const ACTIONS = Number(args.actions);
if (!Number.isSafeInteger(ACTIONS) || ACTIONS < 100) fail('--actions must be an integer of at least 100.');
const SEED = 37;

const dataDir = mkdtempSync(join(tmpdir(), 'actions-bench-counts-'));
const store = await startStore({});
Object.assign(process.env, localEnvironment(dataDir, store.endpoint), { LOG_LEVEL: 'silent' });

const world = buildWorld(SEED);
const actions: Action[] = [...generateActions(ACTIONS, SEED, world)].map((a) => ({ ...a, initiator: a.owner }));
const seeding = Date.now();
await writeActions(actions, ACTIONS, `seeding ${ACTIONS} actions`);
const seededSeconds = (Date.now() - seeding) / 1000;

const sites = [
  ...new Map(actions.map((a) => [`${a.location.businessUnit}\u0000${a.location.site}`, a.location])).values(),
];
const person = actions[0]?.assignee?.id ?? (actions[0]?.owner.id as string);
const viewerWith = (count: number): Viewer => {
  const scopes: Scope[] = Array.from({ length: count }, (_, i) => {
    const at = sites[(i * 7) % sites.length] as Action['location'];
    return { businessUnit: at.businessUnit, site: at.site };
  });
  return { mode: 'scoped', person: { id: person }, roles: scopes.map((scope) => ({ role: 'viewer', scope })) };
};
/** A business unit's viewer: the unit of the first site. */
const unitViewer: Viewer = {
  mode: 'scoped',
  person: { id: person },
  roles: [{ role: 'viewer', scope: { businessUnit: (sites[0] as Action['location']).businessUnit } }],
};
const viewers: Array<[string, Viewer | undefined]> = [
  ['open', undefined],
  ['1 business unit', unitViewer],
  ['1 scope', viewerWith(1)],
  ['5 scopes', viewerWith(5)],
  ['20 scopes', viewerWith(20)],
];
const bys: string[][] = [
  ...[...groupedFields, 'overdueAge'].map((f) => [f]),
  ['location.site', 'status'],
  ['assignee', 'overdueAge'],
];

/** The list filters of one group's value (`overdueAge` as its terms), as `parseListTerms` takes them. */
const groupTerms = (field: string, value: string): Array<[string, string]> =>
  field === 'overdueAge' ? overdueAgeTerms(value as (typeof overdueAges)[number], Date.now()) : [[field, `=${value}`]];

interface Row {
  viewer: string;
  by: string;
  readUnits: number;
  requests: number;
  groups: number;
  bound: number;
  ms: number;
  complete: boolean;
  exact: boolean;
}

const rows: Row[] = [];
const other = ACTIONS === 10_000 ? 100_000 : ACTIONS === 100_000 ? 10_000 : undefined;
const otherFile = other === undefined ? undefined : join(import.meta.dirname, 'results', `counts-${other}.json`);
const before: Row[] | undefined =
  otherFile && existsSync(otherFile)
    ? (JSON.parse(readFileSync(otherFile, 'utf8')) as { rows: Row[] }).rows
    : undefined;
const ratioOf = (row: Row): string => {
  const small = ACTIONS > (other ?? 0) ? before : undefined;
  const match = small?.find((r) => r.viewer === row.viewer && r.by === row.by);
  if (!match) return '-';
  return match.readUnits === 0 ? '-' : `${(row.readUnits / match.readUnits).toFixed(2)}x`;
};
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });

function introduction(): string[] {
  return [
    `# Counts by group at ${ACTIONS} actions`,
    '',
    `\`npm run bench:counts -- --actions ${ACTIONS}\`, ${new Date().toISOString()}. Seeded in ${seededSeconds.toFixed(0)} s (bulk load); ${sites.length} sites. Read units are DynamoDB Local's, of every read a count made (counters, registry, index entries, labels); times are floors on the shared 2-core machine. The bound is contract section 17's: 25 read units plus 1 per group returned (limit 100). "exact": \`totalCount\` is \`eq\`, the groups and \`otherCount\` add up to it, and the 3 largest groups equal the list's \`totalCount\` with their filter.`,
  ];
}

function countsTable(): string[] {
  return [
    `| caller | by | read units | requests | groups | bound | within | complete, exact | ms | ratio to ${other ?? '-'} |`,
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.viewer} | ${r.by} | ${r.readUnits} | ${r.requests} | ${r.groups} | ${r.bound} | ${r.readUnits <= r.bound ? 'yes' : '**over**'} | ${r.complete && r.exact ? 'yes' : '**NO**'} | ${r.ms} | ${ratioOf(r)} |`,
    ),
  ];
}

/** The rows so far, written after each: a long run cut short still leaves its numbers. */
function writePartial(): void {
  const note = '**Partial**: the run was still counting when this was written.';
  writeFileSync(join(dir, `counts-${ACTIONS}.md`), [...introduction(), '', note, '', ...countsTable(), ''].join('\n'));
}

for (const [label, viewer] of viewers) {
  for (const by of bys) {
    process.stderr.write(`counts by ${by.join(' and ')}, ${label}...\n`);
    const stats = newStats();
    const started = Date.now();
    const answer = await countActions(
      by.map((b) => `by=${b}`).join('&'),
      { id: person },
      viewer ?? openViewer({ id: person }),
      undefined,
      stats,
    );
    const ms = Date.now() - started;
    const shown = answer.groups.reduce((s, g) => s + g.count, 0);
    let exact = answer.totalCountRelation === 'eq' && shown + answer.otherCount === answer.totalCount;
    // The rule a client can check, on the largest groups: the list's own count with the group's filters.
    for (const group of answer.groups.slice(0, 3)) {
      const terms = by.flatMap((b) => groupTerms(b, group.key[b] as string));
      const list = await listVisible(parseListTerms([...terms, ['limit', '0']], person), undefined, viewer);
      if (list.totalCount !== group.count || list.totalCountRelation !== 'eq') exact = false;
    }
    rows.push({
      viewer: label,
      by: by.join(' + '),
      readUnits: Math.round(stats.readUnits * 10) / 10,
      requests: stats.requests,
      groups: answer.groups.length,
      bound: 25 + answer.groups.length,
      ms,
      complete: answer.complete !== false,
      exact,
    });
    process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
    writePartial();
  }
}

// ---- what a create and a close write ----------------------------------------------------

const SAMPLES = 20;
/** Write units of day-counter items whose every attribute added is `closedAt`'s (`x`): what `closedAt` alone adds. */
const closedAtOnly = (costs: TransactionCost[]) => costs.reduce((s, c) => s + c.closedAtOnly, 0) / costs.length;
const created: Action[] = [];
const creates = await recordingTransactions(async () => {
  for (let i = 0; i < SAMPLES; i++) {
    const action = { ...actionAt(world, ACTIONS + i, SEED), status: 1 };
    const now = new Date().toISOString();
    const fresh = { ...action, createdAt: now, updatedAt: now, closedAt: null };
    await putNewAction(fresh, fresh.owner);
    created.push(fresh);
  }
});
// A close of an action last changed on an earlier day (a seeded one), and of one created today.
const open = actions.filter((a) => a.status === 1 || a.status === 2).slice(0, SAMPLES);
const closeOld = await recordingTransactions(async () => {
  for (const a of open)
    await updateAction({ caller: a.owner, viewer: openViewer(a.owner) }, a.id, { status: 3 }, undefined);
});
const closeNew = await recordingTransactions(async () => {
  for (const a of created)
    await updateAction({ caller: a.owner, viewer: openViewer(a.owner) }, a.id, { status: 3 }, undefined);
});
// The trend counters: what the stream consumer's `countTrends` writes for each change's entry.
const trendCost = async (entries: Awaited<ReturnType<typeof entriesOf>>) =>
  (await recordingTransactions(() => countTrends(entries))).costs;
const trendCreates: TransactionCost[] = [];
const trendCloses: TransactionCost[] = [];
for (const a of created) {
  const entries = await entriesOf(a.id, 1);
  trendCreates.push(...(await trendCost(entries.filter((e) => e.type === 'created'))));
  trendCloses.push(...(await trendCost(entries.filter((e) => e.type !== 'created'))));
}
const per = (costs: TransactionCost[], n: number) =>
  Math.round((costs.reduce((s, c) => s + c.item + c.history + c.counters + c.other + c.indexes, 0) / n) * 10) / 10;

await store.close();
rmSync(dataDir, { recursive: true, force: true });

// ---- the report ----------------------------------------------------------------------------

const over = rows.filter((r) => r.readUnits > r.bound);
const wrong = rows.filter((r) => !r.complete || !r.exact);
const create = summarize(creates.costs);
const lines = [
  ...introduction(),
  '',
  ...countsTable(),
  '',
  `${over.length} of ${rows.length} answers over the bound; ${wrong.length} incomplete or not exact. Slowest: ${Math.max(...rows.map((r) => r.ms))} ms.`,
  '',
  '## What a create and a close write',
  '',
  `Write units by DynamoDB's rules (\`lib/store/measure/write-cost.ts\`), mean of ${SAMPLES}. "closedAt alone": the day-counter items of the transaction whose every added attribute is \`closedAt\`'s (\`x\`), which the change would not write without it; the trend counters are what the stream consumer's \`countTrends\` writes for the change's history entry (its own transaction, after the change).`,
  '',
  '| change | write units | of which closedAt alone | trend counters (stream) |',
  '| --- | ---: | ---: | ---: |',
  `| create (open) | ${create.total} | ${closedAtOnly(creates.costs)} | ${per(trendCreates, SAMPLES)} |`,
  `| close, last changed on an earlier day | ${summarize(closeOld.costs).total} | ${closedAtOnly(closeOld.costs)} | - |`,
  `| close, created today | ${summarize(closeNew.costs).total} | ${closedAtOnly(closeNew.costs)} | ${per(trendCloses, SAMPLES)} |`,
  '',
];
writeFileSync(join(dir, `counts-${ACTIONS}.md`), lines.join('\n'));
writeFileSync(join(dir, `counts-${ACTIONS}.json`), `${JSON.stringify({ actions: ACTIONS, rows }, null, 2)}\n`);
process.stdout.write(lines.join('\n'));
if (over.length > 0 || wrong.length > 0) process.exit(1);
