import { randomUUID } from 'node:crypto';
import { viewerFor } from '../access/viewer';
import { entriesBehind } from '../actions/event-entries';
import type { PublishedEvent } from '../actions/events';
import { getConfig } from '../config';
import { instantMs } from '../dates';
import { settleAll } from '../flow/fan-out';
import { errorFields, logger } from '../logger';
import type { Sight, Viewer } from '../model/access';
import type { Action } from '../model/action';
import { type RecordedEntry, titleAt } from '../model/history';
import { getAction } from '../store/actions/writes';
import { claimSend, keepForDigest, markSent, releaseSend, suppressedSince } from '../store/notifications';
import { type KnownPerson, knownPeople } from '../store/people';
import { type Happening, importedEmail, noticeEmail } from './email';
import { happeningOf, sightNow } from './happening';
import { type ImportedDetail, importedDetail } from './imported';
import { sendEmail } from './mailer';
import { preferencesFor, unsubscribeUrl } from './people-preferences';
import { type Preferences, wanted } from './preferences';
import { mayTell, type Notice, peopleConcerned, whoIsTold } from './recipients';

/**
 * The notifier (contract section 16), the one sender of email: fed by the published events (and
 * an import's `ActionsImported`, imported.ts), the same path as webhooks, it
 * decides who is told (`whoIsTold`), keeps what a daily digest will tell, and sends the rest by
 * email at once, once per person per event: a claim per (person, event id) is put on condition
 * before the send, and marked sent after it, so a redelivered event sends nothing; a send that
 * fails gives its claim back and throws, so the event comes back and the send is tried again.
 * Email goes only to the verified address remembered from the person's own token, never to one
 * typed into an action, and not to an address that bounced or complained since they last signed in.
 */

/** The events that can tell anyone anything. */
const TOLD_BY = new Set([
  'ActionCreated',
  'ActionUpdated',
  'ActionCommented',
  'ActionDueSoon',
  'ActionOverdue',
  'ActionEscalated',
]);

export interface NotifyReport {
  /** Emails sent. */
  sent: number;
  /** Happenings kept for a daily digest. */
  kept: number;
  /** Notices not sent: no verified address, a suppressed address, or sent before. */
  skipped: number;
}

/**
 * What an event is judged by, as of its change: the sight and the title its history entry
 * recorded, never the action as it is when the notice goes (by then it may be renamed, or moved
 * out of the reader's sight). Only an entry recorded before entries kept these falls back on the
 * action as it stands; `undefined` when that is gone too (nobody is told of an action gone
 * without a trace).
 */
async function asOfEvent(event: PublishedEvent, entry: RecordedEntry | undefined): Promise<Judged | undefined> {
  return judgedAsRecorded(entry) ?? judgedNow(event, entry, await getAction(String(event.detail.id)));
}

/** What an event is judged by: where the action was and who was on it, and its title, as of the change. */
export interface Judged {
  sight: Sight;
  title: string;
}

/** The sight and title an entry recorded, when it kept both (`asOfEvent`); else the action must be read. Pure. */
export function judgedAsRecorded(entry: RecordedEntry | undefined): Judged | undefined {
  const title = entry && titleAt(entry);
  return entry?.sight && title !== undefined ? { sight: entry.sight, title } : undefined;
}

/**
 * What an entry that did not keep both its sight and its title is judged by: what it kept, the rest
 * from the action as it stands (`current`); `undefined` when no title is left (the action is gone
 * and the entry named none). Pure.
 */
export function judgedNow(
  event: PublishedEvent,
  entry: RecordedEntry | undefined,
  current: Action | undefined,
): Judged | undefined {
  const title = (entry && titleAt(entry)) ?? current?.title;
  return title === undefined ? undefined : { sight: entry?.sight ?? sightNow(event, current), title };
}

/**
 * Whether an address that bounced or complained at `since` (`undefined`: never) is held back from a
 * person who last signed in at `signedInAt` (epoch seconds): until they sign in again after it. Pure.
 */
export const suppressedFor = (since: string | undefined, signedInAt: number): boolean =>
  since !== undefined && instantMs(since) >= signedInAt * 1000;

/** Whether email may go to this person's address now: verified, and not bounced since they last signed in. */
export async function mayEmail(person: KnownPerson): Promise<string | undefined> {
  if (!person.email) return undefined;
  if (suppressedFor(await suppressedSince(person.email), person.signedInAt)) return undefined;
  return person.email;
}

/**
 * Who is told what of an event, as of its sight: `whoIsTold` among the people the service knows
 * (someone who never signed in has no proved address, and is not asked about at all), each as
 * `viewers` resolved them. Pure.
 */
export function noticesFor(
  event: PublishedEvent,
  sight: Sight,
  people: ReadonlyMap<string, KnownPerson>,
  viewers: ReadonlyMap<string, Viewer>,
): Notice[] {
  return whoIsTold(event, sight, (id) => (people.has(id) ? viewers.get(id) : undefined));
}

/**
 * What one notice tells its person, by their preferences: the topics they want by email, or
 * `undefined` when they want none of them (then nothing is sent or kept). Pure.
 */
export function noticeHappening(
  event: PublishedEvent,
  notice: Notice,
  title: string,
  preferences: Preferences,
): Happening | undefined {
  const topics = wanted(preferences, notice.topics);
  return topics.length === 0 ? undefined : happeningOf(event, { ...notice, topics }, title);
}

