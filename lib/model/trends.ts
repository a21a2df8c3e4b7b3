import { addDays, dayOf, instantMs, monthStart, nextMonthStart, weekStart } from '../dates';
import type { ActionView } from './action';
import type { RecordedEntry, TrendSubject } from './history';

export type { TrendSubject } from './history';

/**
 * The trend rules of contract section 17, pure: which history entry moves which day counter,
 * and how a range of days falls into day, week and month buckets. The store keeps the counters
 * (`lib/store/trends/`), the stream feeds them, the use case reads them (`lib/trends/trends.ts`).
 */

export const trendSubjectOf = (view: ActionView): TrendSubject => ({
  location: view.location,
  producer: view.actionProducer.name,
  priority: view.priority,
  ownerId: view.owner.id,
  assigneeId: view.assignee.id,
  createdAt: view.createdAt,
  dueAt: view.dueAt,
});

/** One entry's increments of its day's counters. */
export interface TrendCounts {
  created: number;
  closed: number;
  reopened: number;
  closedOnTime: number;
  /** Whole seconds from creation to close, summed over `closed` (the mean's numerator). */
  secondsToClose: number;
}

export interface TrendMove {
  /** The UTC day of the entry (`YYYY-MM-DD`). */
  day: string;
  subject: TrendSubject;
  counts: TrendCounts;
}

const none: TrendCounts = { created: 0, closed: 0, reopened: 0, closedOnTime: 0, secondsToClose: 0 };

const close = (at: string, subject: TrendSubject): TrendCounts => ({
  ...none,
  closed: 1,
  closedOnTime: at <= subject.dueAt ? 1 : 0,
  secondsToClose: Math.max(0, Math.round((instantMs(at) - instantMs(subject.createdAt)) / 1000)),
});

/**
 * What an entry adds to the trend counters, or `undefined` when nothing: a create counts
 * `created` (and, created closed, a close at its creation); a change of status into a closed one
 * a close, out of one a reopen; a close to another closed status, a delete, a comment, a reminder
 * nothing (a deleted action stays counted where it was).
 */
export function trendMoveOf(entry: RecordedEntry, closedStatuses: readonly number[]): TrendMove | undefined {
  const closed = (status: unknown) => closedStatuses.includes(Number(status));
  const day = dayOf(entry.time);
  if (entry.type === 'created' && entry.action) {
    const subject = trendSubjectOf(entry.action);
    const counts = closed(entry.action.status) ? close(entry.action.createdAt, subject) : none;
    return { day, subject, counts: { ...counts, created: 1 } };
  }
  const status = entry.changes?.status;
  if (entry.type !== 'updated' || !status || !entry.trend) return undefined;
  const [was, is] = [closed(status.before), closed(status.after)];
  if (was === is) return undefined;
  return { day, subject: entry.trend, counts: is ? close(entry.time, entry.trend) : { ...none, reopened: 1 } };
}

export const trendIntervals = ['day', 'week', 'month'] as const;
export type TrendInterval = (typeof trendIntervals)[number];

/** The most buckets one trend answers. */
export const MAX_TREND_BUCKETS = 400;

export interface BucketSpan {
  /** First and last day, both inclusive (`YYYY-MM-DD`). */
  start: string;
  end: string;
}

/** The first day of the bucket holding `day`: itself, its week's Monday, its month's first. */
export function bucketStart(day: string, interval: TrendInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return monthStart(day);
  return weekStart(day);
}

/** The bucket after the one starting on `start`. */
function nextStart(start: string, interval: TrendInterval): string {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  return nextMonthStart(start);
}

/** How many buckets `from`..`to` spans, counting no further than `max + 1`. */
export function bucketCount(interval: TrendInterval, from: string, to: string, max = MAX_TREND_BUCKETS): number {
  let n = 0;
  for (let start = bucketStart(from, interval); start <= to && n <= max; start = nextStart(start, interval)) n++;
  return n;
}

/**
 * The buckets from `from` to `to`: calendar days, weeks from Monday to Sunday, calendar months,
 * the first and last cut at `from` and `to` (both inclusive), so no bucket counts a day outside
 * the range asked for.
 */
export function bucketsOf(interval: TrendInterval, from: string, to: string): BucketSpan[] {
  const buckets: BucketSpan[] = [];
  for (let start = bucketStart(from, interval); start <= to; ) {
    const next = nextStart(start, interval);
    const end = addDays(next, -1);
    buckets.push({ start: start < from ? from : start, end: end > to ? to : end });
    start = next;
  }
  return buckets;
}

/** The day before `day`. */
export const dayBefore = (day: string): string => addDays(day, -1);
