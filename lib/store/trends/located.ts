import { parseListTerms } from '../../filter/query';
import { type LocationField, locationFields } from '../../model/action';
import { readMembers } from '../counters/counters';
import { locationCounter } from '../counters/prefixes';
import { locationHolds, maxProvenLocations } from '../list/count/location-counts';
import type { ReadStats } from '../list/plan/result';
import { decodeLocation } from '../location-tuple';

/**
 * The location prefixes, `depth` fields long, of the stored whole locations that location
 * filters hold for, each judged as the list judges `=` on that field: what a trend sums when its
 * filters skip a field (`location.site=North Pit` alone is every business unit's North Pit). From
 * the whole locations' counters (one small item each, 16 parallel Queries), never from actions.
 * Only locations some action has now are found. `undefined` when there are more whole locations
 * than `maxProvenLocations()`: the caller then needs the fields before the one it names.
 */
export async function locatedPrefixes(
  location: Partial<Record<LocationField, string>>,
  depth: number,
  stats: ReadStats,
): Promise<string[][] | undefined> {
  const members = await readMembers(locationCounter, maxProvenLocations(), stats);
  if (members === undefined) return undefined;
  const clauses = parseListTerms(
    Object.entries(location).map(([field, value]) => [`location.${field}`, `=${value}`]),
  ).filters;
  const found = new Map<string, string[]>();
  for (const encoded of members.keys()) {
    const whole = decodeLocation(encoded);
    if (whole === undefined || !locationHolds(clauses, whole)) continue;
    const prefix = locationFields.slice(0, depth).map((field) => whole[field]);
    found.set(JSON.stringify(prefix), prefix);
  }
  return [...found.values()];
}
