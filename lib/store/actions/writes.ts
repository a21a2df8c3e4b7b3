import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getReminderSettings } from '../../config';
import { instantMs, nowIso } from '../../dates';
import {
  ConflictError,
  ForbiddenError,
  noSuchAction,
  PreconditionFailedError,
  ServiceUnavailableError,
} from '../../errors';
import { AGAIN, type RetryOptions, retry } from '../../flow/retry';
import { placementOf, type Rights, rightsOver, type Viewer } from '../../model/access';
import type { Action, Person } from '../../model/action';
import { type EntryDraft, type RecordedEntry, titleAt } from '../../model/history';
import { type ReminderSettings, settleClosedAt, settleReminders } from '../../model/reminders';
import { trendSubjectOf } from '../../model/trends';
import { etagOf, toView } from '../../model/view';
import { canBeKey, send, TransactionCancelled, tableName, transact } from '../client';
import { counterMoves, counterUpdates } from '../counters/counters';
import { dayCounterUpdates } from '../counters/days';
import { fromItem, historyItem, type Item, isTombstone, toItem, tombstone } from '../item';
import { referenceOrderWrites } from '../reference-order';
import { indexedText } from '../search/keys';
import { pendingMark } from '../search/postings';
import { attr, itemKind } from '../table';

/**
 * Every write of an action is one DynamoDB transaction: the action item under its condition,
 * the counters its change moves, its history entry (the next version, which no other write can
 * take), and whatever else the change touches (a comment). If any part cannot be written,
 * nothing is. The stream carries the history entry to the event bus (see `lib/actions/events.ts`).
 */

type TransactItem = Parameters<typeof transact>[0][number];

/** Reads the stored item of an action (or its tombstone), strongly consistent. */
export async function getItem(id: string): Promise<Item | undefined> {
  // An id no key can hold names no action; asking DynamoDB would be a ValidationException (500).
  if (!canBeKey(id)) return undefined;
  const result = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: id, [attr.sortKey]: itemKind.action },
      ConsistentRead: true,
    }),
  );
  return result.Item;
}

export async function getAction(id: string): Promise<Action | undefined> {
  const item = await getItem(id);
  return item && !isTombstone(item) ? fromItem(item) : undefined;
}

/**
 * The most an action item may weigh, as UTF-8 JSON (a little more than DynamoDB counts). DynamoDB
 * refuses items over 400 KB, and the history entry of a delete carries the whole action, so an
 * action stops growing well below that: see docs/comments-and-history.md.
 */
export const MAX_ACTION_BYTES = 300_000;

export function refuseOversized(item: Item): void {
  const bytes = Buffer.byteLength(JSON.stringify(item), 'utf8');
  if (bytes > MAX_ACTION_BYTES) {
    throw new ConflictError(
      `This change would make the action ${bytes} bytes, more than the ${MAX_ACTION_BYTES} one action can hold; remove attachments, tags, endorsements or comments, or shorten the description first.`,
    );
  }
}

const historyPut = (entry: RecordedEntry): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: historyItem(entry),
    // A version is written once: two changes can never both claim it.
    ConditionExpression: 'attribute_not_exists(#sk)',
    ExpressionAttributeNames: { '#sk': attr.sortKey },
  },
});

/**
 * How long a write keeps retrying when other writes of the same action (or of a counter it
 * shares) keep landing first. Without `If-Match` an edit applies to whatever is current, so
 * losing such a race is no reason to fail; only past this budget (well inside the API's 10 s
 * timeout) is it a 503.
 */
const CONTENTION_BUDGET_MS = 5_000;

/**
 * Endorsements and comments never conflict in meaning with one another (each adds or removes only
 * its own caller's part), so losing a race to one is only a matter of waiting a turn: every write
 * of an action takes the next version, one at a time. They wait longer, up to 8 s, still inside
 * the API's 10 s timeout with room for the last attempt.
 */
const SOCIAL_CONTENTION_BUDGET_MS = 8_000;
/**
 * Social writes back off up to this long between rounds: every round that loses costs the store a
 * transaction for nothing, so many writers spread out over the wait rather than collide in it.
 */
const SOCIAL_BACKOFF_CAP_MS = 2_000;

/** Transactions cancelled by a conflict since the process started: the concurrency tests report it. */
export const conflictStats = { conflicts: 0 };

/** A write another module adds to a change's transaction, and what it means when its condition fails. */
export interface GuardedWrite {
  write: TransactItem;
  refusal: () => Error;
}

/** The first item of a transaction after the action and its history entry: where a guarded write goes. */
const GUARDED_AT = 2;

