/**
 * ISO 8601 parsing for the API. Stored and returned times are canonical UTC with milliseconds
 * (`2026-12-01T10:00:00.000Z`), so string order is time order and a day is a string prefix.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
// Not Date.UTC(0, 0, 1): Date.UTC reads years 0-99 as 1900-1999. Year 0000 is the first 4-digit year.
const MIN_TIME = new Date('0000-01-01T00:00:00.000Z').getTime();

function validCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const probe = new Date(0);
  probe.setUTCFullYear(year, month, 0); // day 0 of next month = last day of this one
  return day <= probe.getUTCDate();
}

function toIso(ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms < MIN_TIME || ms > MAX_TIME) return undefined;
  return new Date(ms).toISOString();
}

/**
 * A date-time with an offset or `Z`, as canonical UTC with milliseconds; digits past
 * milliseconds are cut off. `undefined` when it is not one.
 */
export function parseDateTime(text: string): string | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (!validCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, millis);
  return toIso(utc.getTime() - offsetMinutes * 60_000);
}

/** A calendar date `YYYY-MM-DD`, as the UTC instants [start, end) of that day. */
export function parseDay(text: string): { start: string; end: string } | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!validCalendarDate(year, month, day)) return undefined;
  const start = new Date(0);
  start.setUTCFullYear(year, month - 1, day);
  start.setUTCHours(0, 0, 0, 0);
  const startIso = toIso(start.getTime());
  if (!startIso) return undefined;
  // The last day of year 9999 ends past the range we can print; its end is an open bound.
  const endIso = toIso(start.getTime() + DAY_MS) ?? '9999-12-31T23:59:59.999Z\uffff';
  return { start: startIso, end: endIso };
}

/** The instant one millisecond later, for turning `> t` into `>= t + 1ms`. */
export const nextMillisecond = (iso: string): string => toIso(instantMs(iso) + 1) ?? `${iso}\uffff`;

/** A day, in milliseconds. */
export const DAY_MS = 86_400_000;

/**
 * The instant a time names, in milliseconds since the epoch (`NaN` when it names none): the one
 * place a stored or received time is read as a number.
 */
export const instantMs = (time: string): number => Date.parse(time);

/**
 * The UTC day (`YYYY-MM-DD`) of an instant: a canonical time's first ten characters (its day is a
 * string prefix), or the day of a time in milliseconds.
 */
export const dayOf = (instant: string | number): string =>
  (typeof instant === 'number' ? new Date(instant).toISOString() : instant).slice(0, 10);

/** The first instant of a UTC day (`YYYY-MM-DD`), in milliseconds. */
export const dayStartMs = (day: string): number => instantMs(`${day}T00:00:00.000Z`);

/** The day `days` days after `day` (before it, when negative). */
export const addDays = (day: string, days: number): string => dayOf(dayStartMs(day) + days * DAY_MS);

/** The Monday that begins the ISO week holding `day`. */
export function weekStart(day: string): string {
  const sinceMonday = (new Date(dayStartMs(day)).getUTCDay() + 6) % 7;
  return addDays(day, -sinceMonday);
}

/** The first day of the calendar month holding `day`. */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** The first day of the calendar month after the one holding `day`. */
export function nextMonthStart(day: string): string {
  const date = new Date(dayStartMs(day));
  date.setUTCMonth(date.getUTCMonth() + 1, 1);
  return dayOf(date.getTime());
}

/** Now, canonical. */
export const nowIso = (): string => new Date().toISOString();
