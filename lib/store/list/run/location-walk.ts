import type { Clause, ListQuery } from '../../../filter/query';
import type { LocationField } from '../../../model/action';
import { EMPTY_KEY } from '../../catalogue';
import { indexes } from '../../indexes';
import {
  countedLocations,
  type LocationCount,
  locationFieldOf,
  locationHoldingCount,
  locationHolds,
} from '../count/location-counts';
import { clauseIn } from '../plan/index-holds';
import { DEFAULT_SORT, type IndexRead } from '../plan/plan';
import { checkedPosition, compareValues } from '../plan/positions';
import type { ListResult, Position, Row } from '../plan/result';
import { skipTooDeep } from './page';
import { walkPageSize } from './reads';
import { partitionStart, readValue, type SortWalk, valuePage } from './value-walk';

/**
 * A sort on a location field below the site (department, work group, productive unit, team,
 * crew), which no index orders or keeps partitions of (contract section 4: every sort answers).
 * The whole locations' counters (`location-counts.ts`, proven complete by the total) give
 * the field's values in order and, for each value, the by-site partitions of the sites whose
 * locations hold it (an empty site's under its stand-in key, `EMPTY_KEY`), each already in
 * `createdAt`, then id, order, merged with the list's filters and the value applied, one value
 * after another. Positions are `[value, <createdAt>#<id>]`, as when every match is sorted in
 * memory, so a cursor from either continues in the other; a page the budget cuts holds the
 * matches found, in order, with a cursor.
 */

/** The location fields whose sorts this answers: a site and a business unit walk their own partitions (`value-walk.ts`). */
const walked: readonly LocationField[] = ['department', 'workGroup', 'productiveUnit', 'team', 'crew'];

/** Whether a list is sorted by a location field this walks. Pure. */
export function sortsByLocation(query: ListQuery): boolean {
  const field = locationFieldOf((query.sort ?? DEFAULT_SORT).field.name);
  return field !== undefined && walked.includes(field);
}

/**
 * The list's count when every filter is on a location field (none at all included): the counts
 * of the locations they hold for. Pure.
 */
const locationOnlyTotal = (clauses: readonly Clause[], locations: readonly LocationCount[]): number | undefined =>
  clauses.every((c) => locationFieldOf(c.field.name) !== undefined)
    ? locationHoldingCount(locations, clauses)
    : undefined;

/** Where the actions with one value of the sort field are: the sites of the locations with it ('' among them). */
export interface ValueSource {
  value: string;
  sites: string[];
}

/**
 * The values of `field` at the locations some action has that the list's location clauses hold
 * for, in the sort's order, each with where its actions are. Pure.
 */
export function valueSources(
  locations: readonly LocationCount[],
  clauses: readonly Clause[],
  field: LocationField,
  forward: boolean,
): ValueSource[] {
  const located = clauses.filter((c) => locationFieldOf(c.field.name) !== undefined);
  const byValue = new Map<string, Set<string>>();
  for (const { location, count } of locations) {
    if (count <= 0 || !locationHolds(located, location)) continue;
    const sites = byValue.get(location[field]) ?? new Set<string>();
    byValue.set(location[field], sites.add(location.site));
  }
  const sources = [...byValue].map(([value, sites]) => ({ value, sites: [...sites].sort() }));
  sources.sort((a, b) => compareValues(a.value, b.value));
  return forward ? sources : sources.reverse();
}

/**
 * The page of a list sorted by a location field below the site; `undefined` when the locations
 * cannot be enumerated (their counters are not proven) or the index cannot evaluate a filter: the
 * caller refuses the sort as before. `found`: matches an earlier read counted, a lower bound.
 */
export async function listByLocation(sorted: SortWalk): Promise<ListResult | undefined> {
  const { query, descending, context, after, counted, found } = sorted;
  const { budget, stats } = context;
  const sortField = (query.sort ?? DEFAULT_SORT).field;
  const field = locationFieldOf(sortField.name) as LocationField;
  const locations = await countedLocations(stats);
  if (locations === undefined) return undefined;
  const forward = !descending;
  const sources = valueSources(locations, query.filters, field, forward);

  const from = after === undefined ? undefined : (checkedPosition(sortField, after) as [string | null, string]);
  const direction = forward ? 1 : -1;
  const start = from === undefined ? 0 : sources.findIndex((s) => direction * compareValues(s.value, from[0]) >= 0);
  const window = query.skip + query.limit + 1;
  if (query.skip > 0 && query.skip >= budget.available) throw skipTooDeep(budget);
  const rows: Row[] = [];
  let reached: Position | undefined;
  for (const source of start < 0 ? [] : sources.slice(start)) {
    // Inside the cursor's own value: after its created key; every later value from its start.
    const inside = from !== undefined && source.value === (from[0] ?? '') && from[1] !== partitionStart(forward);
    const past = inside ? from[1] : undefined;
    const equal: Clause = { field: sortField, type: 'string', op: '=', values: [source.value] };
    const filter = [...query.filters, equal].map((clause) => clauseIn(indexes.bySite, clause));
    if (!filter.every((c) => c !== undefined)) return undefined;
    const read: IndexRead = { index: indexes.bySite, partitions: [], filter };
    const partitions = source.sites.map((site) => (site === '' ? EMPTY_KEY : site));
    const walk = { forward, window, budget, stats, pageSize: walkPageSize(read, window, partitions.length) };
    reached = await readValue(rows, source.value, partitions, read, walk, past);
    if (reached !== undefined || rows.length >= window) break;
  }
  return valuePage(
    { rows, reached },
    query,
    { window, from, total: counted ?? locationOnlyTotal(query.filters, locations), found, after },
    indexes.bySite,
    sources.length,
    context,
  );
}