/**
 * A write sends its transaction only while the time it stamps on its history entry is this
 * fresh; the store call is bounded by STORE_TIMEOUT_MS (5 s in AWS). So an entry is stored
 * within ~6 s of its time, inside the change feed's settle window (`lib/store/sync/feed.ts`).
 */
const STAMP_MAX_AGE_MS = 1_000;

/**
 * A new action's item (with the create's token, and its last entry's time: its creation) and its
 * `created` entry, as every create stores them: one at a time here, in batches by the seed.
 */
export function createdItems(action: Action, actor: Person, token: string, importId?: string) {
  const item = { ...toItem(action), [attr.createToken]: token, [attr.lastEntryAt]: action.createdAt };
  refuseOversized(item);
  const entry: RecordedEntry = {
    actionId: action.id,
    version: action.version,
    type: 'created',
    actor,
    time: action.createdAt,
    action: toView(action),
    sight: { after: placementOf(action), ...(importId ? { importId } : {}) },
  };
  return { item, entry };
}

/**
 * The transaction of a create: the action under the condition that its id is free (returning
 * what holds it, whose token tells a lost reply from another create), its `created` entry,
 * `guarded` at `GUARDED_AT`, the counters, day counters and reference order entry it adds, its
 * pending search mark, and last a check that each of `alsoTaken` is free too, so a condition
 * failing from there on means an older id is taken. Pure but for the table's name.
 */
export function createTransaction(
  stamped: Action,
  actor: Person,
  token: string,
  guarded: GuardedWrite | undefined,
  alsoTaken: readonly string[],
  importId?: string,
): TransactItem[] {
  const { item, entry } = createdItems(stamped, actor, token, importId);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: item,
        ConditionExpression: 'attribute_not_exists(#id)',
        ExpressionAttributeNames: { '#id': attr.id },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    historyPut(entry),
    ...(guarded ? [guarded.write] : []),
    ...counterUpdates(stamped.id, counterMoves(undefined, stamped)),
    ...dayCounterUpdates(stamped.id, undefined, stamped),
    ...referenceOrderWrites(undefined, stamped),
    pendingMark(indexedText(stamped), stamped.version),
    ...alsoTaken.map((id) => ({
      ConditionCheck: {
        TableName: tableName(),
        Key: { [attr.id]: id, [attr.sortKey]: itemKind.action },
        ConditionExpression: 'attribute_not_exists(#id)',
        ExpressionAttributeNames: { '#id': attr.id },
      },
    })),
  ];
}

/**
 * Stores a new action with its counters and its `created` entry. `false` when the id is
 * taken, by a live action or a deleted one (a producer reference claimed before), or when any
 * of `alsoTaken` is (the id an older version gave the same producer event). The first attempt
 * keeps the caller's stamp (`createdAt`, `updatedAt`) unless it is older than `STAMP_MAX_AGE_MS`;
 * every later attempt stamps the action afresh. `guarded` joins the same transaction. `importId`
 * marks a create an import made (its entry's sight carries it, for the notifier).
 */
export async function putNewAction(
  action: Action,
  actor: Person,
  guarded?: GuardedWrite,
  alsoTaken: readonly string[] = [],
  importId?: string,
): Promise<boolean> {
  const token = randomUUID();
  return retry(async (round) => {
    const now = nowIso();
    const fresh = round === 0 ? action : { ...action, createdAt: now, updatedAt: now, closedAt: null };
    const stamped = settleClosedAt(undefined, fresh, fresh.createdAt, getReminderSettings());
    const items = createTransaction(stamped, actor, token, guarded, alsoTaken, importId);
    // A first attempt stamped by a caller that took its time is stamped again.
    if (Date.now() - instantMs(stamped.createdAt) > STAMP_MAX_AGE_MS && round === 0) return AGAIN;
    try {
      await transact(items);
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (guarded && error.conditionFailed(GUARDED_AT)) throw guarded.refusal();
      // Taken? If the taker is this very call (an earlier attempt whose reply was lost), it is a
      // success; only the token tells it from an identical create by a concurrent delivery.
      const stored = error.items[0] ?? (await getItem(action.id));
      if (stored) return stored[attr.createToken] === token;
      if (error.conditionFailedFrom(items.length - alsoTaken.length)) return false;
      // Not taken: another transaction held one of the counters. Nothing moved; try again.
      if (!error.conflict) throw error;
      conflictStats.conflicts++;
      return AGAIN;
    }
  }, contended(CONTENTION_BUDGET_MS));
}

