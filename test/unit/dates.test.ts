import { describe, expect, it } from 'vitest';
import {
  addDays,
  DAY_MS,
  dayOf,
  dayStartMs,
  instantMs,
  monthStart,
  nextMillisecond,
  nextMonthStart,
  parseDateTime,
  parseDay,
  weekStart,
} from '../../lib/dates';

describe('parseDateTime', () => {
  it.each([
    ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00:00.000Z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00:00.5Z', '2026-12-01T10:00:00.500Z'],
    ['2026-12-01T10:00:00,25Z', '2026-12-01T10:00:00.250Z'],
    ['2026-12-01T10:00Z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01t10:00:00z', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T12:00:00+02:00', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T12:00:00+0200', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T12:00:00+02', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T05:30:00-04:30', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00:00-00:00', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T00:30:00+01:00', '2026-11-30T23:30:00.000Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseDateTime(text)).toBe(iso);
  });

  it('cuts digits past milliseconds off instead of rounding', () => {
    expect(parseDateTime('2026-12-01T10:00:00.123456789Z')).toBe('2026-12-01T10:00:00.123Z');
    expect(parseDateTime('2026-12-01T10:00:00.9999Z')).toBe('2026-12-01T10:00:00.999Z');
    expect(parseDateTime('2026-12-31T23:59:59.9999999+00:00')).toBe('2026-12-31T23:59:59.999Z');
  });

  it('accepts every four-digit year, including those before 1900', () => {
    expect(parseDateTime('1899-12-31T23:59:59Z')).toBe('1899-12-31T23:59:59.000Z');
    expect(parseDateTime('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(parseDateTime('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00.000Z');
    expect(parseDateTime('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
  });

  it.each([
    ['no offset', '2026-12-01T10:00:00'],
    ['no offset, fraction', '2026-12-01T10:00:00.123'],
    ['a date only', '2026-12-01'],
    ['a space for T', '2026-12-01 10:00:00Z'],
    ['a space for +', '2026-12-01T10:00:00 01:00'],
    ['February 30', '2026-02-30T10:00:00Z'],
    ['February 29 of a common year', '2026-02-29T10:00:00Z'],
    ['February 29, 1900', '1900-02-29T10:00:00Z'],
    ['April 31', '2026-04-31T10:00:00Z'],
    ['month 13', '2026-13-01T10:00:00Z'],
    ['month 0', '2026-00-01T10:00:00Z'],
    ['day 0', '2026-12-00T10:00:00Z'],
    ['day 32', '2026-12-32T10:00:00Z'],
    ['hour 24', '2026-12-01T24:00:00Z'],
    ['minute 60', '2026-12-01T10:60:00Z'],
    ['second 60', '2026-12-01T10:00:60Z'],
    ['offset hour 24', '2026-12-01T10:00:00+24:00'],
    ['offset minute 60', '2026-12-01T10:00:00+01:60'],
    ['one-digit month', '2026-1-01T10:00:00Z'],
    ['basic format', '20261201T100000Z'],
    ['five-digit year', '12026-12-01T10:00:00Z'],
    ['signed year', '+2026-12-01T10:00:00Z'],
    ['a trailing space', '2026-12-01T10:00:00Z '],
    ['non-ASCII digits', '٢٠٢٦-12-01T10:00:00Z'],
    ['an empty fraction', '2026-12-01T10:00:00.Z'],
    ['before year 0000', '0000-01-01T00:00:00+01:00'],
    ['after year 9999', '9999-12-31T23:59:59-01:00'],
    ['empty', ''],
    ['text', 'tomorrow'],
  ])('refuses %s', (_, text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});

describe('parseDay', () => {
  it('is the UTC instants [start, end) of the day', () => {
    expect(parseDay('2026-12-01')).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2026-12-02T00:00:00.000Z' });
    expect(parseDay('2026-12-31')).toEqual({ start: '2026-12-31T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
    expect(parseDay('2028-02-29')).toEqual({ start: '2028-02-29T00:00:00.000Z', end: '2028-03-01T00:00:00.000Z' });
    expect(parseDay('1850-06-15')?.start).toBe('1850-06-15T00:00:00.000Z');
  });

  it('ends the last representable day past every instant of it', () => {
    const day = parseDay('9999-12-31');
    expect(day?.start).toBe('9999-12-31T00:00:00.000Z');
    expect((day?.end ?? '') > '9999-12-31T23:59:59.999Z').toBe(true);
  });

  it.each([
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-12-00',
    '2026-12-1',
    '2026-12-01T00:00:00Z',
    '2026-12',
    '20261201',
    '',
  ])('refuses %s', (text) => {
    expect(parseDay(text)).toBeUndefined();
  });
});

describe('nextMillisecond', () => {
  it('is one millisecond later, across every boundary', () => {
    expect(nextMillisecond('2026-12-01T10:00:00.000Z')).toBe('2026-12-01T10:00:00.001Z');
    expect(nextMillisecond('2026-12-31T23:59:59.999Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('stays above the last instant rather than overflowing the format', () => {
    expect(nextMillisecond('9999-12-31T23:59:59.999Z') > '9999-12-31T23:59:59.999Z').toBe(true);
  });
});

describe('instants and days', () => {
  it('reads an instant as milliseconds, NaN for none', () => {
    expect(instantMs('2026-12-01T10:00:00.000Z')).toBe(Date.UTC(2026, 11, 1, 10));
    expect(instantMs('not a time')).toBeNaN();
  });

  it('gives the UTC day of a canonical time or of milliseconds', () => {
    expect(dayOf('2026-12-01T23:59:59.999Z')).toBe('2026-12-01');
    expect(dayOf(Date.UTC(2026, 11, 1, 23, 59, 59, 999))).toBe('2026-12-01');
    expect(dayOf(Date.UTC(2026, 11, 2))).toBe('2026-12-02');
    expect(dayStartMs('2026-12-01')).toBe(Date.UTC(2026, 11, 1));
    expect(DAY_MS).toBe(24 * 3600 * 1000);
  });

  it('counts days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-01-10', -8)).toBe('2026-01-02');
    expect(addDays('2026-05-05', 0)).toBe('2026-05-05');
  });

  it('starts an ISO week on its Monday and a month on its first', () => {
    // 2026-11-30 is a Monday; 2026-12-06 the Sunday that ends its week.
    expect(weekStart('2026-11-30')).toBe('2026-11-30');
    expect(weekStart('2026-12-06')).toBe('2026-11-30');
    expect(weekStart('2026-12-07')).toBe('2026-12-07');
    // A week that crosses a year: 2027-01-01 is a Friday.
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
    expect(monthStart('2026-12-31')).toBe('2026-12-01');
    expect(nextMonthStart('2026-12-15')).toBe('2027-01-01');
    expect(nextMonthStart('2028-01-31')).toBe('2028-02-01');
  });

  it('keeps every day of a week in that week, for any day', () => {
    for (let offset = 0; offset < 400; offset++) {
      const day = addDays('2026-01-01', offset);
      const start = weekStart(day);
      expect(new Date(dayStartMs(start)).getUTCDay()).toBe(1);
      expect(start <= day && addDays(start, 6) >= day).toBe(true);
    }
  });
});
