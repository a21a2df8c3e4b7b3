import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { postingsTableName, send, tableName } from '../client';
import { fromItem, type Item, isActionItem, isTombstone } from '../item';
import { type RegisteredField, registerValues, registryPartition, registryValues } from '../registry';
import { scanTable, segmentsForTable } from '../scan';
import { type PostingDrift, postingProof, repairPostings } from '../search/prove';
import { attr } from '../table';
import { addExpression } from './add';
import { type CounterCell, cellId, cellKey, cellOf, countAttribute, counterCells, countsOfItem } from './counters';
import { dayTally, isDayDrift, repairDays } from './days';

/**
 * Recomputes every counter from the actions themselves and compares it with what the counters
 * hold. Counters move only inside the transactions that change the items they count, so any
 * drift means a bug (or a hand edit); `fix` repairs it by adding the difference to one shard.
 * The same scan proves the search postings (`../search/prove.ts`): every live action's postings
 * are what its texts make, and none outlives its action; `fix` repairs those too. And the value
 * registry (`../registry.ts`): every value some action has is registered; `fix` registers the
 * ones missing (so a table deployed before the registry gets it).
 */

export interface Drift {
  /** The counter's partition, and the status of the cell when it is kept by status (or its value, in a shared one). */
  counter: string;
  status?: string;
  member?: string;
  /** The item's attribute that holds it, when not `n` (a location field's "no value"). */
  attribute?: string;
  stored: number;
  actual: number;
}

export interface RecountReport {
  actions: number;
  counters: number;
  drift: Drift[];
  /** Actions whose postings differ, and created keys with postings but no action. */
  postings: PostingDrift;
  /** Values some action has that the value registry lacks. */
  unregistered: number;
  fixed: boolean;
  /**
   * The store changed under every scan (three, each unlike the one before): what differed may
   * be writes under way rather than drift, so nothing was repaired. Run again when it is quiet.
   */
  unsettled: boolean;
}

/**
 * Every item of the table, then of the postings' table, a page at a time, each in parallel
 * segments sized by its item count (`../scan.ts`), as the store upgrade scans: pages of different
 * segments come in no set order, and nothing here depends on it (counts and digests are sums,
 * what differs is sorted).
 */
async function scanAll(each: (item: Item) => void, onPage?: (items: number) => void): Promise<void> {
  for (const table of [tableName(), postingsTableName()])
    await scanTable(
      (items) => {
        for (const item of items) each(item);
        onPage?.(items.length);
      },
      { table, segments: await segmentsForTable(table) },
    );
}

export interface RecountOptions {
  fix?: boolean;
  /** Told after each page of the scan how many items it held (for a progress line). */
  onScanned?: (items: number) => void;
}

/** What one scan found: the actions, the counters and where they differ. */
interface Pass {
  actions: number;
  counters: number;
  drift: Drift[];
  postings: PostingDrift;
  unregistered: Array<[RegisteredField, string]>;
  /** Every counter's stored and counted value and every posting difference, as one string. */
  seen: string;
}

async function pass(onScanned?: (items: number) => void): Promise<Pass> {
  const actual = new Map<string, number>();
  const stored = new Map<string, number>();
  let actions = 0;
  const proof = postingProof();
  /** Registry entries, `<partition>\u0000<value>`, as the actions make them and as stored. */
  const values = new Map<string, [RegisteredField, string]>();
  const registered = new Set<string>();
  const days = dayTally();
  await scanAll((item) => {
    proof.see(item);
    if (days.stored(item)) return;
    const id = item[attr.id] as string;
    if (id.startsWith('v#')) registered.add(`${id}\u0000${item[attr.sortKey]}`);
    else if (id.startsWith('n#')) {
      for (const [cell, n] of countsOfItem(item)) stored.set(cellId(cell), (stored.get(cellId(cell)) ?? 0) + n);
    } else if (isActionItem(item) && !isTombstone(item)) {
      actions++;
      const action = fromItem(item);
      days.count(action);
      for (const [field, value] of registryValues(action))
        values.set(`${registryPartition(field)}\u0000${value}`, [field, value]);
      for (const cell of counterCells(action).map(cellId)) actual.set(cell, (actual.get(cell) ?? 0) + 1);
    }
  }, onScanned);
  const drift: Drift[] = [];
  const seen: string[] = [];
  for (const counter of [...new Set([...actual.keys(), ...stored.keys()])].sort()) {
    const a = actual.get(counter) ?? 0;
    const s = stored.get(counter) ?? 0;
    seen.push(`${counter}=${s}/${a}`);
    if (a === s) continue;
    const { key, ...cell } = cellOf(counter);
    drift.push({ counter: key, ...cell, stored: s, actual: a });
  }
  for (const d of days.drift()) {
    seen.push(`${d.counter}=${d.stored}/${d.actual}`);
    drift.push(d);
  }
  const postings = proof.drift();
  seen.push(...postings.actions.map((key) => `a ${key}`), ...postings.orphans.map((key) => `o ${key}`));
  const unregistered = [...values].filter(([key]) => !registered.has(key)).sort(([a], [b]) => (a < b ? -1 : 1));
  seen.push(...unregistered.map(([key]) => `v ${key}`));
  return {
    actions,
    counters: stored.size,
    drift,
    postings,
    unregistered: unregistered.map(([, value]) => value),
    seen: seen.join('\n'),
  };
}

const drifted = (p: Pass) =>
  p.drift.length + p.postings.actions.length + p.postings.orphans.length + p.unregistered.length;

/** Scans before a repair; see `settled`. */
const MAX_PASSES = 3;

/**
 * A scan is no snapshot: on a store in use (a create, a sweep marking an action overdue, the
 * stream writing an edit's postings) it can read a counter before a transaction and the action
 * after it, and see a difference that is gone a moment later. A repair of such a difference would
 * make the drift it meant to mend (test/integration/recount-postings.test.ts saw it). So a scan
 * that finds drift is scanned again, and the drift is believed only when two scans in a row saw
 * the same store: every counter's stored and counted value alike, the same postings differing.
 * A store that changes under every scan is reported `unsettled` and left alone.
 */
async function settled(onScanned?: (items: number) => void): Promise<{ found: Pass; unsettled: boolean }> {
  let found = await pass(onScanned);
  for (let passes = 1; drifted(found) > 0; passes++) {
    if (passes === MAX_PASSES) return { found, unsettled: true };
    const again = await pass(onScanned);
    if (again.seen === found.seen) return { found: again, unsettled: false };
    found = again;
  }
  return { found, unsettled: false };
}

export async function recount(options: RecountOptions = {}): Promise<RecountReport> {
  const { found, unsettled } = await settled(options.onScanned);
  const { drift, postings } = found;
  const fix = Boolean(options.fix) && !unsettled;
  if (fix) {
    await repairPostings(postings, (each) => scanAll(each));
    await registerValues(found.unregistered);
    await repairDays(drift);
    for (const d of drift.filter((d) => !isDayDrift(d))) {
      const cell = { key: d.counter, status: d.status, member: d.member, attribute: d.attribute } as CounterCell;
      await send(
        new UpdateCommand({
          TableName: tableName(),
          Key: cellKey(cell),
          ...addExpression([[countAttribute(cell), d.actual - d.stored]]),
        }),
      );
    }
  }
  return {
    actions: found.actions,
    counters: found.counters,
    drift,
    postings,
    unregistered: found.unregistered.length,
    fixed: fix && drifted(found) > 0,
    unsettled,
  };
}
