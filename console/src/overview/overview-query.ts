import { LIST_VIEWS } from '../../routes';
import { LOCATION_FIELDS } from '../action-form';
import { OPEN_STATUSES } from '../statuses';

/**
 * What the Overview (contract section 17) asks and where each of its numbers links, pure: every
 * number is counted by a list query, and links to the list address whose `totalCount` is that
 * number (the same filters, with the instants fixed when the Overview was read, so the list
 * counts the same moment's window).
 */

/** A list query: filters as (parameter, value) pairs, repeatable. */
export type Filters = [string, string][];

export type LocationKey = (typeof LOCATION_FIELDS)[number][0];
export const LEVELS: LocationKey[] = LOCATION_FIELDS.map(([key]) => key);
export const levelName = (key: LocationKey) => LOCATION_FIELDS.find(([k]) => k === key)?.[1] ?? key;

/** The scope an Overview address drills into: a location prefix, from `location.<field>` parameters. */
export function scopeOf(address: URLSearchParams): Filters {
  const scope: Filters = [];
  for (const level of LEVELS) {
    const value = address.get(`location.${level}`);
    if (value === null) break;
    scope.push([`location.${level}`, value]);
  }
  return scope;
}

/** The level below a scope (business unit at the top), or undefined past the crew. */
export const nextLevel = (scope: Filters): LocationKey | undefined => LEVELS[scope.length];

/** The Overview's own address for a scope. */
export const overviewPath = (scope: Filters) => `/overview${scope.length ? `?${new URLSearchParams(scope)}` : ''}`;

export const OPEN: Filters = [['status', `~${OPEN_STATUSES}`]];
export const OVERDUE: Filters = [['overdue', 'true']];

const DAY_MS = 86_400_000;
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The list address (All actions) whose API query is these filters: `location.site` is the list's `site`. */
export function listPath(filters: Filters): string {
  const address = new URLSearchParams(
    filters.map(([name, value]): [string, string] => [name === 'location.site' ? 'site' : name, value]),
  );
  const query = address.toString();
  return `${LIST_VIEWS.all.path}${query ? `?${query}` : ''}`;
}

/** The tiles' filters at an instant: open, overdue, due in the next 7 days, closed in the last 30 and 90 days. */
export function tileFilters(scope: Filters, now: Date) {
  const at = now.getTime();
  return {
    open: [...scope, ...OPEN],
    overdue: [...scope, ...OVERDUE],
    dueSoon: [
      ...scope,
      ...OPEN,
      ['dueAt', `>${now.toISOString()}`],
      ['dueAt', `<${new Date(at + 7 * DAY_MS).toISOString()}`],
    ] as Filters,
    closed30: [...scope, ['closedAt', `>${new Date(at - 30 * DAY_MS).toISOString()}`]] as Filters,
    closed90: [...scope, ['closedAt', `>${new Date(at - 90 * DAY_MS).toISOString()}`]] as Filters,
  };
}

/** The four `overdueAge` buckets of section 17, oldest last. */
export const AGES = ['1-7', '8-30', '31-90', '91+'] as const;
export type Age = (typeof AGES)[number];

/**
 * The list of an `overdueAge` bucket: overdue, with `dueAt` in the bucket's whole UTC days since
 * it (today's date minus the due date's, an action due earlier today counting as 1): "1-7" is
 * due after the end of the day 8 days ago; "91+" before the start of the day 90 days ago.
 */
export function ageFilters(scope: Filters, age: Age, now: Date): Filters {
  const today = Date.parse(utcDay(now.getTime()));
  const dayAgo = (n: number) => utcDay(today - n * DAY_MS);
  const range: Record<Age, Filters> = {
    '1-7': [['dueAt', `>${dayAgo(8)}`]],
    '8-30': [
      ['dueAt', `>${dayAgo(31)}`],
      ['dueAt', `<${dayAgo(7)}`],
    ],
    '31-90': [
      ['dueAt', `>${dayAgo(91)}`],
      ['dueAt', `<${dayAgo(30)}`],
    ],
    '91+': [['dueAt', `<${dayAgo(90)}`]],
  };
  return [...scope, ...OVERDUE, ...range[age]];
}

/** The Monday that starts the UTC week holding `ms`. */
export function mondayOf(ms: number): string {
  const day = new Date(Date.parse(utcDay(ms)));
  const back = (day.getUTCDay() + 6) % 7;
  return utcDay(day.getTime() - back * DAY_MS);
}

/** The weekly trend's window: 13 weeks, the last one holding today. */
export function trendWindow(now: Date): { from: string; to: string } {
  const thisMonday = Date.parse(mondayOf(now.getTime()));
  return { from: utcDay(thisMonday - 12 * 7 * DAY_MS), to: utcDay(now.getTime()) };
}

/** The trend query: its interval, window and the scope's location filters (the trend takes `=` filters only). */
export const trendQuery = (scope: Filters, interval: 'day' | 'week', from: string, to: string): Filters => [
  ['interval', interval],
  ['from', from],
  ['to', to],
  ...scope,
];

/** The list of actions created in a bucket's days (inclusive), and of those closed in them. */
export const createdIn = (scope: Filters, start: string, end: string): Filters => [
  ...scope,
  ['createdAt', `>${utcDay(Date.parse(start) - DAY_MS)}`],
  ['createdAt', `<${utcDay(Date.parse(end) + DAY_MS)}`],
];
export const closedIn = (scope: Filters, start: string, end: string): Filters => [
  ...scope,
  ['closedAt', `>${utcDay(Date.parse(start) - DAY_MS)}`],
  ['closedAt', `<${utcDay(Date.parse(end) + DAY_MS)}`],
];

/** A share in words: "12%" (none of none reads "—"). */
export const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '—');

/** The mean of bucket means weighted by their closes, to one decimal; null with no closes. */
export function meanDays(buckets: { closed: number; meanDaysToClose: number | null }[]): number | null {
  let closes = 0;
  let days = 0;
  for (const b of buckets)
    if (b.closed > 0 && b.meanDaysToClose !== null) {
      closes += b.closed;
      days += b.closed * b.meanDaysToClose;
    }
  return closes ? Math.round((10 * days) / closes) / 10 : null;
}
