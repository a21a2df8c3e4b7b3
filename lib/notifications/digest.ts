import {
  actionLink,
  type Email,
  escapeHtml,
  type Happening,
  happeningLink,
  type Links,
  oneLine,
  sentences,
  unsubscribeHeaders,
} from './email';
import { formatTime, localDayAndHour } from './times';

/**
 * The daily digest (contract section 16), pure: a function of what happened since the last one,
 * the actions overdue now, and the clock, so a test with a fixed clock knows every word of it.
 */

/** An open action past its due time, as the digest lists it. */
export interface OverdueAction {
  actionId: string;
  title: string;
  dueAt: string;
}

/**
 * Whether a person's digest is due at `now`: their hour has come in their zone today, and no
 * digest went out for today yet (`lastDay`, the local day of the last one).
 */
export function digestDue(now: number, timeZone: string, digestHour: number, lastDay: string | undefined): boolean {
  const { day, hour } = localDayAndHour(now, timeZone);
  return hour >= digestHour && lastDay !== day;
}

/** The local day a digest sent at `now` counts for. */
export const digestDay = (now: number, timeZone: string) => localDayAndHour(now, timeZone).day;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The digest email, or `undefined` when there is nothing to tell. Happenings oldest first, each
 * with its time; overdue actions by due time, the longest overdue first.
 */
export function digestEmail(
  happenings: readonly Happening[],
  overdue: readonly OverdueAction[],
  now: number,
  recipientName: string,
  timeZone: string,
  links: Links,
): Email | undefined {
  if (happenings.length === 0 && overdue.length === 0) return undefined;
  const events = [...happenings].sort((a, b) => a.time.localeCompare(b.time) || a.eventId.localeCompare(b.eventId));
  const late = [...overdue].sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.actionId.localeCompare(b.actionId));
  const day = formatTime(new Date(now).toISOString(), timeZone).replace(/,.*$/, '');
  const counts = [
    ...(events.length > 0 ? [plural(events.length, 'update', 'updates')] : []),
    ...(late.length > 0 ? [`${late.length} overdue`] : []),
  ].join(', ');
  const happened = events.map((h) => ({
    when: formatTime(h.time, timeZone),
    said: sentences(h, timeZone).join(' '),
    link: happeningLink(links.consoleUrl, h),
  }));
  const lateLines = late.map((a) => ({
    said: `"${a.title}" was due ${formatTime(a.dueAt, timeZone)}.`,
    link: actionLink(links.consoleUrl, a.actionId),
  }));
  const text = [
    `Hello ${recipientName},`,
    '',
    `Your summary for ${day}: ${counts}.`,
    ...(happened.length > 0 ? ['', 'What happened:', ...happened.map((h) => `- ${h.when}: ${h.said} ${h.link}`)] : []),
    ...(lateLines.length > 0 ? ['', 'Overdue:', ...lateLines.map((a) => `- ${a.said} ${a.link}`)] : []),
    '',
    'Change what you are sent, and when, on the Notifications page of the console.',
  ].join('\n');
  const item = (said: string, link: string, when?: string) =>
    `<li>${when ? `${escapeHtml(when)}: ` : ''}<a href="${escapeHtml(link)}">${escapeHtml(said)}</a></li>`;
  const html = [
    `<p>Hello ${escapeHtml(recipientName)},</p>`,
    `<p>Your summary for ${escapeHtml(day)}: ${escapeHtml(counts)}.</p>`,
    ...(happened.length > 0
      ? ['<h2>What happened</h2>', '<ul>', ...happened.map((h) => item(h.said, h.link, h.when)), '</ul>']
      : []),
    ...(lateLines.length > 0
      ? ['<h2>Overdue</h2>', '<ul>', ...lateLines.map((a) => item(a.said, a.link)), '</ul>']
      : []),
    '<p><small>Change what you are sent, and when, on the Notifications page of the console.</small></p>',
  ].join('\n');
  return {
    subject: oneLine(`Your summary for ${day}: ${counts}`),
    text,
    html,
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}