/** The rounds of a write that loses races: as many as start within `budgetMs`, then a 503. */
const contended = <T>(budgetMs: number, capMs?: number, startedAt?: number): RetryOptions<T> => ({
  budgetMs,
  ...(capMs === undefined ? {} : { capMs }),
  ...(startedAt === undefined ? {} : { startedAt }),
  exhausted: () => {
    throw new ServiceUnavailableError('store', 1);
  },
});

export interface Guard {
  caller: Person;
  /** The caller as the access decision sees them: `rightsOver` decides, here and nowhere else. */
  viewer: Viewer;
  /** The versions an `If-Match` accepts, if one was sent (`*` sends none). */
  expectedVersions?: readonly number[];
  /**
   * What the change needs of the caller's rights over the action as it stands: `undefined` when
   * they may make it, else the reason they may not (a 403). Absent: seeing it is enough.
   */
  refuses?: (rights: Rights, current: Action) => string | undefined;
  /** A social write (an endorsement, a comment): it waits longer for its turn under contention. */
  social?: boolean;
}

/** What a change does to the action: `next` undefined deletes it. */
export interface Change {
  next: Action | undefined;
  entry: EntryDraft;
  /** Other items the same transaction writes (a comment). */
  items?: TransactItem[];
  /** A change the service makes on its own (a reminder): `updatedAt` stays the last person's or producer's change. */
  keepUpdatedAt?: boolean;
  /** A write whose failed condition ends the change with its own error (an idempotency key). */
  guarded?: GuardedWrite;
}

export interface Mutation {
  before: Action;
  after: Action | undefined;
  entry: RecordedEntry;
}

/**
 * What a change `decide` made of the action `current` writes, stamped `stamp` by `caller`: the
 * next state with its reminders and `closedAt` settled (`undefined`: a delete), its history entry,
 * the item written (the next state or a tombstone) and the transaction: the item under the
 * version the decision was made on, the entry, `change.guarded` at `GUARDED_AT`, the counters,
 * day counters and reference order entry it moves, the change's own items, and a pending search
 * mark when the title changes or the action goes. Pure but for the table's name.
 */
export function changeTransaction(
  current: Action,
  change: Change,
  caller: Person,
  stamp: string,
  settings: ReminderSettings,
): { next: Action | undefined; entry: RecordedEntry; written: Item; items: TransactItem[] } {
  const id = current.id;
  const version = current.version + 1;
  const entry: RecordedEntry = {
    actionId: id,
    version,
    actor: caller,
    time: stamp,
    ...change.entry,
    // The snapshot a delete records (for its event) leaves the comments out: their text lives
    // only in the comments themselves (contract section 12).
    ...(change.next ? {} : { action: { ...toView(current), comments: [] } }),
  };
  // Every change keeps the reminders in step: a new dueAt re-arms them, closing clears `overdue`.
  // ... and `closedAt` follows the status (contract section 17), stamped with the change's time.
  const next = change.next && settleClosedAt(current, settleReminders(current, change.next, settings), stamp, settings);
  entry.sight = { before: placementOf(current), ...(next ? { after: placementOf(next) } : {}) };
  // The title as of this change, for whoever is told of it later (the notifier), when the entry names none.
  if (titleAt(entry) === undefined) entry.title = (next ?? current).title;
  if (next && next.status !== current.status) entry.trend = trendSubjectOf(toView(next));
  const updatedAt = change.keepUpdatedAt ? current.updatedAt : stamp;
  const written = {
    ...(next ? toItem({ ...next, version, updatedAt }) : tombstone(id, version, stamp)),
    [attr.lastEntryAt]: stamp,
  };
  refuseOversized(written);
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: written,
        // The rights were decided on this very version: every change of what they depend on
        // (owner, assignee, location, allowAnonymousEdits) moves the version, so the decision
        // and the write are atomic. Another write first means deciding again on what it left.
        ConditionExpression: '#v = :version AND attribute_not_exists(#del)',
        ExpressionAttributeNames: { '#v': attr.version, '#del': attr.deletedAt },
        ExpressionAttributeValues: { ':version': current.version },
      },
    },
    historyPut(entry),
    ...(change.guarded ? [change.guarded.write] : []),
    ...counterUpdates(id, counterMoves(current, next)),
    ...dayCounterUpdates(id, current, next && { ...next, updatedAt }),
    ...referenceOrderWrites(current, next),
    ...(change.items ?? []),
    // Search stays as fresh as the list: a new title or a delete is marked until the stream indexes it.
    ...(!next || next.title !== current.title ? [pendingMark(indexedText(next ?? current), version, !next)] : []),
  ];
  return { next, entry, written, items };
}

/**
 * `updatedAt` must move forward even when two changes land in the same millisecond, and each
 * history entry's time must pass the one before it (`lastEntryAt`; entries that do not move
 * `updatedAt` still set it), so the change feed, ordered by time, keeps one action's versions in order.
 */
