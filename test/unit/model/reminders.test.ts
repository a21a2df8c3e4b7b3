import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dueBoundFor,
  isOpen,
  ReminderLevel,
  type ReminderSettings,
  reminderDue,
  reminderTypes,
  settleReminders,
  windowAt,
} from '../../../lib/model/reminders';
import { anAction } from '../action-fixture';

/** The reminder windows of contract section 10, with the contract's default settings. */

const settings: ReminderSettings = {
  closedStatuses: [3, 4],
  dueSoonHours: 24,
  escalateAfterHours: 168,
  intervalSeconds: 30,
};
const HOUR = 3_600_000;
const dueAt = '2026-12-01T10:00:00.000Z';
const due = Date.parse(dueAt);

describe('windowAt', () => {
  it('opens each window exactly at its edge, not a millisecond before', () => {
    expect(windowAt(dueAt, due - 24 * HOUR - 1, settings)).toBe(ReminderLevel.none);
    expect(windowAt(dueAt, due - 24 * HOUR, settings)).toBe(ReminderLevel.dueSoon);
    expect(windowAt(dueAt, due - 1, settings)).toBe(ReminderLevel.dueSoon);
    expect(windowAt(dueAt, due, settings)).toBe(ReminderLevel.overdue);
    expect(windowAt(dueAt, due + 168 * HOUR - 1, settings)).toBe(ReminderLevel.overdue);
    expect(windowAt(dueAt, due + 168 * HOUR, settings)).toBe(ReminderLevel.escalated);
  });

  it('takes hours with decimals (tests use windows of seconds)', () => {
    const short = { ...settings, dueSoonHours: 0.001, escalateAfterHours: 0.002 };
    expect(windowAt(dueAt, due - 3601, short)).toBe(ReminderLevel.none);
    expect(windowAt(dueAt, due - 3600, short)).toBe(ReminderLevel.dueSoon);
    expect(windowAt(dueAt, due + 7199, short)).toBe(ReminderLevel.overdue);
    expect(windowAt(dueAt, due + 7200, short)).toBe(ReminderLevel.escalated);
  });

  it('reads a dueAt with an offset as the moment it names', () => {
    expect(windowAt('2026-12-01T12:00:00+02:00', due, settings)).toBe(ReminderLevel.overdue);
    expect(windowAt('2026-12-01T12:00:00+02:00', due - 1, settings)).toBe(ReminderLevel.dueSoon);
  });

  it('never goes back to an earlier window as time passes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400 * HOUR, max: 400 * HOUR }), fc.nat(400 * HOUR), (at, later) => {
        expect(windowAt(dueAt, due + at + later, settings)).toBeGreaterThanOrEqual(windowAt(dueAt, due + at, settings));
      }),
    );
  });
});

