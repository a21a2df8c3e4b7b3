/**
 * Times as a person reads them: in their time zone, with the zone named ("Tue 1 Dec 2026, 18:00
 * AWST"), so a supervisor in Perth reads 18:00 AWST and not 10:00 UTC. Pure.
 */

/** Locales tried in turn for a zone's abbreviation; the first that has a name (not "GMT+8") wins. */
const ABBREVIATION_LOCALES = ['en-US', 'en-AU', 'en-GB', 'en-IN', 'en-NZ', 'en-ZA', 'en-CA'];

const zoneName = (at: Date, timeZone: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;

/** The zone's short name at that instant (AWST, CET, EST), else its offset (GMT+5:45). */
export function zoneAbbreviation(at: Date, timeZone: string): string {
  let fallback: string | undefined;
  for (const locale of ABBREVIATION_LOCALES) {
    const name = zoneName(at, timeZone, locale);
    if (!/^GMT[+-]/.test(name)) return name;
    fallback ??= name;
  }
  return fallback ?? timeZone;
}

/** "Tue 1 Dec 2026, 18:00 AWST". */
export function formatTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} ${zoneAbbreviation(at, timeZone)}`;
}

/** The calendar day and hour of an instant in a zone: what the digest's schedule compares. */
export function localDayAndHour(epochMs: number, timeZone: string): { day: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(epochMs))
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}
