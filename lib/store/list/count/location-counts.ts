import { getConfig } from '../../../config';
import type { Clause } from '../../../filter/query';
import { settleAll as all } from '../../../flow/fan-out';
import { type Location, type LocationField, locationFields } from '../../../model/action';
import { readCount, readMembers } from '../../counters/counters';
import { locationCounter } from '../../counters/prefixes';
import { decodeLocation } from '../../location-tuple';
import { valueHolds } from '../plan/expression';
import type { ReadStats } from '../plan/result';

/**
 * Exact counts of clauses on location fields (contract section 4: every operator on every
 * location field counts exactly), from the counters alone: every distinct whole location has a
 * counter (`locationCounter`), all of them in 16 shared partitions read at once, so a list whose
 * every filter is on a location field counts the actions of the locations its clauses hold for.
 * Trusted only when the locations' counts sum to the total (a location too long for a key is
 * never counted; the two reads are not one snapshot, so a write between them can also fail the
 * proof) and there are at most `maxProvenLocations()` of them; otherwise the list counts as it
 * did. Counter reads are not index entries: the budget is not charged for them.
 */

/**
 * The most whole locations a list reads: each is one small item (its encoding and count, about
 * 80 bytes), so 10,000 (the default of `LOCATION_READ_LIMIT`) are about 200 strongly consistent
 * read units, in 16 parallel Queries. A deployment may lower it to bound that read; the tests
 * lower it to have more whole locations than a list may read without seeding 10,000.
 */
export const maxProvenLocations = (): number => getConfig().locationReadLimit;

/** A location some action has, and how many have it. */
export interface LocationCount {
  location: Location;
  count: number;
}

/** The location field a query parameter names (`location.department` -> `department`), if any. Pure. */
export function locationFieldOf(name: string): LocationField | undefined {
  const field = name.startsWith('location.') ? name.slice('location.'.length) : '';
  return (locationFields as readonly string[]).includes(field) ? (field as LocationField) : undefined;
}

/** Whether every clause holds for a location, each judged on its own field as the filter judges it (`valueHolds`). Pure. */
export const locationHolds = (clauses: readonly Clause[], location: Location): boolean =>
  clauses.every((clause) => {
    const field = locationFieldOf(clause.field.name);
    return field !== undefined && valueHolds([clause], clause.field, location[field]);
  });

/** How many actions are at a location every clause holds for. Pure. */
export const locationHoldingCount = (locations: readonly LocationCount[], clauses: readonly Clause[]): number =>
  locations.reduce((sum, l) => sum + (locationHolds(clauses, l.location) ? l.count : 0), 0);

/**
 * The whole locations actions have, each with its count, when the counters are proven complete
 * (see above); `undefined` otherwise. In no set order: a sum does not need one, and a sort orders
 * them by its own field (`location-walk.ts`).
 */
export async function countedLocations(stats: ReadStats): Promise<LocationCount[] | undefined> {
  const [total, counts] = await all<[number, Map<string, number> | undefined]>([
    readCount('all', '', stats),
    readMembers(locationCounter, maxProvenLocations(), stats),
  ]);
  if (counts === undefined) return undefined;
  const found: LocationCount[] = [];
  let sum = 0;
  for (const [encoded, count] of counts) {
    const location = decodeLocation(encoded);
    if (location === undefined || count <= 0) continue;
    sum += count;
    found.push({ location, count });
  }
  return sum === total ? found : undefined;
}

/**
 * The exact count of a list whose every filter is on a location field (any operator), from the
 * whole locations' counters; `undefined` for any other list, or when those are not proven
 * complete.
 */
export async function locationTotal(clauses: readonly Clause[], stats: ReadStats): Promise<number | undefined> {
  if (clauses.length === 0 || !clauses.every((c) => locationFieldOf(c.field.name) !== undefined)) return undefined;
  const locations = await countedLocations(stats);
  return locations && locationHoldingCount(locations, clauses);
}
