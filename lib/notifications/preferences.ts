import { type Problem, ValidationError } from '../errors';
import { type Topic, topics } from './recipients';

/**
 * A person's notification preferences (contract section 16): how email comes (each event at
 * once, one daily digest, or none), which events, and the time zone and hour of the digest. Pure:
 * the defaults, and a merge patch (RFC 7396) checked field by field.
 */

export const emailModes = ['immediately', 'daily', 'off'] as const;
export type EmailMode = (typeof emailModes)[number];

export interface Preferences {
  email: EmailMode;
  events: Record<Topic, boolean>;
  /** An IANA time zone name: the digest's hour and every time in an email are in it. */
  timeZone: string;
  /** The hour of the day (0-23, in `timeZone`) the daily digest is sent. */
  digestHour: number;
}

export const defaultPreferences = (): Preferences => ({
  email: 'immediately',
  events: Object.fromEntries(topics.map((topic) => [topic, true])) as Record<Topic, boolean>,
  timeZone: 'UTC',
  digestHour: 7,
});

/** Whether `name` is a time zone this runtime knows (Intl's own list, so formatting can use it). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `current` with a merge patch applied; a 400 naming every field that is wrong. `null` resets a
 * field to its default (a merge patch's `null` removes a member, and a removed preference is the default).
 */
export function applyPreferencesPatch(current: Preferences, patch: unknown): Preferences {
  if (!isObject(patch)) throw new ValidationError([{ field: 'body', message: 'must be a JSON object' }]);
  const defaults = defaultPreferences();
  const next: Preferences = { ...current, events: { ...current.events } };
  const problems: Problem[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'email') {
      if (value === null) next.email = defaults.email;
      else if (emailModes.includes(value as EmailMode)) next.email = value as EmailMode;
      else problems.push({ field: 'email', message: `must be one of ${emailModes.join(', ')}` });
    } else if (key === 'events') {
      if (value === null) next.events = defaults.events;
      else if (!isObject(value)) problems.push({ field: 'events', message: 'must be an object of booleans' });
      else {
        for (const [topic, on] of Object.entries(value)) {
          if (!(topics as readonly string[]).includes(topic)) {
            problems.push({
              field: `events.${topic}`,
              message: `is not an event; the events are ${topics.join(', ')}`,
            });
          } else if (on === null) next.events[topic as Topic] = true;
          else if (typeof on !== 'boolean')
            problems.push({ field: `events.${topic}`, message: 'must be true or false' });
          else next.events[topic as Topic] = on;
        }
      }
    } else if (key === 'timeZone') {
      if (value === null) next.timeZone = defaults.timeZone;
      else if (typeof value !== 'string' || !isTimeZone(value)) {
        problems.push({ field: 'timeZone', message: 'must be an IANA time zone name, e.g. Australia/Perth' });
      } else next.timeZone = value;
    } else if (key === 'digestHour') {
      if (value === null) next.digestHour = defaults.digestHour;
      else if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 23) {
        problems.push({ field: 'digestHour', message: 'must be a whole number from 0 to 23' });
      } else next.digestHour = value as number;
    } else {
      problems.push({ field: key, message: 'is not a preference; they are email, events, timeZone and digestHour' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return next;
}

/** The topics of a notice the person wants by email, given how they take email. */
export const wanted = (preferences: Preferences, told: readonly Topic[]): Topic[] =>
  preferences.email === 'off' ? [] : told.filter((topic) => preferences.events[topic]);