describe('dueBoundFor', () => {
  it('is the latest dueAt whose window is open: a dueAt is in the queue of a level exactly when that window has opened', () => {
    const moment = fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2090-01-01') });
    fc.assert(
      fc.property(
        moment,
        moment,
        fc.constantFrom(ReminderLevel.dueSoon, ReminderLevel.overdue, ReminderLevel.escalated),
        (dueMs, now, level) => {
          const iso = new Date(dueMs).toISOString();
          // ISO strings of one format compare as the moments they name: the sweep's key condition.
          expect(iso <= dueBoundFor(level, now, settings)).toBe(windowAt(iso, now, settings) >= level);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('shifts now by each window: 24 hours ahead, now, 168 hours back', () => {
    const now = Date.parse('2026-06-15T00:00:00.000Z');
    expect(dueBoundFor(ReminderLevel.dueSoon, now, settings)).toBe('2026-06-16T00:00:00.000Z');
    expect(dueBoundFor(ReminderLevel.overdue, now, settings)).toBe('2026-06-15T00:00:00.000Z');
    expect(dueBoundFor(ReminderLevel.escalated, now, settings)).toBe('2026-06-08T00:00:00.000Z');
  });
});

describe('isOpen', () => {
  it('is every status but the closed ones', () => {
    expect([0, 1, 2, 3, 4, 5].map((s) => isOpen(s, settings))).toEqual([true, true, true, false, false, true]);
    expect(isOpen(3, { closedStatuses: [] })).toBe(true);
  });
});

describe('reminderTypes', () => {
  it('names the history entry of each level that sends one, and none for "none"', () => {
    expect(reminderTypes[ReminderLevel.dueSoon]).toBe('due-soon');
    expect(reminderTypes[ReminderLevel.overdue]).toBe('overdue');
    expect(reminderTypes[ReminderLevel.escalated]).toBe('escalated');
    expect(reminderTypes[ReminderLevel.none]).toBeUndefined();
  });
});

describe('reminderDue', () => {
  it('is only the latest window, once: a late sweep sends the escalation, not the three', () => {
    const action = anAction({ dueAt });
    expect(reminderDue(action, due - 25 * HOUR, settings)).toBeUndefined();
    expect(reminderDue(action, due - HOUR, settings)).toBe(ReminderLevel.dueSoon);
    expect(reminderDue(action, due + 200 * HOUR, settings)).toBe(ReminderLevel.escalated);
    expect(reminderDue({ ...action, reminded: ReminderLevel.dueSoon }, due - HOUR, settings)).toBeUndefined();
    expect(reminderDue({ ...action, reminded: ReminderLevel.dueSoon }, due, settings)).toBe(ReminderLevel.overdue);
    expect(reminderDue({ ...action, reminded: ReminderLevel.escalated }, due + 999 * HOUR, settings)).toBeUndefined();
  });

  it('is nothing for a closed action, however late', () => {
    expect(reminderDue(anAction({ dueAt, status: 3 }), due + 999 * HOUR, settings)).toBeUndefined();
    expect(reminderDue(anAction({ dueAt, status: 4 }), due, settings)).toBeUndefined();
  });

  it('never owes a level already sent, nor one whose window has not opened', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400 * HOUR, max: 400 * HOUR }), fc.integer({ min: 0, max: 3 }), (at, sent) => {
        const level = reminderDue(anAction({ dueAt, reminded: sent }), due + at, settings);
        if (level !== undefined) {
          expect(level).toBeGreaterThan(sent);
          expect(level).toBe(windowAt(dueAt, due + at, settings));
        } else expect(windowAt(dueAt, due + at, settings)).toBeLessThanOrEqual(sent);
      }),
    );
  });
});

describe('settleReminders', () => {
  const sentOverdue = anAction({ dueAt, reminded: ReminderLevel.overdue, overdue: true });

  it('re-arms every reminder when dueAt moves, clearing overdue', () => {
    const moved = settleReminders(sentOverdue, { ...sentOverdue, dueAt: '2027-01-01T00:00:00.000Z' }, settings);
    expect(moved).toMatchObject({ reminded: ReminderLevel.none, overdue: false, dueAt: '2027-01-01T00:00:00.000Z' });
  });

  it('keeps what was sent when dueAt stays', () => {
    const edited = settleReminders(sentOverdue, { ...sentOverdue, title: 'Renamed' }, settings);
    expect(edited).toMatchObject({ reminded: ReminderLevel.overdue, overdue: true, title: 'Renamed' });
  });

  it('clears overdue on closing and sets it again on reopening, keeping the reminders sent', () => {
    const closed = settleReminders(sentOverdue, { ...sentOverdue, status: 3 }, settings);
    expect(closed).toMatchObject({ reminded: ReminderLevel.overdue, overdue: false });
    const reopened = settleReminders(closed, { ...closed, status: 1 }, settings);
    expect(reopened).toMatchObject({ reminded: ReminderLevel.overdue, overdue: true });
  });

  it('never marks overdue an action only reminded it is due soon', () => {
    const soon = anAction({ dueAt, reminded: ReminderLevel.dueSoon, overdue: true });
    expect(settleReminders(soon, soon, settings).overdue).toBe(false);
  });

  it('takes a create (no before) as it comes, and leaves an unchanged action as it is', () => {
    const created = anAction({ dueAt });
    expect(settleReminders(undefined, created, settings)).toEqual(created);
    expect(settleReminders(sentOverdue, sentOverdue, settings)).toEqual(sentOverdue);
  });

  it('overdue is always "open and the overdue reminder sent for this dueAt"', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(1, 2, 3, 4),
        fc.boolean(),
        fc.boolean(),
        (reminded, status, moveDue, overdue) => {
          const before = anAction({ dueAt, reminded, overdue });
          const next = { ...before, status, dueAt: moveDue ? '2030-01-01T00:00:00.000Z' : dueAt };
          const settled = settleReminders(before, next, settings);
          expect(settled.reminded).toBe(moveDue ? ReminderLevel.none : reminded);
          expect(settled.overdue).toBe(isOpen(status, settings) && settled.reminded >= ReminderLevel.overdue);
        },
      ),
    );
  });
});
