import { createAction, updateAction } from '../lib/actions/action-service';
import { openViewer } from '../lib/model/access';
import type { Person } from '../lib/model/action';
import { entriesOf, recordingIndexWrites, recordingTransactions, summarize } from '../lib/store/measure/write-cost';
import { indexChanges } from '../lib/store/search/postings';

/**
 * `npm run bench -- --index-cost`: what one create and one title edit write, all in, by
 * DynamoDB's rules (`writes.ts`): the transaction (the action, its history entry, counters, the
 * pending mark and the index entries) and the stream's side (the postings, the mark's removal
 * and the value registry's puts, only for values new to the process: the first create's), for
 * ordinary titles and for the most a caller can make one action cost (issue 42).
 */

const caller: Person = { id: 'u-bench', name: 'Bench Writer', email: null };
const distinct = (from: number, n: number, step = 1) =>
  Array.from({ length: n }, (_, i) => String.fromCodePoint(from + i * step)).join('');

const body = (title: string, reference?: string) => ({
  title,
  actionProducer: { name: 'Bench', ...(reference ? { reference } : {}) },
  dueAt: '2026-12-01T10:00:00Z',
  priority: 2,
  status: 1,
  location: { businessUnit: 'Iron Ore', site: 'North Pit' },
});

export interface IndexCostRow {
  name: string;
  transaction: number;
  postings: number;
  puts: number;
  deletes: number;
  mark: number;
  /** The value registry's puts: only for a value this process has not written yet. */
  registry: number;
  total: number;
}

async function measure(name: string, change: () => Promise<{ id: string; from: number }>): Promise<IndexCostRow> {
  let target = { id: '', from: 1 };
  const { costs } = await recordingTransactions(async () => {
    target = await change();
  });
  const t = summarize(costs);
  const transaction = t.total * t.samples;
  const entries = await entriesOf(target.id, target.from);
  const index = await recordingIndexWrites(() => indexChanges(entries));
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    name,
    transaction: round(transaction),
    postings: index.postings,
    puts: index.puts,
    deletes: index.deletes,
    mark: index.mark,
    registry: index.registry,
    total: round(transaction + index.postings + index.mark + index.registry),
  };
}

const create = (title: string, reference?: string) => async () => ({
  id: (await createAction(caller, body(title, reference))).id,
  from: 1,
});

const edit = (title: string, next: string, reference?: string) => async () => {
  const { id } = await createAction(caller, body(title, reference));
  await indexChanges(await entriesOf(id, 1));
  await updateAction({ caller, viewer: openViewer(caller) }, id, { title: next }, undefined);
  return { id, from: 2 };
};

/**
 * `n` characters that each grow under NFC or case folding into two to four code points (Hebrew
 * presentation forms, musical symbols, Devanagari nukta letters, Greek with ypogegrammeni), in an
 * order that makes nearly every gram distinct: the most postings a reference can make.
 */
function growing(n: number): string {
  const pool = [
    ...Array.from({ length: 0xfb4e - 0xfb1d + 1 }, (_, i) => 0xfb1d + i),
    ...Array.from({ length: 7 }, (_, i) => 0x1d15e + i),
    ...Array.from({ length: 8 }, (_, i) => 0x958 + i),
    ...Array.from({ length: 48 }, (_, i) => 0x1f80 + i),
  ]
    .map((c) => String.fromCodePoint(c))
    .filter((c) => [...c.normalize('NFD')].length > 1);
  let seed = 7;
  let text = '';
  while (text.length < n) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const next = pool[seed % pool.length] as string;
    if (text.length + next.length <= n) text += next;
    else text += 'x';
  }
  return text;
}

/** The measurements, one row each. */
export async function measureIndexCost(): Promise<IndexCostRow[]> {
  const forty = 'Guard missing on tail pulley, conveyor 3';
  const words = 'belt guard missing on tail pulley near the crusher conveyor return idler ';
  const long = words.repeat(3).slice(0, 200);
  const emoji = distinct(0x1f300, 100);
  const symbols = distinct(0x2600, 200);
  const expanding = growing(200);
  const cjk = distinct(0x4e00, 200);
  const hangul = distinct(0xac00, 200, 7);
  return [
    await measure('create, 40-character title', create(forty)),
    await measure('create, 200-character title', create(long)),
    await measure('create, 100 emoji title, 200 growing reference', create(emoji, expanding)),
    await measure('create, 200 symbols title, 200 growing reference (issue 42)', create(symbols, expanding)),
    await measure('create, 200 distinct CJK title and reference (the most grams)', create(cjk, hangul)),
    await measure(
      'edit: one character of a 200-character title',
      edit(long, `${long.slice(0, 100)}X${long.slice(101)}`),
    ),
    await measure('edit: a 40-character title, one word', edit(forty, forty.replace('tail', 'head'))),
    await measure('edit: every character of a 200 distinct CJK title', edit(cjk, distinct(0x5e00, 200))),
    await measure(
      'edit: every character of a 200 symbols title, 200 growing reference',
      edit(symbols, distinct(0x2700, 200), expanding),
    ),
  ];
}

/** The rows as a Markdown table. */
export const indexCostTable = (rows: IndexCostRow[]) =>
  [
    '| write | transaction | postings (puts + deletes) | mark removal | registry (new values) | total |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.transaction} | ${r.postings} (${r.puts} + ${r.deletes}) | ${r.mark} | ${r.registry} | ${r.total} |`,
    ),
  ].join('\n');
