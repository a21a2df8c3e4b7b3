import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getReminderSettings } from '../../config';
import { inPool } from '../../flow/fan-out';
import type { Action, Person } from '../../model/action';
import type { RecordedEntry } from '../../model/history';
import { settleClosedAt } from '../../model/reminders';
import { createdItems } from '../actions/writes';
import { batchGet, batchWrite } from '../batch';
import { send, tableName } from '../client';
import { addExpression } from '../counters/add';
import { cellId, cellKey, cellOf, countAttribute, counterMoves } from '../counters/counters';
import { addDayCounts, addDays, type DayDeltas } from '../counters/days';
import { historyItem, type Item, toItem } from '../item';
import { referenceEntry } from '../reference-order';
import { registerActions } from '../registry';
import { indexedText } from '../search/keys';
import { writePostingsInBulk } from '../search/postings';
import { attr, itemKind } from '../table';

/**
 * The one bulk load of actions, for `npm run seed`, the benchmark, the latency check and the
 * stacks that scripts and tests seed: BatchWriteItem (`../batch.ts`), 25 items a request with a
 * few requests in flight, instead of one transaction per action (about 80 a second on DynamoDB
 * Local). A created action is stored with the items a create writes (`createdItems`, the single
 * create's own code: the action with its create token and last entry's time, and its `created`
 * entry); the counter moves are the service's own (`counterMoves`), summed in memory and added
 * once at the end, one ADD per counter on its shard 00 (where `npm run recount -- --fix` adds
 * too). A count is the sum of its shards, so where the load puts a move does not change it; the
 * service's own writes spread over the shards to keep concurrent transactions apart, and a load
 * has none. One item per counter, not one per counter and shard: a third of a 1,000-action load's
 * time went to 9,151 ADDs, 16 a counter.
 *
 * What it gives up for the speed, which is why the service's own writes never use it:
 * - no transaction: the items land before their counters, so a load cut short leaves counters
 *   behind the actions (`npm run recount -- --fix` repairs that);
 * - no condition on the put: it skips ids already stored (live or deleted) by reading them
 *   first, so nothing else may create the same ids while it runs (a producer's event with a
 *   reference the load also writes). Bulk data is made for an otherwise quiet store.
 */

export interface BulkAction {
  action: Action;
  /**
   * Who created it: the action is stored as a create stores it, with its `created` entry.
   * Without one it is stored as it stands (`toItem`) with no history: the benchmark's actions,
   * states that edits left them in, whose history it does not model (it measures the change feed
   * with entries of its own). Their last entry's time is their `updatedAt`, which `nextStamp`
   * falls back on, and no create of theirs is ever retried, so they need neither attribute; and
   * the benchmark's figures are of these items, so adding either would move them.
   */
  actor?: Person;
}

/** What a bulk load did. */
export interface BulkSummary {
  /** Actions written. */
  written: number;
  /** Actions skipped because their id was already stored (loading twice adds nothing). */
  existed: number;
  /** Counter items the load moved (one per counter). */
  counterItems: number;
  /** Milliseconds spent in each phase, summed over the workers (they overlap): where the time goes. */
  phases: Record<'lookup' | 'items' | 'postings' | 'counters', number>;
}

/** Told as the load goes, for a progress bar. */
export interface BulkProgress {
  /** `n` more actions are done (written or skipped). */
  written?(n: number): void;
  /** Every action is done; `counters` counters are to be moved now. */
  counting?(counters: number): void;
  /** One more counter is moved. */
  counted?(): void;
}

/** Actions a worker takes at once: one BatchGetItem to find the stored ones, then their puts. */
const CHUNK = 25;
/**
 * Workers in flight at once. DynamoDB Local is one process that serves every request of the
 * stack; a few dozen batches at once only queue there until they time out.
 */
const IN_FLIGHT = 4;
/** A load would rather wait out a long throttle than stop halfway. */
const MAX_ATTEMPTS = 20;

/** The ids among `ids` that hold an action or a deleted one's tombstone. */
async function storedIds(ids: string[]): Promise<Set<string>> {
  const { items } = await batchGet(
    ids.map((id) => ({ [attr.id]: id, [attr.sortKey]: itemKind.action })),
    { consistent: true, attributes: [attr.id], maxAttempts: MAX_ATTEMPTS },
  );
  return new Set(items.map((item) => item[attr.id] as string));
}

/** What the load stores for one action. */
function itemsOf({ action, actor }: BulkAction): Item[] {
  if (!actor) return [toItem(action)];
  const { item, entry } = createdItems(action, actor, randomUUID());
  return [item, historyItem(entry)];
}

