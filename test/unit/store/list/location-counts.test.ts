import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import { type Location, locationFields } from '../../../../lib/model/action';
import {
  type CounterCell,
  cellId,
  cellOf,
  cellOfItem,
  cellSortKey,
  counterCells,
} from '../../../../lib/store/counters/counters';
import { locationCounter, prefixCounters } from '../../../../lib/store/counters/prefixes';
import {
  type LocationCount,
  locationFieldOf,
  locationHoldingCount,
  locationHolds,
} from '../../../../lib/store/list/count/location-counts';
import { decodeLocation, encodeLocation } from '../../../../lib/store/location-tuple';
import { MEMBER_PARTITIONS } from '../../../../lib/store/shards';
import { attr } from '../../../../lib/store/table';
import { anAction } from '../../action-fixture';

/** A whole location from the fields given, the rest ''. */
const at = (fields: Record<string, string>) =>
  Object.fromEntries(locationFields.map((f) => [f, fields[f] ?? ''])) as LocationCount['location'];

describe('a whole location as one registry value', () => {
  it('round-trips any seven strings, commas, quotes, backslashes and empty ones included', () => {
    for (const location of [
      at({}),
      at({ businessUnit: 'Iron Ore', site: 'North Pit', crew: 'A,B' }),
      at({ department: 'say "hi"', team: 'back\\slash', workGroup: '🙂 ü', productiveUnit: '["x"]' }),
    ]) {
      const encoded = encodeLocation(location) as string;
      expect(typeof encoded).toBe('string');
      expect(decodeLocation(encoded)).toEqual(location);
    }
  });

  it('gives two locations two encodings, where joining the values would not', () => {
    expect(encodeLocation(at({ site: 'a,b' }))).not.toBe(encodeLocation(at({ site: 'a', department: 'b' })));
    expect(encodeLocation(at({ site: 'x' }))).not.toBe(encodeLocation(at({ department: 'x' })));
  });

  it('leaves out a location too long for a sort key, and reads back nothing it cannot have written', () => {
    expect(encodeLocation(at({ site: 'x'.repeat(1100) }))).toBeUndefined();
    for (const stored of ['', 'North', '["a"]', '[1,2,3,4,5,6,7]', JSON.stringify(Array(8).fill(''))])
      expect(decodeLocation(stored), stored).toBeUndefined();
  });

  it('fills missing fields with ""', () => {
    expect(decodeLocation(encodeLocation({ site: 'North' }) as string)).toEqual(at({ site: 'North' }));
  });
});

describe("the whole location's counter", () => {
  const cells = (location: Location) =>
    counterCells({ ...anAction(), location }).filter((cell) => cell.key.startsWith(`n#${locationCounter}@`));

  it('is one counter, total only, kept under the location itself in one of 16 shared partitions', () => {
    expect(prefixCounters.filter((c) => c.startsWith(`${locationCounter}`))).toEqual([locationCounter]);
    const lab = at({ site: 'North', department: 'Lab' });
    const [cell] = cells(lab);
    expect(cells(lab)).toHaveLength(1);
    expect(cell?.member).toBe(encodeLocation(lab));
    expect(cell?.status).toBeUndefined();
    expect(cellSortKey(7, cell as CounterCell)).toBe(encodeLocation(lab));
    // The same location always lands in the same partition; many spread over all 16.
    expect(cells(lab)[0]?.key).toBe(cell?.key);
    const partitions = new Set(Array.from({ length: 400 }, (_, i) => cells(at({ site: `Site ${i}` }))[0]?.key));
    expect(partitions.size).toBe(MEMBER_PARTITIONS);
  });

  it('reads back the cell of a stored item, and round-trips cells through their ids', () => {
    const [cell] = cells(at({ site: 'a#b', crew: '0#1' })) as [CounterCell];
    expect(cellOfItem({ [attr.id]: cell.key, [attr.sortKey]: cell.member, [attr.count]: 1 })).toEqual(cell);
    expect(cellOf(cellId(cell))).toEqual(cell);
    expect(cellOfItem({ [attr.id]: 'n#location.site#North', [attr.sortKey]: '03#2' })).toEqual({
      key: 'n#location.site#North',
      status: '2',
    });
  });

  it('is not counted for a location too long for a sort key', () => {
    expect(cells(at({ site: 'x'.repeat(1100) }))).toEqual([]);
  });
});

describe('counting clauses on location fields from the registered locations', () => {
  const locations: LocationCount[] = [
    { location: at({ businessUnit: 'Iron', site: 'North', department: 'Lab', crew: 'A' }), count: 4 },
    { location: at({ businessUnit: 'Iron', site: 'North', department: 'Fixed Plant', crew: 'B' }), count: 3 },
    { location: at({ businessUnit: 'Coal', site: 'South', department: 'Lab' }), count: 2 },
    { location: at({}), count: 1 },
  ];
  const count = (query: string) => locationHoldingCount(locations, parseListQuery(query).filters);

  it('names the location field of a parameter', () => {
    expect(locationFieldOf('location.department')).toBe('department');
    expect(locationFieldOf('location.crew')).toBe('crew');
    expect(locationFieldOf('location.nowhere')).toBeUndefined();
    expect(locationFieldOf('title')).toBeUndefined();
  });

  it('sums the counts of the locations every operator holds for, as the filter compares', () => {
    expect(count('location.department=Lab')).toBe(6);
    expect(count('location.department=!Lab')).toBe(4);
    expect(count('location.department=<Lab')).toBe(4);
    expect(count('location.department=>Fixed Plant')).toBe(6);
    expect(count('location.department=*lan')).toBe(3);
    expect(count('location.department=*LAB')).toBe(6);
    expect(count('location.department=~Lab,Fixed Plant')).toBe(9);
    expect(count('location.crew=')).toBe(3);
    expect(count('location.crew=!')).toBe(7);
    expect(count('location.site=North')).toBe(7);
  });

  it('combines clauses on several location fields, each on its own field', () => {
    expect(count('location.site=North&location.crew=B')).toBe(3);
    expect(count('location.businessUnit=Coal&location.department=Lab')).toBe(2);
    expect(count('location.department=>A&location.department=<Lab')).toBe(3);
  });

  it('holds for no location when a clause is on another field (that list is not counted here)', () => {
    expect(
      locationHolds(parseListQuery('location.site=North&status=1').filters, locations[0]?.location ?? at({})),
    ).toBe(false);
  });
});
