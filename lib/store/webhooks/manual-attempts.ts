import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { AGAIN, retry } from '../../flow/retry';
import { send, sendConditional, tableName } from '../client';
import type { Item } from '../item';
import { attr, webhookKeys } from '../table';

/*
 * When a subscription's owner last asked for an attempt (a redelivery or a ping): one small item
 * beside the subscription holding the recent times, as the endorsement toggles keep theirs
 * (`lib/store/actions/toggles.ts`), written under a condition on what was read so two concurrent
 * requests cannot both slip under the bound; it expires (TTL) a window after the last request.
 */

export const manualKey = (ownerId: string, subscriptionId: string) => ({
  [attr.id]: webhookKeys.subscriptions(ownerId),
  [attr.sortKey]: webhookKeys.manualAttempts(subscriptionId),
});

/**
 * Counts one attempt asked for now, unless `refuse` throws on the times (epoch seconds, oldest
 * first) asked for in the last `windowSeconds`; asks again when another request wrote them
 * meanwhile. `false` when eight concurrent requests won in turn.
 */
export async function countManualAttempt(
  ownerId: string,
  subscriptionId: string,
  windowSeconds: number,
  refuse: (recent: number[], now: number) => void,
): Promise<boolean> {
  return retry(
    async () => {
      const now = Math.floor(Date.now() / 1000);
      const read = await send<{ Item?: Item }>(
        new GetCommand({ TableName: tableName(), Key: manualKey(ownerId, subscriptionId), ConsistentRead: true }),
      );
      const writes = Number(read.Item?.[attr.count] ?? 0);
      const recent = ((read.Item?.times as number[] | undefined) ?? []).filter((t) => t > now - windowSeconds);
      refuse(recent, now);
      const counted = await sendConditional(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...manualKey(ownerId, subscriptionId),
            times: [...recent, now],
            [attr.count]: writes + 1,
            [attr.expiresAt]: now + windowSeconds,
          },
          // The item as read, or none: a request that raced this one makes this one count again.
          ConditionExpression: 'attribute_not_exists(#sk) OR #n = :writes',
          ExpressionAttributeNames: { '#sk': attr.sortKey, '#n': attr.count },
          ExpressionAttributeValues: { ':writes': writes },
        }),
      );
      return counted ? true : AGAIN;
    },
    { attempts: 8, exhausted: () => false },
  );
}
