import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import {
  before,
  clausesSpans,
  complement,
  countOtherDays,
  dayNumber,
  dayStart,
  dayText,
  inDays,
  inSpans,
  intersect,
  MAX_DAY,
  MIN_DAY,
  otherDays,
  splitByDay,
  turnPartialDays,
  unboundedBelow,
} from '../../../../lib/store/list/count/date-spans';
import { clauseHolds } from '../../../../lib/store/list/plan/expression';

/**
 * The day-bucket arithmetic of exact date counts: a filter on one date field, split into whole
 * days (the day counters) and parts of days (an index read), must count exactly what the filter
 * itself holds for, whatever the clauses.
 */

const spansOf = (query: string) => {
  const { filters } = parseListQuery(query);
  return { filters, spans: clausesSpans(filters as never) };
};

/** Counted as the list counts: an instant on a whole day, or in a piece. */
function countedAs(query: string, instants: string[]): number {
  const { spans } = spansOf(query);
  const { days, pieces } = splitByDay(spans);
  // A piece never lies on a whole day.
  for (const piece of pieces) expect(inDays(days, dayNumber(piece.from))).toBe(false);
  const counted = instants.filter((at) => inDays(days, dayNumber(at)) || inSpans(pieces, at)).length;
  // Partial days turned into whole days less what they leave out count the same.
  const turned = turnPartialDays({ days, pieces });
  const onTurned = instants.filter((at) => inDays(turned.days, dayNumber(at)) || inSpans(turned.pieces, at));
  expect(onTurned.length - instants.filter((at) => inSpans(turned.less, at)).length).toBe(counted);
  return counted;
}

/** Counted as the filter judges a stored action. */
function heldBy(query: string, instants: string[]): number {
  const { filters } = spansOf(query);
  return instants.filter((at) => filters.every((c) => clauseHolds(c as never, { f: { ca: at } }))).length;
}

describe("a range with no lower bound, and what follows it (a scope's overdue due before a day)", () => {
  it('knows a range open below, and the instants after it up to a bound', () => {
    expect(unboundedBelow(spansOf('createdAt=<2026-08-30').spans)).toBe(true);
    expect(unboundedBelow(spansOf('createdAt=<2026-08-30&createdAt=!2026-01-01').spans)).toBe(true);
    expect(unboundedBelow(spansOf('createdAt=>2026-08-29').spans)).toBe(false);
    expect(unboundedBelow(spansOf('createdAt=>2026-08-29&createdAt=<2026-10-29').spans)).toBe(false);
    expect(unboundedBelow([])).toBe(false);
    const { spans } = spansOf('createdAt=<2026-08-30');
    expect(intersect(complement(spans), before('2026-11-30T00:00:00.000Z'))).toEqual([
      { from: '2026-08-30T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' },
    ]);
  });
});