export function nextStamp(current: Action, now: string, lastEntryAt?: string): string {
  const floor = lastEntryAt !== undefined && lastEntryAt > current.updatedAt ? lastEntryAt : current.updatedAt;
  return now > floor ? now : new Date(instantMs(floor) + 1).toISOString();
}

/**
 * Reads the action, refuses what the guard refuses (404 when the caller may not see it, 403, 412
 * in that order), asks `decide` for the change (or `undefined`: nothing to write), then writes it
 * in one transaction conditional on the version the decision was made on. When another write
 * lands in between, it decides again against what is stored now.
 */
/** What a change does to the action as it stands, or `undefined`: nothing to write. */
type Decide = (current: Action, stamp: string, rights: Rights) => Promise<Change | undefined> | Change | undefined;

export function mutate(
  id: string,
  guard: Guard,
  now: () => string,
  decide: Decide,
): Promise<Mutation | { before: Action; after: Action; entry: undefined }> {
  const started = Date.now();
  return inTurn(id, () => mutateNow(id, guard, now, decide, started));
}

/**
 * The writes of one action that this process holds, each waiting for the one before it. Two
 * writes of one action from one process would only race each other for its next version, and
 * the loser's transaction is work the store does for nothing (DynamoDB Local runs transactions
 * one at a time, so forty writers of one action spent most of its time on losing rounds: 40
 * endorsements took 10.5 s and one ran out of its 8 s; one at a time, 4.2 s, 50-100 ms a
 * write). Writers in other processes (other Lambda instances, each serving one request at a
 * time, so this queue is never longer than one there) are still decided by the version
 * condition. The wait counts toward the writer's budget.
 */
const turns = new Map<string, Promise<void>>();

async function inTurn<T>(id: string, work: () => Promise<T>): Promise<T> {
  const before = turns.get(id);
  const mine = before ? before.then(work) : work();
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(id, done);
  try {
    return await mine;
  } finally {
    if (turns.get(id) === done) turns.delete(id);
  }
}

async function mutateNow(
  id: string,
  guard: Guard,
  now: () => string,
  decide: Decide,
  started: number,
): Promise<Mutation | { before: Action; after: Action; entry: undefined }> {
  const budget = guard.social ? SOCIAL_CONTENTION_BUDGET_MS : CONTENTION_BUDGET_MS;
  const capMs = guard.social ? SOCIAL_BACKOFF_CAP_MS : undefined;
  return retry(
    async () => {
      const item = await getItem(id);
      if (!item || isTombstone(item)) throw noSuchAction(id);
      const current = fromItem(item);
      // One decision (lib/model/access.ts): an action the caller may not see does not exist for
      // them, the very 404 of an id that never existed; then 403 for what they see but may not do.
      const rights = rightsOver(guard.viewer, current);
      if (!rights.see) throw noSuchAction(id);
      const refusal = guard.refuses?.(rights, current);
      if (refusal !== undefined) throw new ForbiddenError(refusal);
      if (guard.expectedVersions && !guard.expectedVersions.includes(current.version)) {
        throw new PreconditionFailedError(
          'The action has changed since the ETag in If-Match was issued.',
          etagOf(current),
        );
      }
      const stampedAt = Date.now();
      const lastEntryAt = typeof item[attr.lastEntryAt] === 'string' ? (item[attr.lastEntryAt] as string) : undefined;
      const stamp = nextStamp(current, now(), lastEntryAt);
      const change = await decide(current, stamp, rights);
      if (!change) return { before: current, after: current, entry: undefined };
      // A decision that took its time is made again with a fresh stamp (see `STAMP_MAX_AGE_MS`).
      if (Date.now() - stampedAt > STAMP_MAX_AGE_MS) return AGAIN;
      const { next, entry, written, items } = changeTransaction(
        current,
        change,
        guard.caller,
        stamp,
        getReminderSettings(),
      );
      try {
        await transact(items);
        return { before: current, after: next ? fromItem(written) : undefined, entry };
      } catch (error) {
        if (!(error instanceof TransactionCancelled)) throw error;
        if (error.conflict) conflictStats.conflicts++;
        if (change.guarded && error.conditionFailed(GUARDED_AT)) throw change.guarded.refusal();
        // The action moved on, or another write got there first: decide again.
        if (error.conflict || error.conditionFailed(0)) return AGAIN;
        // A condition on another item of the change (a comment that is gone): let the change decide again.
        if (error.conditionFailedFrom(GUARDED_AT)) return AGAIN;
        throw error;
      }
    },
    contended(budget, capMs, started),
  );
}
