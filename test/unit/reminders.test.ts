import { describe, expect, it } from 'vitest';
import type { Action } from '../../lib/model/action';
import { newAction } from '../../lib/model/edits';
import { ReminderLevel, type ReminderSettings, reminderDue, settleReminders } from '../../lib/model/reminders';

/**
 * Contract section 10: each reminder at most once per `dueAt` value for the life of an action,
 * also when `dueAt` moves away and comes back (issue 34 found `escalated` written three times
 * for one value by moving `dueAt` between two past values).
 */

const settings: ReminderSettings = {
  closedStatuses: [3, 4],
  dueSoonHours: 24,
  escalateAfterHours: 1,
  intervalSeconds: 30,
};
const person = { id: 'u1', name: 'Ann', email: null };
const HOUR = 3_600_000;
const now = Date.parse('2026-06-01T12:00:00.000Z');
const at = (hoursFromNow: number) => new Date(now + hoursFromNow * HOUR).toISOString();

const created = (dueAt: string): Action =>
  newAction(
    'a1',
    { title: 't', actionProducer: { name: 'p' }, dueAt, priority: 1, status: 1 } as never,
    person,
    person,
    at(-100),
  );

/** What a sweep does: sends the reminder owed, if any, as a change of `reminded`. */
function sweep(action: Action, sent: Array<{ dueAt: string; level: number }>): Action {
  const level = reminderDue(action, now, settings);
  if (level === undefined) return action;
  sent.push({ dueAt: action.dueAt, level });
  return settleReminders(action, { ...action, reminded: level }, settings);
}

const moveDueAt = (action: Action, dueAt: string) => settleReminders(action, { ...action, dueAt }, settings);

describe('reminders once per dueAt value', () => {
  it('moving dueAt back and forth between two past values reminds each value once', () => {
    const [first, second] = [at(-10), at(-20)];
    const sent: Array<{ dueAt: string; level: number }> = [];
    let action = sweep(created(first), sent);
    for (let round = 0; round < 4; round++) {
      action = sweep(moveDueAt(action, second), sent);
      action = sweep(moveDueAt(action, first), sent);
    }
    expect(sent).toEqual([
      { dueAt: first, level: ReminderLevel.escalated },
      { dueAt: second, level: ReminderLevel.escalated },
    ]);
    // Back at a value already escalated, the action shows overdue again, as the sweep left it.
    expect(action.overdue).toBe(true);
  });

  it('a value reminded only as due soon still gets its overdue reminder when it passes', () => {
    const soon = at(2);
    const sent: Array<{ dueAt: string; level: number }> = [];
    let action = sweep(created(soon), sent);
    action = sweep(moveDueAt(action, at(-5)), sent);
    action = sweep(moveDueAt(action, soon), sent);
    expect(sent.map((s) => [s.dueAt, s.level])).toEqual([
      [soon, ReminderLevel.dueSoon],
      [at(-5), ReminderLevel.escalated],
    ]);
    const later = { ...action };
    const past = reminderDue(later, now + 2.5 * HOUR, settings);
    expect(past).toBe(ReminderLevel.overdue);
  });

  it('keeps the values it remembers bounded', () => {
    let action = created(at(-10));
    const sent: Array<{ dueAt: string; level: number }> = [];
    for (let i = 0; i < 100; i++) action = sweep(moveDueAt(action, at(-10 - i)), sent);
    expect(sent).toHaveLength(100);
    expect(JSON.stringify(action).length).toBeLessThan(4_000);
  });
});
