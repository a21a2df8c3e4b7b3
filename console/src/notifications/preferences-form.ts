import type { NotificationPreferences } from '../api-pending';

/**
 * The Notifications screen's words and its merge patch, pure (contract section 16): what each
 * event means to the person, and only the preferences they changed are sent.
 */

export const EMAIL_CHOICES: [NotificationPreferences['email'], string][] = [
  ['immediately', 'One email for each event, as it happens'],
  ['daily', 'One email a day, at the hour below'],
  ['off', 'No email'],
];

export const EVENT_WORDS: [keyof NotificationPreferences['events'], string][] = [
  ['assigned', 'An action is assigned to me'],
  ['dueSoon', 'An action of mine is due soon'],
  ['overdue', 'An action of mine falls overdue'],
  ['escalated', 'An action of mine is escalated'],
  ['comments', 'Someone comments on an action of mine'],
  ['status', 'Someone changes the status of an action of mine'],
];

/** The merge patch from the saved preferences to the ones on the form: changed fields only. */
export function preferencesPatch(
  saved: NotificationPreferences,
  form: NotificationPreferences,
): Partial<NotificationPreferences> {
  const patch: Partial<NotificationPreferences> = {};
  if (form.email !== saved.email) patch.email = form.email;
  if (form.timeZone !== saved.timeZone) patch.timeZone = form.timeZone;
  if (form.digestHour !== saved.digestHour) patch.digestHour = form.digestHour;
  const events = Object.fromEntries(
    EVENT_WORDS.filter(([name]) => form.events[name] !== saved.events[name]).map(([name]) => [name, form.events[name]]),
  );
  if (Object.keys(events).length > 0) patch.events = events as NotificationPreferences['events'];
  return patch;
}

/** An hour of the day as a clock reads it: 7 -> "07:00". */
export const hourInWords = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
