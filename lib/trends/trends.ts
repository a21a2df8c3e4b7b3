import { getReminderSettings } from '../config';
import { dayOf, nowIso } from '../dates';
import { ValidationError } from '../errors';
import { parseListTerms } from '../filter/query';
import { parseTrendQuery, type TrendQuery } from '../filter/trend-query';
import { logger } from '../logger';
import { listScopes, type Scope, scopeFields, type Viewer } from '../model/access';
import { type LocationField, locationFields, type Person } from '../model/action';
import { bucketsOf } from '../model/trends';
import { listVisible } from '../store/list/entry';
import { addStats, newStats, type ReadStats } from '../store/list/plan/result';
import { requestBudget } from '../store/query/budget';
import { type DayEnd, readDayEnds, readRecordedDays } from '../store/trends/day-ends';
import { locatedPrefixes } from '../store/trends/located';
import { type DayCounts, PAIRED_DEPTH, readTrendDays, type TrendSlice } from '../store/trends/trend-counters';
import type { Usage } from '../usage';

/**
 * `GET /api/actions/trends` (contract section 17, "Trends"): per bucket, the day counters the
 * stream keeps summed over the bucket's days, and the day-end snapshot of its last day; for the
 * bucket holding today, open and overdue as the list counts them now. Over the caller's scopes
 * (section 14): each scope's prefix is one slice, so a scoped trend is the sum of its scopes'.
 */

export interface TrendBucket {
  start: string;
  end: string;
  created: number;
  closed: number;
  reopened: number;
  closedOnTime: number;
  meanDaysToClose: number | null;
  openAtEnd: number | null;
  overdueAtEnd: number | null;
}

export interface Trend {
  interval: TrendQuery['interval'];
  from: string;
  to: string;
  buckets: TrendBucket[];
}

/**
 * The most location prefixes a trend sums when its location filters skip a field: each is a
 * slice of its own (day counters, day ends and, for today, two counted lists).
 */
const MAX_LOCATED_PREFIXES = 50;

const scopePrefix = (scope: Scope): string[] => scopeFields(scope).map((f) => scope[f] as string);
const startsWith = (long: readonly string[], short: readonly string[]) =>
  short.length <= long.length && short.every((v, i) => long[i] === v);

/**
 * The location prefixes a trend sums: the filter's own prefix in open mode (and for a scope of
 * everything); otherwise, for each of the caller's scopes, the narrower of the two where one
 * holds the other (scopes that hold neither add nothing). `listScopes` already left out the
 * scopes inside another, so no action is counted twice.
 */
export function trendPrefixes(prefix: readonly string[], scopes: readonly Scope[] | undefined): string[][] {
  if (scopes === undefined) return [[...prefix]];
  const found = new Map<string, string[]>();
  for (const scope of scopes) {
    const held = scopePrefix(scope);
    const narrower = startsWith(prefix, held) ? [...prefix] : startsWith(held, prefix) ? held : undefined;
    if (narrower) found.set(JSON.stringify(narrower), narrower);
  }
  return [...found.values()];
}

/**
 * Open and overdue now for one slice: the list's own counts (its `totalCount`), open mode, the
 * slice's filters. Each of the request's `lists` (two a slice, all at once) runs on its share of
 * the request's read allowance (`requestBudget(usage, lists)`): with the whole allowance each,
 * the first list's grant of the read quota took it all and the others answered `0`, `gte`.
 */
async function countNow(
  slice: TrendSlice,
  closed: readonly number[],
  stats: ReadStats,
  lists: number,
  usage: Usage | undefined,
): Promise<DayEnd> {
  const terms: Array<[string, string]> = slice.prefix.map((value, i) => [`location.${locationFields[i]}`, `=${value}`]);
  if (slice.field) terms.push([slice.field, `=${slice.value}`]);
  terms.push(['limit', '0']);
  const [open, overdue] = await Promise.all([
    listVisible(
      parseListTerms([...terms, ...closed.map((s): [string, string] => ['status', `!${s}`])]),
      undefined,
      undefined,
      requestBudget(usage, lists),
    ),
    listVisible(parseListTerms([...terms, ['overdue', 'true']]), undefined, undefined, requestBudget(usage, lists)),
  ]);
  addStats(stats, open.stats);
  addStats(stats, overdue.stats);
  return { open: open.totalCount, overdue: overdue.totalCount };
}

