import { type FieldSpec, fieldsByName, type GroupedField } from '../../filter/fields';
import type { ListQuery } from '../../filter/query';
import type { Viewer } from '../../model/access';
import { type Action, UNASSIGNED } from '../../model/action';
import { isRegistered, readRegistry } from '../registry';
import { countedIntegers } from './counted-integers';
import { countedLocations, locationFieldOf } from './location-counts';
import { registeredValues } from './registered';
import { newStats, type ReadStats } from './result';
import { listVisible } from './scoped';

/**
 * The values a `by` field of `GET /api/actions/counts` can group by (contract section 17), as the
 * list filter takes them, enumerated from what the store already counts, never from the actions:
 * `status` and `priority` from their counters (`counted-integers.ts`), people, producers, sites
 * and business units from the value registry proven complete by their counters
 * (`registered.ts`), every location field from the whole locations' counters
 * (`location-counts.ts`). A value here may have no match under the request's filters: the counts
 * decide, with the list's own count. Where the enumeration cannot be proven complete (the
 * registry lags the table by the stream), the values of the latest changed matching actions are
 * added (`recentValues`), so what was just written is grouped too.
 */

/** The value of a grouped field in an action, as the list filter takes it. Pure. */
export function groupValueOf(field: GroupedField, action: Action): string {
  if (field === 'status') return String(action.status);
  if (field === 'priority') return String(action.priority);
  if (field === 'assignee') return (action.assignee ?? UNASSIGNED).id;
  if (field === 'owner') return action.owner.id;
  if (field === 'actionProducer.name') return action.actionProducer.name;
  const location = locationFieldOf(field);
  return location === undefined ? '' : action.location[location];
}

/** How many of the latest changed matches an unproven enumeration reads, at most (pages of 100). */
const RECENT_PAGES = 10;

/**
 * The values of the matching actions changed last (newest `updatedAt` first, every page the list
 * reads): what a lagging registry may not hold yet. At small sizes, every match.
 */
async function recentValues(field: GroupedField, query: ListQuery, viewer: Viewer | undefined): Promise<string[]> {
  const values = new Set<string>();
  const list: ListQuery = {
    ...query,
    sort: { field: fieldsByName.get('updatedAt') as FieldSpec, descending: true },
    skip: 0,
    limit: 100,
  };
  let after: Parameters<typeof listVisible>[1];
  for (let page = 0; page < RECENT_PAGES; page++) {
    const result = await listVisible(list, after, viewer);
    for (const action of result.actions) values.add(groupValueOf(field, action));
    if (result.next === undefined) break;
    after = result.next;
  }
  return [...values];
}

/** The candidate values of `field`: every value some action has (see above). */
export async function groupValues(
  field: GroupedField,
  query: ListQuery,
  viewer: Viewer | undefined,
  stats: ReadStats = newStats(),
): Promise<string[]> {
  if (field === 'status' || field === 'priority') {
    const counted = await countedIntegers(field, stats);
    if (counted) return counted.map((v) => String(v.value));
    return recentValues(field, query, viewer);
  }
  if (isRegistered(field)) {
    const proven = await registeredValues(field, stats);
    if (proven) return proven.map((v) => v.value);
    const [registered, recent] = await Promise.all([readRegistry(field, stats), recentValues(field, query, viewer)]);
    return [...new Set(['', ...registered, ...recent])];
  }
  const location = locationFieldOf(field);
  const locations = await countedLocations(stats);
  if (locations && location !== undefined) return [...new Set(locations.map((l) => l.location[location]))];
  return recentValues(field, query, viewer);
}
