import { beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../../lib/errors';
import type { Action } from '../../../../lib/model/action';
import { ReminderLevel, type ReminderSettings } from '../../../../lib/model/reminders';
import {
  type Change,
  changeTransaction,
  createdItems,
  createTransaction,
  type GuardedWrite,
  MAX_ACTION_BYTES,
  nextStamp,
  refuseOversized,
} from '../../../../lib/store/actions/writes';
import { DAY_COUNTERS } from '../../../../lib/store/counters/days';
import { fromItem, toItem } from '../../../../lib/store/item';
import { referencePartition } from '../../../../lib/store/reference-order';
import { pendingPartition } from '../../../../lib/store/search/keys';
import { attr, itemKind } from '../../../../lib/store/table';
import { anAction } from '../../action-fixture';
import { stubConfigEnv } from '../../config-env';

beforeAll(() => stubConfigEnv());

/**
 * The pure parts of an action's writes (lib/store/actions/writes.ts): the stamp each change
 * takes, the size an action may reach, what a create stores, and what each transaction carries.
 * The transactions themselves run against DynamoDB Local in the integration tests.
 */

const action = anAction({ updatedAt: '2026-11-01T08:00:00.000Z' });

describe('nextStamp', () => {
  it('is now when now is later than the last change', () => {
    expect(nextStamp(action, '2026-11-01T08:00:05.000Z')).toBe('2026-11-01T08:00:05.000Z');
  });

  it('moves a millisecond past updatedAt when now is not later (two changes in one millisecond, or a clock behind)', () => {
    expect(nextStamp(action, '2026-11-01T08:00:00.000Z')).toBe('2026-11-01T08:00:00.001Z');
    expect(nextStamp(action, '2026-10-31T23:59:59.000Z')).toBe('2026-11-01T08:00:00.001Z');
  });

  it('passes the last history entry too, when it is later than updatedAt (a reminder moves no updatedAt)', () => {
    const lastEntryAt = '2026-11-02T00:00:00.000Z';
    expect(nextStamp(action, '2026-11-01T09:00:00.000Z', lastEntryAt)).toBe('2026-11-02T00:00:00.001Z');
    expect(nextStamp(action, '2026-11-03T00:00:00.000Z', lastEntryAt)).toBe('2026-11-03T00:00:00.000Z');
    // An entry older than updatedAt changes nothing.
    expect(nextStamp(action, '2026-11-01T07:00:00.000Z', '2026-10-01T00:00:00.000Z')).toBe('2026-11-01T08:00:00.001Z');
  });
});

describe('refuseOversized', () => {
  const weighing = (bytes: number) => {
    const item = toItem(anAction({ description: '' }));
    const base = Buffer.byteLength(JSON.stringify(item), 'utf8');
    return { ...item, padding: 'x'.repeat(bytes - base - '"padding":"",'.length) };
  };

  it('lets an item of exactly the limit pass, and refuses one byte more (409, saying what to remove)', () => {
    const atLimit = weighing(MAX_ACTION_BYTES);
    expect(Buffer.byteLength(JSON.stringify(atLimit), 'utf8')).toBe(MAX_ACTION_BYTES);
    expect(() => refuseOversized(atLimit)).not.toThrow();
    const over = weighing(MAX_ACTION_BYTES + 1);
    expect(() => refuseOversized(over)).toThrow(ConflictError);
    expect(() => refuseOversized(over)).toThrow(/300001 bytes, more than the 300000/);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const euros = { ...toItem(anAction()), text: '€'.repeat(MAX_ACTION_BYTES / 3) };
    expect(JSON.stringify(euros).length).toBeLessThan(MAX_ACTION_BYTES);
    expect(() => refuseOversized(euros)).toThrow(ConflictError);
  });
});

describe('createdItems', () => {
  it("stores the action with the create's token and its creation as the last entry's time, and a created entry of version 1", () => {
    const created = anAction();
    const actor = created.owner;
    const { item, entry } = createdItems(created, actor, 'token-1');
    expect(item).toMatchObject(toItem(created));
    expect(Object.values(item)).toContain('token-1');
    expect(Object.values(item).filter((v) => v === created.createdAt).length).toBeGreaterThanOrEqual(1);
    expect(entry).toMatchObject({
      actionId: created.id,
      version: created.version,
      type: 'created',
      actor,
      time: created.createdAt,
    });
    expect(entry.action?.id).toBe(created.id);
    expect(entry.sight?.before).toBeUndefined();
    expect(entry.sight?.after).toBeDefined();
  });

  it('refuses an action too large to store', () => {
    const huge = anAction({ description: 'x'.repeat(MAX_ACTION_BYTES) });
    expect(() => createdItems(huge, huge.owner, 't')).toThrow(ConflictError);
  });
});

type Items = ReturnType<typeof createTransaction>;
type Entry = Record<string, unknown>;

/** What each item of a transaction is, as a person would name it, in order. */
function kinds(items: Items, guarded?: GuardedWrite): string[] {
  return items.map((t) => {
    if (guarded && t === guarded.write) return 'guarded';
    const put = (t as { Put?: { Item: Entry; ConditionExpression?: string } }).Put;
    const update = (t as { Update?: { Key: Entry; UpdateExpression: string } }).Update;
    const key = put?.Item ?? update?.Key ?? (t as { Delete?: { Key: Entry } }).Delete?.Key;
    const partition = String(key?.[attr.id] ?? '');
    if ('ConditionCheck' in t) return 'check';
    if (update) return partition === DAY_COUNTERS ? 'day' : 'counter';
    if (partition.startsWith(referencePartition(0).slice(0, -2))) return 'Put' in t ? 'reference' : 'reference gone';
    if (partition.startsWith(pendingPartition('x').slice(0, 4))) return 'search mark';
    if (put?.Item[attr.sortKey] === itemKind.action) return 'action';
    if (String(put?.Item[attr.sortKey]).startsWith(itemKind.historyPrefix)) return 'history';
    return 'other';
  });
}

/** The counters' deltas a transaction adds, in order (a "no value" item adds to several attributes). */
const counterDeltas = (items: Items) =>
  items.flatMap((t) => {
    const update = (t as { Update?: { Key: Entry; ExpressionAttributeValues: Entry } }).Update;
    return update && update.Key[attr.id] !== DAY_COUNTERS ? Object.values(update.ExpressionAttributeValues) : [];
  });

const settings: ReminderSettings = {
  closedStatuses: [3, 4],
  dueSoonHours: 24,
  escalateAfterHours: 168,
  intervalSeconds: 30,
};
const guarded: GuardedWrite = {
  write: { ConditionCheck: { TableName: 'unit', Key: { id: 'k', sk: 'K' }, ConditionExpression: 'x' } },
  refusal: () => new Error('taken'),
};

describe('createTransaction', () => {
  const created = anAction();

  it('puts the action while its id is free, then its created entry, its counters, its days, its reference entry and its search mark', () => {
    const items = createTransaction(created, created.owner, 't', undefined, []);
    const counters = kinds(items).filter((k) => k === 'counter').length;
    expect(counters).toBeGreaterThan(5);
    expect(kinds(items)).toEqual([
      'action',
      'history',
      ...Array(counters).fill('counter'),
      // createdAt and updatedAt on 1 November, dueAt on 1 December: two day items.
      'day',
      'day',
      'reference',
      'search mark',
    ]);
    expect(counterDeltas(items).every((d) => d === 1)).toBe(true);
    const put = (items[0] as { Put: { Item: Entry; ConditionExpression: string } }).Put;
    expect(put.ConditionExpression).toBe('attribute_not_exists(#id)');
    expect(put.Item[attr.createToken]).toBe('t');
  });

  it("puts the guarded write third, where a failed condition is read as the guard's, and each older id's check last", () => {
    const items = createTransaction(created, created.owner, 't', guarded, ['old-1', 'old-2']);
    const k = kinds(items, guarded);
    expect(k.slice(0, 3)).toEqual(['action', 'history', 'guarded']);
    expect(k.slice(-2)).toEqual(['check', 'check']);
    const checked = items.slice(-2).map((t) => (t as { ConditionCheck: { Key: Entry } }).ConditionCheck.Key[attr.id]);
    expect(checked).toEqual(['old-1', 'old-2']);
    expect(items).toHaveLength(createTransaction(created, created.owner, 't', undefined, []).length + 3);
  });

  it('counts an action created due the day it is created in one day item', () => {
    const sameDay = anAction({ dueAt: '2026-11-01T20:00:00.000Z' });
    expect(kinds(createTransaction(sameDay, sameDay.owner, 't', undefined, [])).filter((k) => k === 'day')).toEqual([
      'day',
    ]);
  });
});

describe('changeTransaction', () => {
  const current: Action = { ...anAction(), version: 3 };
  const later = '2026-11-05T09:00:00.000Z';
  const edit = (next: Partial<Action>, more: Partial<Change> = {}) =>
    changeTransaction(
      current,
      { next: { ...current, ...next }, entry: { type: 'updated' }, ...more },
      current.owner,
      later,
      settings,
    );

  it('writes the next version under the version the change was decided on, and its entry', () => {
    const { items, entry, written } = edit({ description: 'longer' });
    const put = (items[0] as { Put: { ConditionExpression: string; ExpressionAttributeValues: Entry } }).Put;
    expect(put.ConditionExpression).toBe('#v = :version AND attribute_not_exists(#del)');
    expect(put.ExpressionAttributeValues[':version']).toBe(3);
    expect(written[attr.version]).toBe(4);
    expect(written[attr.lastEntryAt]).toBe(later);
    expect(entry).toMatchObject({
      actionId: current.id,
      version: 4,
      actor: current.owner,
      time: later,
      title: current.title,
    });
    expect(entry.sight?.before).toEqual(entry.sight?.after);
  });

  it('moves no counter, and only the day updatedAt leaves and enters, for an edit of nothing counted', () => {
    expect(kinds(edit({ description: 'longer' }).items)).toEqual(['action', 'history', 'day', 'day']);
  });

  it('moves no day either when the change keeps updatedAt (a reminder)', () => {
    const { items, written } = edit({ description: 'longer' }, { keepUpdatedAt: true });
    expect(kinds(items)).toEqual(['action', 'history']);
    expect(fromItem(written).updatedAt).toBe(current.updatedAt);
    expect(fromItem(edit({ description: 'longer' }).written).updatedAt).toBe(later);
  });

  it("moves each counter a status change moves, from the old status's cell to the new one's, and records the trend", () => {
    const { items, entry } = edit({ status: 2 });
    const deltas = counterDeltas(items);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.filter((d) => d === -1)).toHaveLength(deltas.filter((d) => d === 1).length);
    // updatedAt's days, and the due day, which counts its actions by status.
    expect(kinds(items).filter((k) => k !== 'counter')).toEqual(['action', 'history', 'day', 'day', 'day']);
    expect(entry.trend).toBeDefined();
    expect(edit({ description: 'longer' }).entry.trend).toBeUndefined();
  });

  it("stamps closedAt with the change's time when the status closes the action, and clears overdue", () => {
    const overdue: Action = { ...current, reminded: ReminderLevel.overdue, overdue: true };
    const { next } = changeTransaction(
      overdue,
      { next: { ...overdue, status: 3 }, entry: { type: 'updated' } },
      current.owner,
      later,
      settings,
    );
    expect(next).toMatchObject({ closedAt: later, overdue: false });
    // Closing under other settings' closed statuses is no close.
    const open = changeTransaction(
      overdue,
      { next: { ...overdue, status: 3 }, entry: { type: 'updated' } },
      current.owner,
      later,
      { ...settings, closedStatuses: [4] },
    );
    expect(open.next).toMatchObject({ closedAt: null, overdue: true });
  });

  it('re-arms the reminders when dueAt moves', () => {
    const reminded: Action = { ...current, reminded: ReminderLevel.dueSoon };
    const { next } = changeTransaction(
      reminded,
      { next: { ...reminded, dueAt: '2027-01-01T00:00:00.000Z' }, entry: { type: 'updated' } },
      current.owner,
      later,
      settings,
    );
    expect(next?.reminded).toBe(ReminderLevel.none);
  });

  it('marks the action for search when its title changes, and not otherwise', () => {
    expect(kinds(edit({ title: 'Fix the hand rail' }).items)).toContain('search mark');
    expect(kinds(edit({ description: 'longer' }).items)).not.toContain('search mark');
  });

  it("puts the guarded write third and the change's own items after the counters", () => {
    const own = { Put: { TableName: 'unit', Item: { [attr.id]: current.id, [attr.sortKey]: 'c#1' } } };
    const { items } = edit({ status: 2 }, { guarded, items: [own] });
    const k = kinds(items, guarded);
    expect(k.slice(0, 3)).toEqual(['action', 'history', 'guarded']);
    expect(items.indexOf(own)).toBeGreaterThan(k.lastIndexOf('day'));
  });

  it('writes a tombstone for a delete, takes every counter away, removes the reference entry and marks search', () => {
    const { items, entry, written, next } = changeTransaction(
      current,
      { next: undefined, entry: { type: 'deleted' } },
      current.owner,
      later,
      settings,
    );
    expect(next).toBeUndefined();
    expect(written[attr.deletedAt]).toBe(later);
    expect(written[attr.version]).toBe(4);
    expect(counterDeltas(items).every((d) => d === -1)).toBe(true);
    expect(counterDeltas(items)).toHaveLength(
      counterDeltas(createTransaction(current, current.owner, 't', undefined, [])).length,
    );
    const k = kinds(items);
    expect(k).toContain('reference gone');
    expect(k[k.length - 1]).toBe('search mark');
    const mark = (items[items.length - 1] as { Put: { Item: Entry } }).Put.Item;
    expect(mark[attr.deletedAt]).toBe(true);
    // The entry keeps the action as it was, without its comments' text.
    expect(entry.action).toMatchObject({ id: current.id, comments: [] });
    expect(entry.sight?.after).toBeUndefined();
  });

  it('refuses a change that makes the action too large to store', () => {
    expect(() => edit({ description: 'x'.repeat(MAX_ACTION_BYTES) })).toThrow(ConflictError);
  });
});
