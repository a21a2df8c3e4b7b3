import { settleAll } from '../flow/fan-out';
import { indexes } from './indexes';
import type { ReadStats } from './list/plan/result';
import { queryInput } from './query/key-query';
import { queryAll } from './query/pager';
import { attr, reminderPartitions } from './table';

/**
 * The sweep's queue. An open action waits in `reminders-by-due` under the level of reminders it
 * has had for its `dueAt` (partition `R<level>#<shard>`), ordered by due time; a reminder moves
 * it to the next level's partition in the same transaction. So "what entered a window since the
 * last sweep" is, for each level, a key range read up to that level's bound: every entry it
 * reads is an action owed a reminder, whatever the table's size, and two sweeps, or one killed
 * half way, leave the queue as the transactions that did land left it. No cursor to keep.
 */

/** The actions owed their next reminder: `bounds[level]` is the latest `dueAt` (inclusive) whose next window has opened. */
export async function actionsOwedReminders(bounds: Record<number, string>, stats: ReadStats): Promise<string[]> {
  const reads = Object.entries(bounds).flatMap(([level, through]) =>
    reminderPartitions(Number(level)).map((partition) => readQueue(partition, through, stats)),
  );
  return (await settleAll(reads)).flat();
}

async function readQueue(partition: string, through: string, stats: ReadStats): Promise<string[]> {
  const queue = queryInput({
    index: indexes.remindersByDue,
    partition,
    // Due keys are `<dueAt>#<id>`, and `$` sorts just above `#`: every key of a dueAt up to `through`.
    sort: { op: '<', value: `${through}$` },
  });
  const items = await queryAll(queue, { stats, countEntries: true });
  return items.map((item) => item[attr.id] as string);
}
