import { DAY_MS, instantMs, nextMillisecond } from '../../../dates';
import type { Clause, DateValue } from '../../../filter/query';

/**
 * The arithmetic of counting a date filter by days (`date-counts.ts`), pure: the instants the
 * clauses on one date field hold for, as half-open spans of canonical instants (string order is
 * time order); those spans as whole UTC days, which the day counters count, and the partial days
 * at their edges, which an index read counts; and which of the whole days or their complement is
 * the cheaper read.
 */

/** The instants from `from` (included) to `to` (left out). */
export interface Span {
  from: string;
  to: string;
}

/** Whole days, by day number (days since 1970-01-01), `first` to `last` included. */
export interface DayRange {
  first: number;
  last: number;
}

/** The first and last days a date can be (`0000-01-01`, `9999-12-31`). */
export const MIN_DAY = Math.round(instantMs('0000-01-01T00:00:00.000Z') / DAY_MS);
export const MAX_DAY = Math.round(instantMs('9999-12-31T00:00:00.000Z') / DAY_MS);
/** Past every instant a date can be (as `parseDay` ends the last day). */
const END_OF_TIME = '9999-12-31T23:59:59.999Z\uffff';

/** Every instant. */
const ALL: Span = { from: '0000-01-01T00:00:00.000Z', to: END_OF_TIME };

/** The day number of an instant or a `YYYY-MM-DD` day. */
export const dayNumber = (instant: string): number =>
  Math.round(instantMs(`${instant.slice(0, 10)}T00:00:00.000Z`) / DAY_MS);

/** The `YYYY-MM-DD` of a day number. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The instant a day starts (past the last day, the end of time). */
export const dayStart = (day: number): string => (day > MAX_DAY ? END_OF_TIME : `${dayText(day)}T00:00:00.000Z`);

/** Whether spans (normalized) begin with the first instant a date can be: no lower bound. Pure. */
export const unboundedBelow = (spans: readonly Span[]): boolean => spans[0]?.from === ALL.from;

/** The instants from the first a date can be to `to` (left out). */
export const before = (to: string): Span[] => [{ from: ALL.from, to }];

/** The instants one value stands for: a day, or one instant (its millisecond). */
function valueSpan(value: DateValue): Span {
  return value.kind === 'day'
    ? { from: value.start, to: value.end }
    : { from: value.at, to: nextMillisecond(value.at) };
}

/** Spans in order, overlapping and touching ones joined, empty ones left out. */
export function normalize(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.from < s.to).sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const joined: Span[] = [];
  for (const span of sorted) {
    const last = joined[joined.length - 1];
    if (last && span.from <= last.to) last.to = span.to > last.to ? span.to : last.to;
    else joined.push({ ...span });
  }
  return joined;
}

/** The instants not in `spans` (normalized). */
export function complement(spans: readonly Span[]): Span[] {
  const gaps: Span[] = [];
  let from = ALL.from;
  for (const span of spans) {
    if (span.from > from) gaps.push({ from, to: span.from });
    if (span.to > from) from = span.to;
  }
  if (from < ALL.to) gaps.push({ from, to: ALL.to });
  return gaps;
}

/** The instants in both (normalized spans). */
export function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const both: Span[] = [];
  for (const x of a)
    for (const y of b) {
      const from = x.from > y.from ? x.from : y.from;
      const to = x.to < y.to ? x.to : y.to;
      if (from < to) both.push({ from, to });
    }
  return normalize(both);
}

/**
 * The instants one date clause holds for, as the filter judges a stored instant (`clauseHolds`):
 * `=` within the value, `!` outside it, `<` before it starts, `>` after it ends, `~` within any.
 */
export function clauseSpans(clause: Clause & { type: 'date' }): Span[] {
  const spans = clause.values.map(valueSpan);
  const first = spans[0] as Span;
  switch (clause.op) {
    case '=':
      return normalize([first]);
    case '!':
      return complement(normalize([first]));
    case '<':
      return normalize([{ from: ALL.from, to: first.from }]);
    case '>':
      return normalize([{ from: first.to, to: ALL.to }]);
    case '~':
      return normalize(spans);
  }
}

/** The instants every clause holds for (all on one date field). */
export const clausesSpans = (clauses: ReadonlyArray<Clause & { type: 'date' }>): Span[] =>
  clauses.reduce<Span[]>((spans, clause) => intersect(spans, clauseSpans(clause)), [ALL]);

/**
 * Spans as the whole days they cover and the pieces of days they cover in part (each piece
 * inside one day; a day may hold several). A span that starts inside a day has that day's rest
 * as a piece; one that ends inside a day, that day's start.
 */
