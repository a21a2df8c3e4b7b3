import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import { locationFields } from '../../../../lib/model/action';
import type { LocationCount } from '../../../../lib/store/list/count/location-counts';
import { sortsByLocation, valueSources } from '../../../../lib/store/list/run/location-walk';

/** A whole location from the fields given, the rest ''. */
const at = (fields: Record<string, string>) =>
  Object.fromEntries(locationFields.map((f) => [f, fields[f] ?? ''])) as LocationCount['location'];

describe('a sort by a location field below the site: where each value is', () => {
  const locations: LocationCount[] = [
    { location: at({ businessUnit: 'Iron', site: 'North', department: 'Lab' }), count: 4 },
    { location: at({ businessUnit: 'Coal', site: 'North', department: 'Lab' }), count: 1 },
    { location: at({ businessUnit: 'Iron', site: 'South', department: 'Lab' }), count: 2 },
    { location: at({ businessUnit: 'Iron', department: 'Fixed Plant' }), count: 3 },
    { location: at({ department: 'Fixed Plant' }), count: 1 },
    { location: at({ businessUnit: 'Gold', site: 'East', department: 'Gone' }), count: 0 },
    { location: at({ businessUnit: 'Gold', site: 'East' }), count: 2 },
  ];

  it("gives the values actions have, in order, each with the sites of its locations ('' first, and '' among the sites)", () => {
    expect(valueSources(locations, [], 'department', true)).toEqual([
      { value: '', sites: ['East'] },
      { value: 'Fixed Plant', sites: [''] },
      { value: 'Lab', sites: ['North', 'South'] },
    ]);
    expect(valueSources(locations, [], 'department', false).map((s) => s.value)).toEqual(['Lab', 'Fixed Plant', '']);
  });

  it("keeps only the locations the list's location clauses hold for; other clauses are the reads' to apply", () => {
    const clauses = parseListQuery('location.businessUnit=Iron&status=1&location.site=!South').filters;
    expect(valueSources(locations, clauses, 'department', true)).toEqual([
      { value: 'Fixed Plant', sites: [''] },
      { value: 'Lab', sites: ['North'] },
    ]);
  });

  it('walks the five fields below the site; a site and a business unit have partitions of their own', () => {
    for (const field of ['department', 'workGroup', 'productiveUnit', 'team', 'crew'])
      expect(sortsByLocation(parseListQuery(`sort=-location.${field}`)), field).toBe(true);
    for (const sort of ['location.site', 'location.businessUnit', 'status', 'title', 'createdAt'])
      expect(sortsByLocation(parseListQuery(`sort=${sort}`)), sort).toBe(false);
    expect(sortsByLocation(parseListQuery(''))).toBe(false);
  });
});
