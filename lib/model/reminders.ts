import { instantMs } from '../dates';
import type { Action, Person } from './action';
import type { HistoryType } from './history';

/**
 * Due dates that chase people (contract section 10): the three reminder windows of an open
 * action, which of them applies at a moment, and what a change does to the reminders already
 * sent. Pure: the sweep (`lib/due-dates/sweep.ts`) decides with it, and every write keeps an action's
 * reminder state in step with it in the same transaction (`lib/store/actions/writes.ts`).
 */

/** Reminder levels, in the order the windows open; an action records the highest sent for its `dueAt`. */
/** The due-date settings (contract section 10); hours take decimals, so tests can use short windows. */
export interface ReminderSettings {
  /** Statuses that close an action (`CLOSED_STATUSES`, default 3,4); every other status is open. */
  closedStatuses: readonly number[];
  /** How long before `dueAt` an open action is due soon (`DUE_SOON_HOURS`, default 24). */
  dueSoonHours: number;
  /** How long after `dueAt` an overdue action is escalated (`ESCALATE_AFTER_HOURS`, default 168). */
  escalateAfterHours: number;
  /** How often the local stack sweeps (`REMINDER_INTERVAL_SECONDS`, default 30); AWS sweeps every minute. */
  intervalSeconds: number;
}

export const ReminderLevel = { none: 0, dueSoon: 1, overdue: 2, escalated: 3 } as const;

/** The history type of each level's reminder. */
export const reminderTypes: Record<number, HistoryType> = {
  [ReminderLevel.dueSoon]: 'due-soon',
  [ReminderLevel.overdue]: 'overdue',
  [ReminderLevel.escalated]: 'escalated',
};

/** Who writes reminders. */
export const SYSTEM_ACTOR: Person = { id: 'system', name: 'Action tracking service', email: null };

const HOUR_MS = 3_600_000;

export const isOpen = (status: number, settings: Pick<ReminderSettings, 'closedStatuses'>): boolean =>
  !settings.closedStatuses.includes(status);

/**
 * `closedAt` after a change stamped `now` (contract section 17): set to `now` when the status
 * enters a closed one (a create counts as entering from nothing, so an action created closed has
 * its `createdAt`), kept while it stays closed, cleared when it opens again. Pure.
 */
export function settleClosedAt(
  before: Pick<Action, 'status'> | undefined,
  next: Action,
  now: string,
  settings: Pick<ReminderSettings, 'closedStatuses'>,
): Action {
  const wasClosed = before !== undefined && !isOpen(before.status, settings);
  // A new action that brings its own (a bulk load's) keeps it.
  const kept = wasClosed || before === undefined ? next.closedAt : null;
  const closedAt = isOpen(next.status, settings) ? null : (kept ?? now);
  return closedAt === next.closedAt ? next : { ...next, closedAt };
}

/**
 * The latest window an action due at `dueAt` is in at `now`: escalated once overdue for
 * `escalateAfterHours`, overdue once past `dueAt`, due soon within `dueSoonHours` of it.
 */
export function windowAt(dueAt: string, now: number, settings: ReminderSettings): number {
  const due = instantMs(dueAt);
  if (now >= due + settings.escalateAfterHours * HOUR_MS) return ReminderLevel.escalated;
  if (now >= due) return ReminderLevel.overdue;
  if (now >= due - settings.dueSoonHours * HOUR_MS) return ReminderLevel.dueSoon;
  return ReminderLevel.none;
}

/**
 * The latest `dueAt` (inclusive) whose window `level` is open at `now`: the sweep reads each
 * level's queue up to it.
 */
export function dueBoundFor(level: number, now: number, settings: ReminderSettings): string {
  const shift =
    level === ReminderLevel.dueSoon
      ? settings.dueSoonHours * HOUR_MS
      : level === ReminderLevel.overdue
        ? 0
        : -settings.escalateAfterHours * HOUR_MS;
  return new Date(now + shift).toISOString();
}

/**
 * How many earlier `dueAt` values an action remembers the reminders of: moving `dueAt` back to one
 * of these is not reminded again (contract section 10); a value older than that may be. Each is
 * about 40 bytes of the action's item.
 */
export const REMEMBERED_DUE_DATES = 20;

/**
 * The reminder state after a change: a new `dueAt` re-arms the reminders not yet sent for that
 * value (all three for a value never reminded; the one it left keeps what it had, so moving back
 * to it reminds nothing twice); `overdue` holds while the action is open and its overdue reminder
 * was sent for this `dueAt`. So closing the action, or moving `dueAt` (into the future, or to
 * another past moment, until the sweep sends that one's `ActionOverdue`), clears it in the
 * change's own transaction, and reopening an action whose overdue reminder was sent sets it again.
 */
export function settleReminders(before: Action | undefined, next: Action, settings: ReminderSettings): Action {
  let { reminded, remindedBefore } = next;
  if (before && before.dueAt !== next.dueAt) {
    const earlier = (before.remindedBefore ?? []).filter((r) => r.dueAt !== before.dueAt && r.dueAt !== next.dueAt);
    if (before.reminded > ReminderLevel.none) earlier.push({ dueAt: before.dueAt, level: before.reminded });
    reminded = before.remindedBefore?.find((r) => r.dueAt === next.dueAt)?.level ?? ReminderLevel.none;
    remindedBefore = earlier.slice(-REMEMBERED_DUE_DATES);
  }
  const overdue = isOpen(next.status, settings) && reminded >= ReminderLevel.overdue;
  if (reminded === next.reminded && overdue === next.overdue && remindedBefore === next.remindedBefore) return next;
  const { remindedBefore: _dropped, ...rest } = next;
  return { ...rest, reminded, overdue, ...(remindedBefore?.length ? { remindedBefore } : {}) };
}

/** The reminder an action is owed at `now`, if any: only the latest window, and never one already sent. */
export function reminderDue(action: Action, now: number, settings: ReminderSettings): number | undefined {
  if (!isOpen(action.status, settings)) return undefined;
  const level = windowAt(action.dueAt, now, settings);
  return level > action.reminded ? level : undefined;
}
