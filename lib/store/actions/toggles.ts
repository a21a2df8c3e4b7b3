import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { canBeKey, send, tableName } from '../client';
import type { Item } from '../item';
import { attr, itemKind } from '../table';

/**
 * When a caller last changed their endorsement of an action: one small item beside the action
 * (`e#<caller id>` in its partition) holding the times of the recent changes. It is written in
 * the same transaction as the change it counts, under a condition on what was read, so two
 * concurrent toggles cannot both slip under the bound; it expires (TTL) an hour after the
 * last change. DynamoDB deletes expired items only eventually, so reads drop old times themselves.
 */

export interface ToggleLog {
  /** Times of the recent changes, epoch seconds, oldest first. */
  times: number[];
  /** How many times the item has been written; the condition of the next write. */
  writes: number;
}

/** The caller's recent changes of their endorsement of the action (none when there are none). */
export async function readToggles(actionId: string, callerId: string): Promise<ToggleLog> {
  if (!canBeKey(actionId)) return { times: [], writes: 0 };
  const result = await send<{ Item?: Item }>(
    new GetCommand({
      TableName: tableName(),
      Key: { [attr.id]: actionId, [attr.sortKey]: itemKind.endorsementToggles(callerId) },
      ConsistentRead: true,
    }),
  );
  return {
    times: (result.Item?.[attr.toggleTimes] as number[] | undefined) ?? [],
    writes: Number(result.Item?.[attr.count] ?? 0),
  };
}

/** The part of a change's transaction that records a toggle: `read` must still be what is stored. */
export function toggleWrite(actionId: string, callerId: string, read: ToggleLog, times: number[], expiresAt: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        [attr.id]: actionId,
        [attr.sortKey]: itemKind.endorsementToggles(callerId),
        [attr.toggleTimes]: times,
        [attr.count]: read.writes + 1,
        [attr.expiresAt]: expiresAt,
      },
      // The item as read, or none: a toggle that raced this one makes this attempt decide again.
      ConditionExpression: 'attribute_not_exists(#sk) OR #n = :writes',
      ExpressionAttributeNames: { '#sk': attr.sortKey, '#n': attr.count } as Record<string, string>,
      ExpressionAttributeValues: { ':writes': read.writes },
    },
  };
}