/** Tells everyone one event tells; throws when a send failed (its claim given back), so the event comes again. */
async function notifyOne(event: PublishedEvent, entry: RecordedEntry | undefined, report: NotifyReport): Promise<void> {
  const judged = await asOfEvent(event, entry);
  if (!judged) return;
  const { sight, title } = judged;
  const concerned = peopleConcerned(event, sight);
  if (concerned.length === 0) return;
  const [people, viewers] = await settleAll([
    knownPeople(concerned),
    settleAll(concerned.map(async (id) => [id, await viewerFor(id)] as const)),
  ]);
  for (const notice of noticesFor(event, sight, people, new Map<string, Viewer>(viewers))) {
    const person = people.get(notice.personId) as KnownPerson;
    const preferences = await preferencesFor(person.id);
    const happening = noticeHappening(event, notice, title, preferences.preferences);
    if (!happening) continue;
    await deliver(person, preferences, event, happening, report, (links) =>
      noticeEmail(happening, person.name, preferences.preferences.timeZone, links),
    );
  }
}

/**
 * Tells the assignee of an import's actions how many it assigned them (section 18: one notice per
 * import, not one per row), by the rules of every notice: not the importer of their own import,
 * only with `assigned` on, in their digest when they take one, once per (person, event). An
 * action assigned to someone shows it to them (section 14), so nothing here is out of their sight;
 * the email names no action.
 */
async function notifyImported(event: PublishedEvent, imported: ImportedDetail, report: NotifyReport): Promise<void> {
  const happening = importedHappening(event, imported);
  if (!happening) return;
  const person = (await knownPeople([imported.assignee.id])).get(imported.assignee.id);
  // Someone who never signed in has no proved address.
  if (!person) return;
  const preferences = await preferencesFor(person.id);
  if (wanted(preferences.preferences, happening.topics).length === 0) return;
  await deliver(person, preferences, event, happening, report, (links) =>
    importedEmail(imported.count, imported.importer.name, person.name, links),
  );
}

/**
 * What an import tells its assignee: that it assigned them `count` actions, by the importer's
 * name; `undefined` for an importer's own import (nobody is told what they did themselves). Pure.
 */
export function importedHappening(event: PublishedEvent, imported: ImportedDetail): Happening | undefined {
  if (imported.assignee.id === imported.importer.id) return undefined;
  return {
    eventId: event.id,
    actionId: '',
    title: '',
    topics: ['assigned'],
    actorName: imported.importer.name,
    time: event.time,
    imported: { count: imported.count },
  };
}

/**
 * Sends one person one happening, or keeps it for their daily digest: only to their proved
 * address, never twice for one event (a claim per person and event before the send, marked sent
 * after it; a send that fails gives the claim back and throws, so the event comes again).
 */
async function deliver(
  person: KnownPerson,
  preferences: Awaited<ReturnType<typeof preferencesFor>>,
  event: PublishedEvent,
  happening: Happening,
  report: NotifyReport,
  render: (links: { consoleUrl: string; unsubscribeUrl: string }) => ReturnType<typeof noticeEmail>,
): Promise<void> {
  if (preferences.preferences.email === 'daily') {
    await keepForDigest(person.id, event.id, event.time, happening);
    report.kept++;
    return;
  }
  const address = await mayEmail(person);
  if (!address) {
    report.skipped++;
    return;
  }
  const token = randomUUID();
  if (!(await claimSend(person.id, event.id, token))) {
    report.skipped++;
    return;
  }
  try {
    const email = render({
      consoleUrl: getConfig().consoleUrl ?? '',
      unsubscribeUrl: unsubscribeUrl(person.id, preferences.unsubscribeToken),
    });
    await sendEmail(address, email);
  } catch (error) {
    await releaseSend(person.id, event.id, token);
    throw error;
  }
  await markSent(person.id, event.id, token);
  report.sent++;
}

/**
 * The events that may tell anyone anything, known from their detail alone, before any read: the
 * changes and reminders `mayTell` keeps (most events concern nobody: an edit of neither assignee
 * nor status, a create with no assignee), and the imports' `ActionsImported`, each with its detail.
 * Every other event is skipped. Pure.
 */
export function toTell(events: readonly PublishedEvent[]): {
  telling: PublishedEvent[];
  imports: Array<{ event: PublishedEvent; imported: ImportedDetail }>;
} {
  const telling = events.filter((event) => TOLD_BY.has(event.detailType) && mayTell(event));
  const imports = events.flatMap((event) => {
    const imported = importedDetail(event);
    return imported ? [{ event, imported }] : [];
  });
  return { telling, imports };
}

/**
 * Tells people what the events tell them. Returns the ids of the events that failed (a send or a
 * store call), for the caller to have delivered again; the rest are done.
 */
export async function notifyPeople(
  events: readonly PublishedEvent[],
): Promise<{ report: NotifyReport; failed: string[] }> {
  const report: NotifyReport = { sent: 0, kept: 0, skipped: 0 };
  const failed: string[] = [];
  if (!getConfig().notificationsFrom) return { report, failed };
  const { telling, imports } = toTell(events);
  let entries: Map<string, RecordedEntry>;
  try {
    entries = await entriesBehind(telling);
  } catch (error) {
    logger.error('the history entries of events could not be read; the events come again', errorFields(error));
    return { report, failed: telling.map((event) => event.id) };
  }
  await Promise.all(
    [
      ...telling.map((event) => ({ event, tell: () => notifyOne(event, entries.get(event.id), report) })),
      ...imports.map(({ event, imported }) => ({ event, tell: () => notifyImported(event, imported, report) })),
    ].map(async ({ event, tell }) => {
      try {
        await tell();
      } catch (error) {
        failed.push(event.id);
        logger.error('a notification could not be sent; the event comes again', {
          eventId: event.id,
          ...errorFields(error),
        });
      }
    }),
  );
  return { report, failed };
}
