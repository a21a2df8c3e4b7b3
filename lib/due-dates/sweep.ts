import { getReminderSettings } from '../config';
import { NotFoundError } from '../errors';
import { inPool } from '../flow/fan-out';
import { errorFields, logger } from '../logger';
import { openViewer } from '../model/access';
import { dueBoundFor, ReminderLevel, reminderDue, reminderTypes, SYSTEM_ACTOR } from '../model/reminders';
import { toView } from '../model/view';
import { mutate } from '../store/actions/writes';
import { newStats, type ReadStats } from '../store/list/plan/result';
import { actionsOwedReminders } from '../store/reminders';

/**
 * The due-date sweep (contract section 10): finds the open actions whose next reminder window
 * has opened and writes each reminder as a history entry, in one transaction with the action
 * (its version moves, `updatedAt` does not, `overdue` is set from the overdue reminder on). The
 * transaction's condition is the action's version: when two sweeps meet on an action, or a person
 * changes it meanwhile, the loser reads it again and finds the reminder sent (or no longer due).
 */

export interface SweepOptions {
  /** The clock, in epoch milliseconds (the benchmark moves it). */
  now?: () => number;
  /** Stop after this many reminders (the rest wait for the next sweep). */
  limit?: number;
  /** Stop starting new reminders after this many milliseconds, well inside the function's timeout. */
  budgetMs?: number;
}

export interface SweepReport {
  /** Actions the queue named. */
  owed: number;
  /** Reminders written, by history type. */
  sent: Record<string, number>;
  /** What reading the queue cost (the action items read by each write come on top: one each). */
  queue: ReadStats;
  /** Stopped by `limit` or `budgetMs` before the queue was done. */
  stopped: boolean;
  /** Reminders that failed (the store refused or timed out); they stay queued for the next sweep. */
  failed: number;
}

/** How many actions one sweep reminds at once. */
const PARALLEL = 8;

export async function sweepDueDates(options: SweepOptions = {}): Promise<SweepReport> {
  const settings = getReminderSettings();
  const clock = options.now ?? Date.now;
  const started = Date.now();
  const at = clock();
  const queue = newStats();
  // From each level, the next window: due soon from none, overdue from due soon, escalated from overdue.
  const bounds = {
    [ReminderLevel.none]: dueBoundFor(ReminderLevel.dueSoon, at, settings),
    [ReminderLevel.dueSoon]: dueBoundFor(ReminderLevel.overdue, at, settings),
    [ReminderLevel.overdue]: dueBoundFor(ReminderLevel.escalated, at, settings),
  };
  const pending = await actionsOwedReminders(bounds, queue);
  const report: SweepReport = { owed: pending.length, sent: {}, queue, stopped: false, failed: 0 };
  let begun = 0;
  // The next action to remind, or none: the queue is done, or `limit` or `budgetMs` stops it.
  const next = (): string | undefined => {
    if (pending.length === 0) return undefined;
    const overLimit = options.limit !== undefined && begun >= options.limit;
    const overBudget = options.budgetMs !== undefined && Date.now() - started > options.budgetMs;
    if (overLimit || overBudget) {
      report.stopped = true;
      return undefined;
    }
    begun++;
    return pending.shift();
  };
  await inPool(PARALLEL, next, async (id) => {
    try {
      const type = await remind(id, clock, settings);
      if (type) report.sent[type] = (report.sent[type] ?? 0) + 1;
    } catch (error) {
      report.failed++;
      logger.error('a reminder could not be written; the next sweep tries again', {
        actionId: id,
        ...errorFields(error),
      });
    }
  });
  return report;
}

/** Writes the reminder `id` is owed now, if it still is; its history type, or `undefined`. */
async function remind(
  id: string,
  clock: () => number,
  settings: ReturnType<typeof getReminderSettings>,
): Promise<string | undefined> {
  try {
    const result = await mutate(
      id,
      { caller: SYSTEM_ACTOR, viewer: openViewer(SYSTEM_ACTOR) },
      () => new Date(clock()).toISOString(),
      (current) => {
        const level = reminderDue(current, clock(), settings);
        if (level === undefined) return undefined;
        const { owner, assignee, status, title } = toView(current);
        return {
          next: { ...current, reminded: level },
          entry: {
            type: reminderTypes[level] ?? 'overdue',
            dueAt: current.dueAt,
            subject: { owner, assignee, status, title },
          },
          keepUpdatedAt: true,
        };
      },
    );
    return result.entry?.type;
  } catch (error) {
    // Deleted since the queue was read: a deleted action gets no reminder.
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
