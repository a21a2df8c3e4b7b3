import { describe, expect, it } from 'vitest';
import { apiQuery } from '../../console/src/list-query';
import {
  ageFilters,
  listPath,
  meanDays,
  mondayOf,
  nextLevel,
  overviewPath,
  percent,
  scopeOf,
  tileFilters,
  trendWindow,
} from '../../console/src/overview/overview-query';
import { knownPeople, personInWords } from '../../console/src/people';

const NOW = new Date('2026-11-27T14:05:00.000Z'); // a Friday

const sorted = (pairs: [string, string][]) => pairs.map((pair) => pair.join('=')).sort();

/** The API query of the list a link opens (its filters, in any order). */
const opened = (path: string) => {
  const url = new URL(path, 'http://console');
  expect(url.pathname).toBe('/all');
  return sorted(apiQuery('all', url.searchParams, NOW, 'UTC').filter(([name]) => name !== 'limit'));
};

describe('the Overview’s numbers and the lists they open', () => {
  it('drills down the location hierarchy from the address, a prefix at a time', () => {
    const scope = scopeOf(
      new URLSearchParams('location.businessUnit=Iron Ore&location.site=North Pit&location.team=x'),
    );
    expect(scope).toEqual([
      ['location.businessUnit', 'Iron Ore'],
      ['location.site', 'North Pit'],
    ]);
    expect(nextLevel(scope)).toBe('department');
    expect(nextLevel([])).toBe('businessUnit');
    expect(overviewPath(scope)).toBe('/overview?location.businessUnit=Iron+Ore&location.site=North+Pit');
  });

  it('links each tile to a list whose API query is exactly the one it counted', () => {
    const scope: [string, string][] = [
      ['location.businessUnit', 'Iron Ore'],
      ['location.site', 'North Pit'],
    ];
    const tiles = tileFilters(scope, NOW);
    for (const filters of Object.values(tiles)) expect(opened(listPath(filters))).toEqual(sorted(filters));
    expect(tiles.dueSoon).toContainEqual(['dueAt', '>2026-11-27T14:05:00.000Z']);
    expect(tiles.dueSoon).toContainEqual(['dueAt', '<2026-12-04T14:05:00.000Z']);
    expect(tiles.closed30).toContainEqual(['closedAt', '>2026-10-28T14:05:00.000Z']);
  });

  it('gives each overdue age its overdue and dueAt range in whole UTC days', () => {
    expect(ageFilters([], '1-7', NOW)).toEqual([
      ['overdue', 'true'],
      ['dueAt', '>2026-11-19'],
    ]);
    expect(ageFilters([], '8-30', NOW)).toEqual([
      ['overdue', 'true'],
      ['dueAt', '>2026-10-27'],
      ['dueAt', '<2026-11-20'],
    ]);
    expect(ageFilters([], '91+', NOW)).toEqual([
      ['overdue', 'true'],
      ['dueAt', '<2026-08-29'],
    ]);
    for (const age of ['1-7', '8-30', '31-90', '91+'] as const)
      expect(opened(listPath(ageFilters([], age, NOW)))).toEqual(sorted(ageFilters([], age, NOW)));
  });

  it('shows 13 weeks starting Monday, the last holding today', () => {
    expect(mondayOf(NOW.getTime())).toBe('2026-11-23');
    expect(mondayOf(Date.parse('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(mondayOf(Date.parse('2026-11-29T23:59:00Z'))).toBe('2026-11-23');
    expect(trendWindow(NOW)).toEqual({ from: '2026-08-31', to: '2026-11-27' });
  });

  it('weighs each bucket’s mean by its closes, and writes shares as whole percents', () => {
    expect(
      meanDays([
        { closed: 1, meanDaysToClose: 10 },
        { closed: 3, meanDaysToClose: 2 },
        { closed: 0, meanDaysToClose: null },
      ]),
    ).toBe(4);
    expect(meanDays([{ closed: 0, meanDaysToClose: null }])).toBeNull();
    expect(percent(5, 8)).toBe('63%');
    expect(percent(0, 0)).toBe('—');
  });
});

describe('the people People and access offers', () => {
  it('lists each person once, by name, keeping an email where one source has it', () => {
    const people = knownPeople([
      { id: 'u-bob', name: 'Bob Stone' },
      { id: 'u-ann', name: 'u-ann' },
      { id: 'u-ann', name: 'Ann Lee', email: 'ann@example.com' },
      { id: 'undefined', name: 'nobody' },
      { id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com' },
    ]);
    expect(people).toEqual([
      { id: 'u-ann', name: 'Ann Lee', email: 'ann@example.com' },
      { id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com' },
    ]);
    expect(people.map(personInWords)).toEqual(['Ann Lee · ann@example.com', 'Bob Stone · bob@example.com']);
    expect(personInWords({ id: 'u-carl', name: 'Carl' })).toBe('Carl · u-carl');
  });
});