export interface BulkOptions {
  /**
   * Write each action's search postings (the default): 33 of the 35 items an action takes, so
   * about four fifths of a load's time. Only data no query will search may go without (a
   * benchmark of lists alone); `npm run recount` reports such actions, and `--fix` indexes them.
   */
  postings?: boolean;
}

/** Stores the actions whose ids are free, then adds their counters. */
export async function writeInBulk(
  actions: Iterable<BulkAction>,
  progress?: BulkProgress,
  options: BulkOptions = {},
): Promise<BulkSummary> {
  const iterator = actions[Symbol.iterator]();
  const nextChunk = () => {
    const chunk: BulkAction[] = [];
    for (let r = iterator.next(); !r.done; r = iterator.next()) {
      chunk.push(r.value);
      if (chunk.length === CHUNK) break;
    }
    return chunk.length > 0 ? chunk : undefined;
  };
  /** Counter key -> the change to add. */
  const deltas = new Map<string, number>();
  const days: DayDeltas = new Map();
  const summary: BulkSummary = {
    written: 0,
    existed: 0,
    counterItems: 0,
    phases: { lookup: 0, items: 0, postings: 0, counters: 0 },
  };
  const timed = async <T>(phase: keyof BulkSummary['phases'], work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      summary.phases[phase] += performance.now() - started;
    }
  };
  await inPool(IN_FLIGHT, nextChunk, async (chunk) => {
    const taken = await timed('lookup', () => storedIds(chunk.map((b) => b.action.id)));
    // Each as a create settles it: closed, it has its `closedAt` (its own, or its creation time).
    const fresh = chunk
      .filter((b) => !taken.has(b.action.id))
      .map((b) => ({ ...b, action: settleClosedAt(undefined, b.action, b.action.createdAt, getReminderSettings()) }));
    // Each with its entry in reference order (`../reference-order.ts`), as a create writes it.
    const items = fresh.flatMap((b) => [...itemsOf(b), referenceEntry(b.action)]);
    await timed('items', () => batchWrite(items, { maxAttempts: MAX_ATTEMPTS }));
    // Their search postings too: a bulk load has no stream consumer waiting on a pending mark.
    if (options.postings !== false)
      await timed('postings', () => writePostingsInBulk(fresh.map(({ action }) => ({ after: indexedText(action) }))));
    // Their values in the registry (`../registry.ts`), also when postings are left out: lists need them.
    await timed('postings', () => registerActions(fresh.map(({ action }) => action)));
    for (const { action } of fresh) {
      addDays(days, action, 1);
      for (const move of counterMoves(undefined, action))
        deltas.set(cellId(move), (deltas.get(cellId(move)) ?? 0) + move.delta);
    }
    summary.written += fresh.length;
    summary.existed += chunk.length - fresh.length;
    progress?.written?.(chunk.length);
  });

  const moves = [...deltas].filter(([, delta]) => delta !== 0);
  summary.counterItems = moves.length;
  progress?.counting?.(moves.length);
  const counting = performance.now();
  await inPool(
    IN_FLIGHT * 2,
    () => moves.pop(),
    async ([id, delta]) => {
      const cell = cellOf(id);
      await send(
        new UpdateCommand({
          TableName: tableName(),
          Key: cellKey(cell),
          ...addExpression([[countAttribute(cell), delta]]),
        }),
      );
      progress?.counted?.();
    },
  );
  summary.counterItems += await addDayCounts(days);
  summary.phases.counters += performance.now() - counting;
  return summary;
}

/** Marks a bulk load in progress: left behind when the load is cut short. */
const loadMark = { [attr.id]: 'm#bulk-load', [attr.sortKey]: 'm' };

/**
 * Starts a bulk load that can resume: `true` when an earlier one was cut short (its mark is
 * still there), so the caller repairs what a cut leaves (counters behind the actions, actions
 * without postings: `npm run recount -- --fix`'s `recount({ fix: true })`) once this one ends.
 */
export async function beginBulkLoad(): Promise<boolean> {
  const { Attributes } = await send<{ Attributes?: Item }>(
    new PutCommand({
      TableName: tableName(),
      Item: { ...loadMark, at: new Date().toISOString() },
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

/** Ends a bulk load that finished (and, if it resumed one, repaired it). */
export async function endBulkLoad(): Promise<void> {
  await send(new DeleteCommand({ TableName: tableName(), Key: loadMark }));
}

/**
 * Writes history entries as they are stored (with their change-feed keys), for the benchmark's
 * change-feed pages. Not the service's path: no action item or version moves.
 */
export async function writeHistoryInBulk(entries: readonly RecordedEntry[]): Promise<void> {
  await batchWrite(
    entries.map((entry) => historyItem(entry)),
    { maxAttempts: MAX_ATTEMPTS },
  );
}
