import { randomBytes, timingSafeEqual } from 'node:crypto';
import { getConfig } from '../config';
import { NotFoundError, ValidationError } from '../errors';
import { settleAll } from '../flow/fan-out';
import type { Person } from '../model/action';
import { readPreferences, suppressAddress, writePreferences } from '../store/notifications';
import { applyPreferencesPatch, defaultPreferences, type Preferences } from './preferences';

/**
 * A person's preferences as the API and the notifier use them (`GET`/`PATCH
 * /api/me/notifications`), the one-click unsubscribe every email carries (RFC 8058), and the
 * bounces and complaints SES reports.
 */

export interface PersonPreferences {
  preferences: Preferences;
  /** The secret of the person's unsubscribe link, made with their first email. */
  unsubscribeToken: string;
}

const newToken = () => randomBytes(24).toString('base64url');
const dailyOf = (p: Preferences) =>
  p.email === 'daily' ? { timeZone: p.timeZone, digestHour: p.digestHour } : undefined;

/** A person's preferences (the defaults until they set any) and their unsubscribe token, made and kept on first use. */
export async function preferencesFor(personId: string): Promise<PersonPreferences> {
  const stored = await readPreferences(personId);
  // Stored preferences passed this check when they were written; the defaults fill what a later version added.
  const preferences = applyPreferencesPatch(defaultPreferences(), stored?.preferences ?? {});
  if (stored?.unsubscribeToken) return { preferences, unsubscribeToken: stored.unsubscribeToken };
  const unsubscribeToken = newToken();
  await writePreferences(personId, { preferences, unsubscribeToken }, dailyOf(preferences));
  return { preferences, unsubscribeToken };
}

/** `GET /api/me/notifications`. */
export async function getNotificationPreferences(caller: Person): Promise<Preferences> {
  return (await preferencesFor(caller.id)).preferences;
}

/** `PATCH /api/me/notifications`: a merge patch; 400 naming each wrong field. */
export async function patchNotificationPreferences(caller: Person, patch: unknown): Promise<Preferences> {
  const current = await preferencesFor(caller.id);
  const preferences = applyPreferencesPatch(current.preferences, patch);
  await writePreferences(caller.id, { ...current, preferences }, dailyOf(preferences));
  return preferences;
}

/** The one-click unsubscribe URL of a person's emails: a POST to it turns their email off. */
export function unsubscribeUrl(personId: string, token: string): string {
  const base = (getConfig().consoleUrl ?? '').replace(/\/+$/, '');
  return `${base}/api/notifications/unsubscribe?person=${encodeURIComponent(personId)}&token=${token}`;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * `POST /api/notifications/unsubscribe?person=&token=` (RFC 8058 one click, no sign-in): turns
 * the person's email off. A wrong person or token is a 404, as for a link that never existed.
 */
export async function unsubscribe(query: Record<string, string | undefined>): Promise<void> {
  const problems = ['person', 'token']
    .filter((name) => !query[name])
    .map((parameter) => ({ parameter, message: 'is required (use the link of an email)' }));
  if (problems.length > 0) throw new ValidationError(problems);
  const personId = query.person as string;
  const stored = await readPreferences(personId);
  if (!stored?.unsubscribeToken || !sameSecret(stored.unsubscribeToken, query.token as string)) {
    throw new NotFoundError('No such unsubscribe link.');
  }
  const preferences = applyPreferencesPatch(applyPreferencesPatch(defaultPreferences(), stored.preferences), {
    email: 'off',
  });
  await writePreferences(personId, { ...stored, preferences }, undefined);
}

/** What SES reports of a message (its event publishing or notifications, as JSON). */
interface SesFeedback {
  eventType?: string;
  notificationType?: string;
  bounce?: { bounceType?: string; bouncedRecipients?: Array<{ emailAddress?: string }>; timestamp?: string };
  complaint?: { complainedRecipients?: Array<{ emailAddress?: string }>; timestamp?: string };
}

/**
 * Records a bounce (a permanent one: a transient bounce is SES's to retry) or a complaint: email
 * to those addresses stops until their person signs in again. Anything else is ignored. Returns
 * the addresses suppressed.
 */
export async function recordFeedback(message: SesFeedback): Promise<string[]> {
  const type = message.eventType ?? message.notificationType;
  let addresses: string[] = [];
  let at = new Date().toISOString();
  if (type === 'Bounce' && message.bounce?.bounceType === 'Permanent') {
    addresses = (message.bounce.bouncedRecipients ?? []).map((r) => r.emailAddress ?? '');
    at = message.bounce.timestamp ?? at;
  } else if (type === 'Complaint') {
    addresses = (message.complaint?.complainedRecipients ?? []).map((r) => r.emailAddress ?? '');
    at = message.complaint?.timestamp ?? at;
  }
  const valid = addresses.filter((a) => a.includes('@'));
  await settleAll(valid.map((address) => suppressAddress(address, at, String(type))));
  return valid;
}
