import { signal } from '@preact/signals';

/**
 * Times as the person reads them: in their time zone (their notification preference, else the
 * browser's), with the zone named ("2026-11-24 18:00 AWST"), and the due field's wall-clock time
 * in that zone turned back into an instant. Pure but for the `timeZone` signal.
 */

/** The browser's own zone, the fallback before (or without) a preference. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The zone every time in the console is shown in. */
export const timeZone = signal<string>(browserZone());

// A zone's short name differs by locale: en-US names Perth "GMT+8", en-AU "AWST". The person's
// own locale first, then the English of the regions whose zones have names people write.
const NAMING_LOCALES = ['en-US', 'en-AU', 'en-GB', 'en-IN', 'en-ZA', 'en-NZ', 'en-CA'];
const zoneNames = new Map<string, string>();

function shortName(zone: string, at: Date, locale: string): string | undefined {
  try {
    return new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
  } catch {
    return undefined;
  }
}

/** The zone's short name at an instant (summer and winter differ): a written abbreviation where one exists, else GMT±h. */
export function zoneName(zone: string, at: Date, locales: readonly string[] = [navigatorLocale()]): string {
  const key = `${zone}|${at.getUTCFullYear()}-${at.getUTCMonth()}|${locales.join()}`;
  const known = zoneNames.get(key);
  if (known) return known;
  const names = [...locales, ...NAMING_LOCALES].map((locale) => shortName(zone, at, locale));
  const name = names.find((n) => n && !/^(GMT|UTC)[+-]/.test(n)) ?? names.find(Boolean) ?? zone;
  zoneNames.set(key, name);
  return name;
}

/** The browser's language (none in Node, where the unit tests run). */
const navigatorLocale = () => (globalThis as { navigator?: { language?: string } }).navigator?.language || 'en-US';

/** The instant's wall-clock fields in a zone. */
function wallClock(at: Date, zone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

/** How far the zone's clock is ahead of UTC at an instant, in ms. */
function offsetMs(at: Date, zone: string): number {
  const w = wallClock(at, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at.getTime() / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date-time as people read it: `24 Nov 2026, 18:00 AWST` in the given zone (the person's by
 * default): day, month's name and year, so neither a US nor a European reader mistakes the day
 * for the month, as the emails of section 16 write it.
 */
export function formatTime(iso: string, zone = timeZone.value, locales?: readonly string[]): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const w = wallClock(at, zone);
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year}, ${pad(w.hour)}:${pad(w.minute)} ${zoneName(zone, at, locales)}`;
}

/** A calendar day (`2026-11-24`) as people read it: `24 Nov 2026`. */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  return `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}`;
}

/** The instant a calendar day starts in a zone (the person's by default), as ISO. */
export const startOfDay = (day: string, zone = timeZone.value): string => fromZonedInput(`${day}T00:00`, zone);

/** An instant as a `datetime-local` control shows it in a zone (to the minute). */
export function toZonedInput(iso: string, zone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Date(at.getTime() + offsetMs(at, zone)).toISOString().slice(0, 16);
}

/** A `datetime-local` value read as wall-clock time in a zone, as an ISO instant ('' for ''). */
export function fromZonedInput(value: string, zone: string): string {
  if (!value) return '';
  const asUtc = Date.parse(`${value}:00Z`);
  if (Number.isNaN(asUtc)) return value;
  // The offset at the guess, then at the result: right across a daylight-saving change too.
  let instant = asUtc - offsetMs(new Date(asUtc), zone);
  const second = offsetMs(new Date(instant), zone);
  instant = asUtc - second;
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}