export function splitByDay(spans: readonly Span[]): { days: DayRange[]; pieces: Span[] } {
  const days: DayRange[] = [];
  const pieces: Span[] = [];
  for (const { from, to } of spans) {
    const head = dayNumber(from);
    let first = head;
    if (from !== dayStart(head)) {
      const headEnd = dayStart(head + 1);
      pieces.push({ from, to: to < headEnd ? to : headEnd });
      first = head + 1;
      if (to <= headEnd) continue;
    }
    // The end of time is inside the last day; every other `to` that is not a day's start is inside its day.
    const tail = to === END_OF_TIME ? MAX_DAY + 1 : dayNumber(to);
    if (to !== dayStart(tail)) pieces.push({ from: dayStart(tail), to });
    if (first <= tail - 1) days.push({ first, last: tail - 1 });
  }
  return { days: joinDays(days), pieces };
}

/** Day ranges in order, touching ones joined. */
function joinDays(ranges: readonly DayRange[]): DayRange[] {
  const joined: DayRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.first - b.first)) {
    const last = joined[joined.length - 1];
    if (last && range.first <= last.last + 1) last.last = Math.max(last.last, range.last);
    else joined.push({ ...range });
  }
  return joined;
}

/** The days (of every day a date can be) not in `ranges` (joined). */
export function otherDays(ranges: readonly DayRange[]): DayRange[] {
  const gaps: DayRange[] = [];
  let next = MIN_DAY;
  for (const { first, last } of ranges) {
    if (first > next) gaps.push({ first: next, last: first - 1 });
    next = Math.max(next, last + 1);
  }
  if (next <= MAX_DAY) gaps.push({ first: next, last: MAX_DAY });
  return gaps;
}

/** How many days of `ranges` fall within `within` (the days some counter holds). */
export const daysWithin = (ranges: readonly DayRange[], within: DayRange): number =>
  ranges.reduce((sum, r) => sum + Math.max(0, Math.min(r.last, within.last) - Math.max(r.first, within.first) + 1), 0);

/**
 * Partial days counted from their other side: a day the pieces cover for more than half of it
 * (`dueAt=>2025-06-01T00:00:00.000Z` covers all of June 1 but its first millisecond) counts as a
 * whole day (its counter) less what of it they leave out (`less`, read from the index), which
 * is the smaller read where actions spread over the day. The whole days come back joined with
 * `days`; `pieces` are the partial days still read as they are. The last day a date can be is
 * never turned (its end is past every instant). Pure.
 */
export function turnPartialDays(split: { days: DayRange[]; pieces: Span[] }): {
  days: DayRange[];
  pieces: Span[];
  less: Span[];
} {
  const byDay = new Map<number, Span[]>();
  for (const piece of split.pieces) {
    const day = dayNumber(piece.from);
    byDay.set(day, [...(byDay.get(day) ?? []), piece]);
  }
  const days = [...split.days];
  const pieces: Span[] = [];
  const less: Span[] = [];
  for (const [day, inDay] of byDay) {
    const covered = inDay.reduce((ms, { from, to }) => ms + instantMs(to) - instantMs(from), 0);
    if (day >= MAX_DAY || covered * 2 <= DAY_MS) {
      pieces.push(...inDay);
      continue;
    }
    days.push({ first: day, last: day });
    less.push(...intersect(complement(normalize(inDay)), [{ from: dayStart(day), to: dayStart(day + 1) }]));
  }
  return { days: joinDays(days), pieces, less };
}

/** Days between two ranges read as one Query rather than two: a request costs a read unit, about 25 days of items. */
const JOIN_GAP_DAYS = 16;

/** The Queries that read `ranges`: ranges a few days apart read as one, the days between left out by the sum. */
export function dayReads(ranges: readonly DayRange[]): DayRange[] {
  const reads: DayRange[] = [];
  for (const range of ranges) {
    const last = reads[reads.length - 1];
    if (last && range.first - last.last - 1 <= JOIN_GAP_DAYS) last.last = range.last;
    else reads.push({ ...range });
  }
  return reads;
}

/** The parts of `ranges` on or before the day `last`. Pure. */
export const upTo = (ranges: readonly DayRange[], last: number): DayRange[] =>
  ranges.flatMap((r) => (r.first > last ? [] : [{ first: r.first, last: Math.min(r.last, last) }]));

/** Days a read may span before knowing where the counters' days begin and end is worth a look. */
export const SMALL_READ_DAYS = 64;

/**
 * Whether to count `days` as the total less the other days: when those are fewer, within the days
 * the counters hold (`held`; without it, of every day a date can be). Ties read the days themselves. Pure.
 */
export function countOtherDays(days: readonly DayRange[], held?: DayRange): boolean {
  const span = held ?? { first: MIN_DAY, last: MAX_DAY };
  return daysWithin(otherDays(days), span) < daysWithin(days, span);
}

/** Whether the day `day` is in `ranges`. */
export const inDays = (ranges: readonly DayRange[], day: number): boolean =>
  ranges.some((r) => r.first <= day && day <= r.last);

/** Whether an instant is in `spans`. */
export const inSpans = (spans: readonly Span[], instant: string): boolean =>
  spans.some((s) => s.from <= instant && instant < s.to);