describe('day arithmetic', () => {
  it('finds the UTC day of an instant, and the start of a day', () => {
    expect(dayText(dayNumber('2026-12-01T23:59:59.999Z'))).toBe('2026-12-01');
    expect(dayText(dayNumber('2026-12-01'))).toBe('2026-12-01');
    expect(dayStart(dayNumber('2024-02-29T10:00:00.000Z') + 1)).toBe('2024-03-01T00:00:00.000Z');
    expect(dayText(MIN_DAY)).toBe('0000-01-01');
    expect(dayText(MAX_DAY)).toBe('9999-12-31');
  });

  it('counts a whole day as a day, with no piece', () => {
    expect(splitByDay(spansOf('createdAt=2026-12-01').spans)).toEqual({
      days: [{ first: dayNumber('2026-12-01'), last: dayNumber('2026-12-01') }],
      pieces: [],
    });
  });

  it('counts > and < of a day as whole days up to the ends of time', () => {
    const after = splitByDay(spansOf('dueAt=>2026-12-01').spans);
    expect(after).toEqual({ days: [{ first: dayNumber('2026-12-02'), last: MAX_DAY }], pieces: [] });
    const before = splitByDay(spansOf('dueAt=<2026-12-01').spans);
    expect(before).toEqual({ days: [{ first: MIN_DAY, last: dayNumber('2026-11-30') }], pieces: [] });
  });

  it('counts a range of days, its ends excluded', () => {
    const { days, pieces } = splitByDay(spansOf('dueAt=>2026-01-01&dueAt=<2026-02-01').spans);
    expect(pieces).toEqual([]);
    expect(days).toEqual([{ first: dayNumber('2026-01-02'), last: dayNumber('2026-01-31') }]);
  });

  it('reads the part of a day an instant bound cuts', () => {
    const { days, pieces } = splitByDay(
      spansOf('updatedAt=>2026-01-01T10:00:00Z&updatedAt=<2026-01-03T06:00:00Z').spans,
    );
    expect(days).toEqual([{ first: dayNumber('2026-01-02'), last: dayNumber('2026-01-02') }]);
    expect(pieces).toEqual([
      { from: '2026-01-01T10:00:00.001Z', to: '2026-01-02T00:00:00.000Z' },
      { from: '2026-01-03T00:00:00.000Z', to: '2026-01-03T06:00:00.000Z' },
    ]);
  });

  it('counts a day cut by its first instant as the whole day less that instant', () => {
    const split = splitByDay(spansOf('dueAt=>2025-06-01T00:00:00.000Z&dueAt=<2025-06-08').spans);
    expect(split.pieces).toEqual([{ from: '2025-06-01T00:00:00.001Z', to: '2025-06-02T00:00:00.000Z' }]);
    expect(turnPartialDays(split)).toEqual({
      days: [{ first: dayNumber('2025-06-01'), last: dayNumber('2025-06-07') }],
      pieces: [],
      less: [{ from: '2025-06-01T00:00:00.000Z', to: '2025-06-01T00:00:00.001Z' }],
    });
    // An hour of a day stays a piece.
    const hour = splitByDay(spansOf('createdAt=>2026-01-01T10:00:00Z&createdAt=<2026-01-01T11:00:00Z').spans);
    expect(turnPartialDays(hour)).toEqual({ ...hour, less: [] });
  });

  it('keeps a span inside one day as one piece', () => {
    expect(splitByDay(spansOf('createdAt=>2026-01-01T10:00:00Z&createdAt=<2026-01-01T11:00:00Z').spans)).toEqual({
      days: [],
      pieces: [{ from: '2026-01-01T10:00:00.001Z', to: '2026-01-01T11:00:00.000Z' }],
    });
  });

  it('counts ! of a day as every other day, and ~ of days and instants as days and pieces', () => {
    const not = splitByDay(spansOf('createdAt=!2026-12-01').spans);
    expect(not.pieces).toEqual([]);
    expect(otherDays(not.days)).toEqual([{ first: dayNumber('2026-12-01'), last: dayNumber('2026-12-01') }]);
    const any = splitByDay(spansOf('createdAt=~2026-12-01,2026-12-03T10:00:00Z,2026-12-02').spans);
    expect(any.days).toEqual([{ first: dayNumber('2026-12-01'), last: dayNumber('2026-12-02') }]);
    expect(any.pieces).toEqual([{ from: '2026-12-03T10:00:00.000Z', to: '2026-12-03T10:00:00.001Z' }]);
  });

  it('reads the other days when they are fewer, within the days the counters hold', () => {
    const not = splitByDay(spansOf('createdAt=!2026-12-01').spans).days;
    expect(countOtherDays(not)).toBe(true);
    const day = splitByDay(spansOf('createdAt=2026-12-01').spans).days;
    expect(countOtherDays(day)).toBe(false);
    const held = { first: dayNumber('2026-01-01'), last: dayNumber('2026-12-31') };
    // After 1 October: 92 days, against 273 before.
    expect(countOtherDays(splitByDay(spansOf('createdAt=>2026-09-30').spans).days, held)).toBe(false);
    // Before 1 October: 273 days, against 92 after.
    expect(countOtherDays(splitByDay(spansOf('createdAt=<2026-10-01').spans).days, held)).toBe(true);
  });

  it('counts what the filter holds for, whatever the clauses (property)', () => {
    const instant = fc
      .integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2026-01-06T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString());
    // Whole days, and instants on the hour or between, so bounds fall on the instants too.
    const value = fc.oneof(
      fc.integer({ min: 1, max: 5 }).map((d) => `2026-01-0${d}`),
      fc
        .integer({ min: 0, max: 5 * 24 })
        .map((h) => new Date(Date.parse('2026-01-01T00:00:00Z') + h * 3_600_000).toISOString()),
      instant,
    );
    const clause = fc.oneof(
      fc.tuple(fc.constantFrom('', '!', '<', '>'), value).map(([op, v]) => `createdAt=${op}${v}`),
      fc.array(value, { minLength: 1, maxLength: 4 }).map((vs) => `createdAt=~${vs.join(',')}`),
    );
    const hours = Array.from({ length: 5 * 24 + 1 }, (_, h) =>
      new Date(Date.parse('2026-01-01T00:00:00Z') + h * 3_600_000).toISOString(),
    );
    fc.assert(
      fc.property(
        fc.array(clause, { minLength: 1, maxLength: 3 }),
        fc.array(instant, { maxLength: 30 }),
        (clauses, extra) => {
          const query = clauses.join('&');
          const instants = [...hours, ...extra, '2025-12-31T23:59:59.999Z', '2026-01-06T00:00:00.000Z'];
          expect(countedAs(query, instants)).toBe(heldBy(query, instants));
        },
      ),
      { numRuns: 300 },
    );
  });
});
