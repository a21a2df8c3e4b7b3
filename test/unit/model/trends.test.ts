import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/errors';
import { parseTrendQuery } from '../../../lib/filter/trend-query';
import type { RecordedEntry, TrendSubject } from '../../../lib/model/history';
import { bucketCount, bucketStart, bucketsOf, trendMoveOf } from '../../../lib/model/trends';
import { trendPrefixes } from '../../../lib/trends/trends';

/** The pure rules of contract section 17's trends: buckets, what an entry counts, the query. */

const subject: TrendSubject = {
  location: {
    businessUnit: 'Iron Ore',
    site: 'North Pit',
    department: 'M',
    workGroup: '',
    productiveUnit: '',
    team: '',
    crew: '',
  },
  producer: 'p',
  priority: '2',
  ownerId: 'o',
  assigneeId: 'undefined',
  createdAt: '2026-01-01T00:00:00.000Z',
  dueAt: '2026-01-05T00:00:00.000Z',
};
const actor = { id: 'a', name: 'a', email: null };
const update = (before: string, after: string, time: string): RecordedEntry => ({
  actionId: 'x',
  version: 2,
  type: 'updated',
  actor,
  time,
  changes: { status: { before, after } },
  trend: subject,
});

describe('buckets', () => {
  it('weeks start on Monday, months on the first; the range cuts the first and last', () => {
    expect(bucketStart('2026-11-29', 'week')).toBe('2026-11-23'); // a Sunday
    expect(bucketStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(bucketStart('2026-02-28', 'month')).toBe('2026-02-01');
    expect(bucketsOf('week', '2026-11-25', '2026-12-02')).toEqual([
      { start: '2026-11-25', end: '2026-11-29' },
      { start: '2026-11-30', end: '2026-12-02' },
    ]);
    expect(bucketsOf('month', '2024-01-31', '2024-03-01').map((b) => b.end)).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(bucketsOf('day', '2026-12-31', '2027-01-01')).toHaveLength(2);
    expect(bucketCount('day', '2001-01-01', '2002-02-04')).toBe(400);
    expect(bucketCount('day', '2001-01-01', '2002-02-05')).toBe(401);
  });
});

describe('trendMoveOf', () => {
  const closed = [3, 4];
  it('counts a close on time, a late close, a reopen, and nothing for closed to closed', () => {
    expect(trendMoveOf(update('1', '3', '2026-01-03T00:00:00.000Z'), closed)?.counts).toEqual({
      created: 0,
      closed: 1,
      reopened: 0,
      closedOnTime: 1,
      secondsToClose: 2 * 86_400,
    });
    expect(trendMoveOf(update('2', '4', '2026-01-06T00:00:00.000Z'), closed)?.counts.closedOnTime).toBe(0);
    expect(trendMoveOf(update('3', '1', '2026-01-06T00:00:00.000Z'), closed)?.counts.reopened).toBe(1);
    expect(trendMoveOf(update('3', '4', '2026-01-06T00:00:00.000Z'), closed)).toBeUndefined();
    expect(trendMoveOf({ ...update('1', '2', '2026-01-06T00:00:00.000Z') }, closed)).toBeUndefined();
    expect(trendMoveOf({ ...update('1', '3', '2026-01-06T00:00:00.000Z'), type: 'deleted' }, closed)).toBeUndefined();
  });
});

describe('parseTrendQuery', () => {
  const today = '2026-11-27';
  const problem = (raw: string) => {
    try {
      parseTrendQuery(raw, 'me-id', today);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors?.map((e) => e.parameter);
    }
    throw new Error(`no problem with ${raw}`);
  };
  it('takes a prefix and one other field, with me', () => {
    expect(
      parseTrendQuery('interval=week&from=2026-01-01&to=2026-11-27&location.businessUnit=A&owner=me', 'me-id', today),
    ).toEqual({
      interval: 'week',
      from: '2026-01-01',
      to: '2026-11-27',
      location: { businessUnit: 'A' },
      depth: 1,
      prefix: ['A'],
      other: { field: 'owner', value: 'me-id' },
    });
    // A field without the ones before it: no prefix of its own; the trend finds the stored ones.
    const gap = parseTrendQuery(
      'interval=day&from=2026-01-01&to=2026-01-01&location.team=x&location.site=N',
      'x',
      today,
    );
    expect(gap).toMatchObject({ location: { team: 'x', site: 'N' }, depth: 6 });
    expect(gap.prefix).toBeUndefined();
    expect(parseTrendQuery('interval=day&from=2026-01-01&to=2026-01-01&priority=02', 'x', today).other).toEqual({
      field: 'priority',
      value: '2',
    });
    // `me` is the caller in `owner` and `assignee` only: a producer may be named "me".
    for (const [field, value] of [
      ['assignee', 'me-id'],
      ['actionProducer.name', 'me'],
    ])
      expect(parseTrendQuery(`interval=day&from=2026-01-01&to=2026-01-01&${field}=me`, 'me-id', today).other).toEqual({
        field,
        value,
      });
  });
  it('names what is wrong', () => {
    expect(problem('interval=day&from=2026-01-01&to=2026-11-28')).toEqual(['to']);
    expect(problem('interval=day&from=2026-01-01&to=2026-01-01&location.team=x&owner=me')).toEqual(['owner']);
    expect(problem('interval=day&from=2026-01-01&to=2026-01-01&assignee=~a,b')).toEqual(['assignee']);
    expect(problem('interval=fortnight&from=2026-01-01&to=2026-01-01')).toEqual(['interval']);
  });
});

describe('trendPrefixes', () => {
  it('is the filter in open mode, else the narrower of filter and scope where one holds the other', () => {
    expect(trendPrefixes(['A'], undefined)).toEqual([['A']]);
    expect(trendPrefixes([], [{ businessUnit: 'A', site: 'N' }, { businessUnit: 'B' }])).toEqual([['A', 'N'], ['B']]);
    expect(trendPrefixes(['A', 'N', 'M'], [{ businessUnit: 'A', site: 'N' }])).toEqual([['A', 'N', 'M']]);
    expect(trendPrefixes(['A', 'S'], [{ businessUnit: 'A', site: 'N' }])).toEqual([]);
    expect(trendPrefixes(['A'], [])).toEqual([]);
  });
});
