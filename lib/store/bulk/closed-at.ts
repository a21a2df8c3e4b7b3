import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getReminderSettings } from '../../config';
import { dayOf } from '../../dates';
import { inPool } from '../../flow/fan-out';
import { isOpen } from '../../model/reminders';
import type { Sender } from '../client';
import { DAY_COUNTERS, type DayDeltas, dayFields, daySortKey } from '../counters/days';
import { fromItem, type Item, isTombstone } from '../item';
import { queryInput } from '../query/key-query';
import { queryAll, queryPages } from '../query/pager';
import type { ScanPass } from '../scan';
import { attr, filterKey, itemKind } from '../table';

/**
 * `closedAt` for a store made before it (`KEY_VERSION` 9, contract section 17): a closed action
 * stored without one gets the time its status last entered a closed status, read from its
 * history. Closed is `CLOSED_STATUSES` as configured now (as the trend counters read it).
 */

interface Target {
  documents: DynamoDBDocumentClient;
  table: string;
}

/** What `lastCloseOf` reads of a history entry. */
interface HistoryRead {
  type?: string;
  time?: string;
  changes?: { status?: { before?: unknown; after?: unknown } };
  action?: { status?: unknown };
}

/** Sends through the upgrade's own client (no store timeout: the upgrade simply waits). */
const viaTarget =
  (target: Target): Sender =>
  <T>(command: object) =>
    target.documents.send(command as never) as Promise<T>;

/**
 * The time the action's history last moves its status into a closed one: a change of `status`
 * from an open to a closed one (its entry's time), or a create that made it closed (its
 * `createdAt`). `undefined` when no entry does (a history that does not record its close).
 */
export async function lastCloseOf(target: Target, id: string, createdAt: string): Promise<string | undefined> {
  const closed = (status: unknown) => !isOpen(Number(status), getReminderSettings());
  let last: string | undefined;
  const history = queryInput({
    table: target.table,
    partition: id,
    sort: { op: 'begins_with', prefix: itemKind.historyPrefix },
    projection: ['type', 'time', 'changes.status', 'action.status'],
    consistent: true,
  });
  for await (const page of queryPages(history, { via: viaTarget(target) })) {
    // In version order (the sort key pads it), so the last close found is the latest.
    for (const entry of (page.Items ?? []) as HistoryRead[]) {
      if (entry.type === 'created' && closed(entry.action?.status)) last = createdAt;
      const status = entry.changes?.status;
      if (entry.type === 'updated' && status && !closed(status.before) && closed(status.after))
        last = String(entry.time);
    }
  }
  return last;
}

/**
 * Each action of a page as this version stores it with its `closedAt`: a live closed action
 * without one gets its last close from its history (its `createdAt` when the history records
 * none: an action that was never moved into a closed status was created closed); every other
 * item is handed back as it is. Eight histories read at a time.
 */
export async function withClosedAt(target: Target, items: readonly Item[]): Promise<Item[]> {
  const settings = getReminderSettings();
  const filled = [...items];
  const lacking = items.flatMap((item, i) => {
    if (isTombstone(item)) return [];
    const action = fromItem(item);
    return action.closedAt === null && !isOpen(action.status, settings)
      ? [{ i, item, createdAt: action.createdAt }]
      : [];
  });
  await inPool(
    8,
    () => lacking.pop(),
    async ({ i, item, createdAt }) => {
      const closedAt = (await lastCloseOf(target, String(item[attr.id]), createdAt)) ?? createdAt;
      filled[i] = { ...item, [attr.filters]: { ...(item[attr.filters] as object), [filterKey.closedAt]: closedAt } };
    },
  );
  return filled;
}

/**
 * The `closedAt` day counts (`x` of `n#@days`, `../counters/days.ts`) counted again from every
 * live action, for a store whose day counters are otherwise right (version 7 and 8): `done`
 * sets each day item's `x` to its count (on shard 0, removed from the other shards) and removes
 * `x` from a day item no action closed on. The upgrade runs before the service, so nothing moves
 * a counter meanwhile; a pass cut short and run again counts afresh.
 */
export function closedDayCounting(target: Target): ScanPass {
  const counts: DayDeltas = new Map();
  return {
    async page(actions) {
      for (const item of actions) {
        if (isTombstone(item)) continue;
        const closedAt = fromItem(item).closedAt;
        if (closedAt !== null) counts.set(dayOf(closedAt), (counts.get(dayOf(closedAt)) ?? 0) + 1);
      }
    },
    async done() {
      const stored = await queryAll(queryInput({ table: target.table, partition: DAY_COUNTERS, consistent: true }), {
        via: viaTarget(target),
      });
      const x = dayFields.closedAt;
      const writes: Array<{ sk: string; count?: number }> = [];
      for (const item of stored) {
        const sk = String(item[attr.sortKey]);
        const [day, shard] = sk.split('#') as [string, string];
        const count = Number(shard) === 0 ? counts.get(day) : undefined;
        if (count !== undefined) counts.delete(day);
        if (count !== Number(item[x] ?? 0) && (count !== undefined || item[x] !== undefined))
          writes.push({ sk, ...(count === undefined ? {} : { count }) });
      }
      for (const [day, count] of counts) writes.push({ sk: daySortKey(day, 0), count });
      await inPool(
        8,
        () => writes.pop(),
        ({ sk, count }) =>
          target.documents.send(
            new UpdateCommand({
              TableName: target.table,
              Key: { [attr.id]: DAY_COUNTERS, [attr.sortKey]: sk },
              UpdateExpression: count === undefined ? 'REMOVE #x' : 'SET #x = :n',
              ExpressionAttributeNames: { '#x': x },
              ...(count === undefined ? {} : { ExpressionAttributeValues: { ':n': count } }),
            }),
          ),
      );
    },
  };
}
