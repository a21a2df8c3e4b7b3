import { listActions } from '../actions/list';
import { getConfig } from '../config';
import { settleAll } from '../flow/fan-out';
import { errorFields, logger } from '../logger';
import {
  claimDigestDay,
  digestRoster,
  forgetDigested,
  releaseDigestDay,
  waitingForDigest,
} from '../store/notifications';
import { knownPeople } from '../store/people';
import { digestDay, digestDue, digestEmail, type OverdueAction } from './digest';
import type { Happening } from './email';
import { sendEmail } from './mailer';
import { mayEmail } from './notifier';
import { preferencesFor, unsubscribeUrl } from './people-preferences';

/**
 * The daily digests (contract section 16), run by the schedule that runs the due-date sweep:
 * everyone on the digest roster whose hour has come in their zone, and who has not had today's,
 * gets one email with what waited for it and the actions of theirs overdue now (assigned to them,
 * or theirs and unassigned). A day is claimed before its digest is sent, so overlapping runs send
 * one; a send that fails gives the day back for the next run.
 */

/** The most overdue actions one digest lists of each kind (the console lists the rest). */
const OVERDUE_LISTED = 25;

async function overdueFor(personId: string): Promise<OverdueAction[]> {
  const me = { id: personId };
  const lists = await settleAll([
    listActions(`overdue=true&assignee=me&sort=dueAt&limit=${OVERDUE_LISTED}`, me),
    listActions(`overdue=true&owner=me&assignee=undefined&sort=dueAt&limit=${OVERDUE_LISTED}`, me),
  ]);
  return lists.flatMap((list) =>
    list.actions.map((action) => ({ actionId: action.id, title: action.title, dueAt: action.dueAt })),
  );
}

export interface DigestReport {
  sent: number;
  failed: number;
}

/** Sends every digest due at `now` (epoch ms). */
export async function sendDigests(options: { now?: number } = {}): Promise<DigestReport> {
  const report: DigestReport = { sent: 0, failed: 0 };
  if (!getConfig().notificationsFrom) return report;
  const now = options.now ?? Date.now();
  const due = (await digestRoster()).filter((entry) => digestDue(now, entry.timeZone, entry.digestHour, entry.lastDay));
  if (due.length === 0) return report;
  const people = await knownPeople(due.map((entry) => entry.personId));
  for (const entry of due) {
    const person = people.get(entry.personId);
    const day = digestDay(now, entry.timeZone);
    if (!person || !(await claimDigestDay(entry.personId, day))) continue;
    try {
      const [waiting, overdue, preferences] = await settleAll([
        waitingForDigest(person.id),
        overdueFor(person.id),
        preferencesFor(person.id),
      ]);
      const email = digestEmail(
        waiting.map((w) => w.happening as Happening),
        overdue,
        now,
        person.name,
        preferences.preferences.timeZone,
        {
          consoleUrl: getConfig().consoleUrl ?? '',
          unsubscribeUrl: unsubscribeUrl(person.id, preferences.unsubscribeToken),
        },
      );
      const address = await mayEmail(person);
      if (email && address) {
        await sendEmail(address, email);
        report.sent++;
      }
      await forgetDigested(
        person.id,
        waiting.map((w) => w.key),
      );
    } catch (error) {
      report.failed++;
      await releaseDigestDay(entry.personId, day, entry.lastDay);
      logger.error('a digest could not be sent; the next run tries again', {
        personId: person.id,
        ...errorFields(error),
      });
    }
  }
  return report;
}
