import type { Scope } from '../api-pending';

/** The business units and their sites that exist where the person can see, from locations they have met. */
export interface KnownLocations {
  businessUnits: string[];
  sitesOf: Record<string, string[]>;
}

/**
 * Gathers the business units and sites of some locations (actions' locations and grants' scopes),
 * sorted, so a picker offers the places that exist rather than free text alone. Pure.
 */
export function knownLocations(locations: Scope[]): KnownLocations {
  const sites = new Map<string, Set<string>>();
  for (const { businessUnit, site } of locations) {
    if (!businessUnit) continue;
    const known = sites.get(businessUnit) ?? new Set<string>();
    if (site) known.add(site);
    sites.set(businessUnit, known);
  }
  const byName = (a: string, b: string) => a.localeCompare(b);
  return {
    businessUnits: [...sites.keys()].sort(byName),
    sitesOf: Object.fromEntries([...sites].map(([unit, known]) => [unit, [...known].sort(byName)])),
  };
}
