import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_SHARDS,
  dayShardOf,
  fnv1a32,
  MEMBER_PARTITIONS,
  PENDING_SHARDS,
  pendingShardOf,
  READY_SHARDS,
  REMINDER_SHARDS,
  reminderShardOf,
  SHARDS,
  shardOf,
  shardOfSubscription,
  sliceOf,
} from '../../../lib/store/shards';

/**
 * Every shard is in a stored key: these are the answers the store gave before the shard schemes
 * moved into one module (taken from the code they replaced), so a changed hash fails here, not in
 * a store whose items are no longer where reads look.
 */
const ids = [
  'a',
  '',
  '0190a5c2-7d1e-7c3a-9f00-000000000001',
  '0190a5c2-7d1e-7c3a-9f00-000000000002',
  'Zürich/Bahnhof',
  '日本',
];

describe('the shard schemes', () => {
  it('hash ids by FNV-1a, 32 bits (known answers; the empty string is the offset basis)', () => {
    expect(ids.map(fnv1a32)).toEqual([3826002220, 2166136261, 1371485871, 1388263490, 962345846, 1610399396]);
  });

  it('put an action in the shard its stored keys name', () => {
    expect(ids.map(shardOf)).toEqual([12, 5, 15, 2, 6, 4]);
    expect(ids.map(reminderShardOf)).toEqual([0, 1, 3, 2, 2, 0]);
    expect(ids.map(dayShardOf)).toEqual([0, 1, 3, 2, 2, 0]);
    expect(ids.map(pendingShardOf)).toEqual([0, 1, 3, 2, 2, 0]);
    expect(ids.map(shardOfSubscription)).toEqual([0, 1, 3, 2, 2, 0]);
  });

  it("slice a shared counter's values by SHA-256's first byte", () => {
    expect(ids.map(sliceOf)).toEqual([10, 3, 8, 7, 1, 15]);
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(sliceOf(value)).toBe((createHash('sha256').update(value).digest()[0] as number) % MEMBER_PARTITIONS);
      }),
    );
  });

  it('fold the action shards onto the smaller counts, which divide them', () => {
    for (const count of [REMINDER_SHARDS, DAY_SHARDS, PENDING_SHARDS, READY_SHARDS]) expect(SHARDS % count).toBe(0);
    fc.assert(
      fc.property(fc.string(), (id) => {
        expect(shardOf(id)).toBe(fnv1a32(id) % SHARDS);
        expect(reminderShardOf(id)).toBe(fnv1a32(id) % REMINDER_SHARDS);
        expect(shardOfSubscription(id)).toBe(fnv1a32(id) % READY_SHARDS);
      }),
    );
  });
});
