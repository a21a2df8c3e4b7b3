import { settleAll as all } from '../../fan-out';
import type { Clause } from '../../filter/query';
import { type Location, type LocationField, locationFields } from '../../model/action';
import { readCount } from '../counters/counters';
import { locationCounter, locationValue } from '../counters/prefixes';
import { decodeLocation } from '../location-tuple';
import { readRegistry } from '../registry';
import { valueHolds } from './counted-integers';
import { provenRegistry } from './registered';
import type { ReadStats } from './result';

/**
 * Exact counts of clauses on location fields (contract section 4: every operator on every
 * location field counts exactly), from the counters alone: every distinct whole location is
 * registered (`v#location`, `location-tuple.ts`) and counted (`locationCounter`), so a list whose
 * every filter is on a location field counts the actions of the locations its clauses hold for.
 * Trusted only when the locations' counters sum to the total (no action has a location the
 * registry lacks: it lags the table by the stream, and a location too long for a key is never
 * registered) and there are at most `MAX_PROVEN_VALUES` of them (a counter read each); otherwise the list counts as
 * it did. Counter and registry reads are not index entries: the budget is not charged for them.
 */

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
 * The whole locations actions have, each with its count, when the registry is proven complete
 * (see above); `undefined` otherwise. In registry order (the encodings' order, not any field's).
 */
export async function registeredLocations(stats: ReadStats): Promise<LocationCount[] | undefined> {
  const [total, encoded] = await all<[number, string[]]>([
    readCount('all', '', stats),
    readRegistry('location', stats),
  ]);
  const decoded = new Map<string, Location>();
  for (const value of encoded) {
    const location = decodeLocation(value);
    if (location) decoded.set(value, location);
  }
  const counted = await provenRegistry([...decoded.keys()], total, (value) =>
    readCount(locationCounter, locationValue(decoded.get(value) as Location), stats),
  );
  return counted?.map((v) => ({ location: decoded.get(v.value) as Location, count: v.count }));
}

/**
 * The exact count of a list whose every filter is on a location field (any operator), from the
 * registered locations' counters; `undefined` for any other list, or when the registry is not
 * proven complete.
 */
export async function locationTotal(clauses: readonly Clause[], stats: ReadStats): Promise<number | undefined> {
  if (clauses.length === 0 || !clauses.every((c) => locationFieldOf(c.field.name) !== undefined)) return undefined;
  const locations = await registeredLocations(stats);
  return locations && locationHoldingCount(locations, clauses);
}
