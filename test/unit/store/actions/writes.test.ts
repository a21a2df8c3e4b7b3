import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../../lib/errors';
import { createdItems, MAX_ACTION_BYTES, nextStamp, refuseOversized } from '../../../../lib/store/actions/writes';
import { toItem } from '../../../../lib/store/item';
import { anAction } from '../../action-fixture';

/**
 * The pure parts of an action's writes (lib/store/actions/writes.ts): the stamp each change
 * takes, the size an action may reach, and what a create stores. The transactions themselves run
 * against DynamoDB Local in the integration tests.
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