const add = (a: DayCounts, b: DayCounts): DayCounts => ({
  created: a.created + b.created,
  closed: a.closed + b.closed,
  reopened: a.reopened + b.reopened,
  closedOnTime: a.closedOnTime + b.closedOnTime,
  secondsToClose: a.secondsToClose + b.secondsToClose,
});
const zero: DayCounts = { created: 0, closed: 0, reopened: 0, closedOnTime: 0, secondsToClose: 0 };

/** One slice's numbers over the range: its day counts, its day ends (`undefined` where none is kept), and now. */
async function readSlice(
  slice: TrendSlice,
  query: TrendQuery,
  today: string,
  recorded: Map<string, boolean>,
  stats: ReadStats,
  lists: number,
  usage: Usage | undefined,
) {
  const closed = getReminderSettings().closedStatuses;
  const snapshotted = slice.field === undefined && slice.prefix.length <= PAIRED_DEPTH;
  const [days, ends, now] = await Promise.all([
    readTrendDays(slice, query.from, query.to, stats),
    snapshotted ? readDayEnds(slice, query.from, query.to, stats) : undefined,
    query.to === today ? countNow(slice, closed, stats, lists, usage) : undefined,
  ]);
  const endOf = (day: string): DayEnd | undefined => {
    if (day === today) return now;
    const complete = recorded.get(day);
    if (!ends || complete === undefined || (slice.prefix.length > 0 && !complete)) return undefined;
    // A recorded day with no snapshot for this prefix: nothing was there.
    return ends.get(day) ?? { open: 0, overdue: 0 };
  };
  return { days, endOf };
}

/** The trend `raw` asks for, over what `viewer` sees (open mode without one); what it read is added to `stats`. */
export async function trendsFor(
  raw: string,
  caller: Pick<Person, 'id'>,
  viewer?: Viewer,
  usage?: Usage,
  stats: ReadStats = newStats(),
): Promise<Trend> {
  const today = dayOf(nowIso());
  const query = parseTrendQuery(raw, caller.id, today);
  const located = query.prefix ? [query.prefix] : await locatedPrefixes(query.location, query.depth, stats);
  if (located === undefined || located.length > MAX_LOCATED_PREFIXES) {
    const missing = locationFields.find((field) => query.location[field] === undefined) as LocationField;
    throw new ValidationError([
      {
        parameter: `location.${missing}`,
        message: `is needed: the location filters hold for ${located ? located.length : 'too many'} locations, more than a trend sums (${MAX_LOCATED_PREFIXES})`,
      },
    ]);
  }
  const scopes = viewer ? listScopes(viewer) : undefined;
  const byKey = new Map<string, string[]>();
  for (const prefix of located.flatMap((p) => trendPrefixes(p, scopes))) byKey.set(JSON.stringify(prefix), prefix);
  const prefixes = [...byKey.values()];
  if (query.other && prefixes.some((p) => p.length > PAIRED_DEPTH))
    throw new ValidationError([
      {
        parameter: query.other.field,
        message: `cannot be combined with a scope of yours deeper than location.${locationFields[PAIRED_DEPTH - 1]}`,
      },
    ]);
  const slices: TrendSlice[] = prefixes.map((prefix) => ({
    prefix,
    ...(query.other ? { field: query.other.field, value: query.other.value } : {}),
  }));
  const recorded = await readRecordedDays(query.from, query.to, stats);
  const read = await Promise.all(
    slices.map((slice) => readSlice(slice, query, today, recorded, stats, 2 * slices.length, usage)),
  );
  const buckets = bucketsOf(query.interval, query.from, query.to).map((span): TrendBucket => {
    let counts = zero;
    for (const { days } of read)
      for (const [day, c] of days) if (day >= span.start && day <= span.end) counts = add(counts, c);
    const ends = read.map(({ endOf }) => endOf(span.end));
    const known = ends.every((e) => e !== undefined);
    return {
      ...span,
      created: counts.created,
      closed: counts.closed,
      reopened: counts.reopened,
      closedOnTime: counts.closedOnTime,
      meanDaysToClose: counts.closed === 0 ? null : Math.round(counts.secondsToClose / counts.closed / 8640) / 10,
      openAtEnd: known ? ends.reduce((sum, e) => sum + (e as DayEnd).open, 0) : null,
      overdueAtEnd: known ? ends.reduce((sum, e) => sum + (e as DayEnd).overdue, 0) : null,
    };
  });
  logger.info('trend cost', { slices: slices.length, buckets: buckets.length, ...stats });
  return { interval: query.interval, from: query.from, to: query.to, buckets };
}
