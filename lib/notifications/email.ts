import type { Topic } from './recipients';
import { formatTime } from './times';

/**
 * What an email says (contract section 16), pure: the action's title, what happened and by whom,
 * times in the recipient's zone, a link to the action in the console and, in the headers, the
 * one-click unsubscribe of RFC 8058. Nothing else of the action: no description, location or
 * comment text, so an email never carries more than its reader may see.
 */

/** One thing that happened to one action, as a person is told it (at once, or in a digest). */
export interface Happening {
  eventId: string;
  actionId: string;
  title: string;
  topics: Topic[];
  /** Who did it (a reminder's actor is the service). */
  actorName: string;
  time: string;
  /** For `status`: the statuses before and after. */
  status?: { before: string; after: string };
  /** For the reminders: the due time they are about. */
  dueAt?: string;
  /** For an import (section 18): how many of its actions were assigned; `actionId` and `title` are then empty. */
  imported?: { count: number };
}

export interface Email {
  subject: string;
  text: string;
  html: string;
  headers: Array<{ name: string; value: string }>;
}

/** Where an email's links go. */
export interface Links {
  /** The console's origin, e.g. `https://console.example.com`; the action is `/actions/<id>` on it. */
  consoleUrl: string;
  /** The one-click unsubscribe URL (a POST turns email off; RFC 8058). */
  unsubscribeUrl: string;
}

const subjectOf: Record<Topic, string> = {
  assigned: 'Assigned to you',
  dueSoon: 'Due soon',
  overdue: 'Overdue',
  escalated: 'Escalated',
  comments: 'New comment',
  status: 'Status changed',
};

export const actionLink = (consoleUrl: string, actionId: string) =>
  `${consoleUrl.replace(/\/+$/, '')}/actions/${encodeURIComponent(actionId)}`;

/** The console's list of the person's own actions: where an import's notice points. */
const assignedLink = (consoleUrl: string) => `${consoleUrl.replace(/\/+$/, '')}/?assignee=me`;

/** Where a happening's line links: its action, or for an import the person's own actions. */
export const happeningLink = (consoleUrl: string, happening: Happening) =>
  happening.imported ? assignedLink(consoleUrl) : actionLink(consoleUrl, happening.actionId);

const assignedByImport = (count: number, importerName: string) =>
  `${count} ${count === 1 ? 'action was' : 'actions were'} assigned to you by ${importerName}'s import.`;

/** One sentence per topic: what happened and by whom. */
export function sentences(happening: Happening, timeZone: string): string[] {
  const { actorName: actor, title } = happening;
  const due = happening.dueAt ? formatTime(happening.dueAt, timeZone) : 'its due time';
  const say: Record<Topic, () => string> = {
    assigned: () =>
      happening.imported ? assignedByImport(happening.imported.count, actor) : `${actor} assigned "${title}" to you.`,
    status: () =>
      happening.status
        ? `${actor} changed the status of "${title}" from ${happening.status.before} to ${happening.status.after}.`
        : `${actor} changed the status of "${title}".`,
    comments: () => `${actor} commented on "${title}".`,
    dueSoon: () => `"${title}" is due ${due}.`,
    overdue: () => `"${title}" is overdue: it was due ${due}.`,
    escalated: () => `"${title}" is escalated: it was due ${due} and is still open.`,
  };
  return happening.topics.map((topic) => say[topic]());
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The headers every email carries: one-click unsubscribe (RFC 8058 and RFC 2369). */
export const unsubscribeHeaders = (unsubscribeUrl: string) => [
  { name: 'List-Unsubscribe', value: `<${unsubscribeUrl}>` },
  { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
];

const FOOTER =
  'You get this because you are on this action. Change what you are sent on the Notifications page of the console, or unsubscribe from every email with the link your mail program offers.';

/** The email that tells one person one happening at once. */
export function noticeEmail(happening: Happening, recipientName: string, timeZone: string, links: Links): Email {
  const told = sentences(happening, timeZone);
  const link = actionLink(links.consoleUrl, happening.actionId);
  const when = formatTime(happening.time, timeZone);
  const first = happening.topics[0] ?? 'status';
  const text = [`Hello ${recipientName},`, '', ...told, `(${when})`, '', `Open the action: ${link}`, '', FOOTER].join(
    '\n',
  );
  const html = [
    `<p>Hello ${escapeHtml(recipientName)},</p>`,
    ...told.map((sentence) => `<p>${escapeHtml(sentence)}</p>`),
    `<p><small>${escapeHtml(when)}</small></p>`,
    `<p><a href="${escapeHtml(link)}">Open the action</a></p>`,
    `<p><small>${escapeHtml(FOOTER)}</small></p>`,
  ].join('\n');
  return {
    subject: oneLine(`${subjectOf[first]}: ${happening.title}`),
    text,
    html,
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}

/** A subject is one line of at most 200 characters. */
export const oneLine = (text: string) => {
  const line = text.replace(/[\r\n\t]+/g, ' ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/**
 * The email that tells one person what an import assigned them (contract section 18): one for the
 * whole import, "N actions were assigned to you", never one per row. It names who imported them
 * and links to the console's list of the person's own open actions.
 */
export function importedEmail(
  count: number,
  importerName: string,
  recipientName: string,
  links: { consoleUrl: string; unsubscribeUrl: string },
): Email {
  const told = `${count} ${count === 1 ? 'action was' : 'actions were'} assigned to you`;
  const sentence = assignedByImport(count, importerName);
  const link = assignedLink(links.consoleUrl);
  const text = [`Hello ${recipientName},`, '', sentence, '', `See them: ${link}`, '', FOOTER].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(recipientName)},</p>`,
    `<p>${escapeHtml(sentence)}</p>`,
    `<p><a href="${escapeHtml(link)}">See them</a></p>`,
    `<p><small>${escapeHtml(FOOTER)}</small></p>`,
  ].join('\n');
  return { subject: oneLine(told), text, html, headers: unsubscribeHeaders(links.unsubscribeUrl) };
}
