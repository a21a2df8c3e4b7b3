import { type FieldSpec, fieldsByName, type GroupedField } from '../../../filter/fields';
import type { ListQuery } from '../../../filter/query';
import type { Viewer } from '../../../model/access';
import { type Action, UNASSIGNED } from '../../../model/action';
import type { Usage } from '../../../usage';
import { storedFields } from '../../catalogue';
import { canBeKey } from '../../client';
import { valueAt } from '../../item';
import { requestBudget } from '../../query/budget';
import { queryInput } from '../../query/key-query';
import { queryPage } from '../../query/pager';
import { isRegistered, readRegistry } from '../../registry';
import { filterPath } from '../../table';
import { listVisible } from '../entry';
import { addStats, newStats, type ReadStats } from '../plan/result';
import { countedIntegers } from './counted-integers';
import { countedLocations, locationFieldOf } from './location-counts';
import { registeredValues } from './registered';

/**
 * The values a `by` field of `GET /api/actions/counts` can group by (contract section 17), as the
 * list filter takes them, enumerated from what the store already counts, never from the actions:
 * `status` and `priority` from their counters (`counted-integers.ts`), people, producers and
 * every location field from the value registry proven complete by their counters
 * (`registered.ts`), else a location field from the whole locations' counters
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

/** The matches of `list` (its order), a page of 100 at a time, up to `pages` pages; whether that was all of them. */
async function readMatches(
  list: ListQuery,
  viewer: Viewer | undefined,
  stats: ReadStats,
  pages: number,
  usage?: Usage,
): Promise<{ actions: Action[]; all: boolean }> {
  const actions: Action[] = [];
  let after: Parameters<typeof listVisible>[1];
  for (let page = 0; page < pages; page++) {
    const result = await listVisible(
      { ...list, skip: 0, limit: 100 },
      after,
      viewer,
      requestBudget(usage),
      stats.shared,
    );
    addStats(stats, result.stats);
    actions.push(...result.actions);
    if (result.next === undefined) return { actions, all: true };
    after = result.next;
  }
  return { actions, all: false };
}

/**
 * The values of the matching actions changed last (newest `updatedAt` first, every page the list
 * reads): what a lagging registry may not hold yet. At small sizes, every match.
 */
async function recentValues(
  field: GroupedField,
  query: ListQuery,
  viewer: Viewer | undefined,
  stats: ReadStats,
  usage?: Usage,
): Promise<string[]> {
  const sort = { field: fieldsByName.get('updatedAt') as FieldSpec, descending: true };
  const { actions } = await readMatches({ ...query, sort }, viewer, stats, RECENT_PAGES, usage);
  return [...new Set(actions.map((action) => groupValueOf(field, action)))];
}

/**
 * Every action matching `query` that `viewer` sees, when they fit `RECENT_PAGES` pages of the
 * list in its default order (newest first); `undefined` when more follow.
 */
export async function matchingActions(
  query: ListQuery,
  viewer: Viewer | undefined,
  stats: ReadStats,
  usage?: Usage,
): Promise<Action[] | undefined> {
  const { sort: _, ...list } = query;
  const { actions, all } = await readMatches(list, viewer, stats, RECENT_PAGES, usage);
  return all ? actions : undefined;
}

/** The candidate values of `field`: every value some action has (see above). */
export async function groupValues(
  field: GroupedField,
  query: ListQuery,
  viewer: Viewer | undefined,
  stats: ReadStats = newStats(),
  usage?: Usage,
): Promise<string[]> {
  if (field === 'status' || field === 'priority') {
    const counted = await countedIntegers(field, stats);
    if (counted) return counted.map((v) => String(v.value));
    return recentValues(field, query, viewer, stats, usage);
  }
  const location = locationFieldOf(field);
  if (isRegistered(field)) {
    const proven = await registeredValues(field, stats);
    if (proven) return proven.map((v) => v.value);
  }
  // A registry the stream has not caught up with: a location field's values are in the whole
  // locations' counters too, kept in the writes' own transactions.
  const locations = location === undefined ? undefined : await countedLocations(stats);
  if (locations && location !== undefined) return [...new Set(locations.map((l) => l.location[location]))];
  if (isRegistered(field)) {
    const [registered, recent] = await Promise.all([
      readRegistry(field, stats),
      recentValues(field, query, viewer, stats, usage),
    ]);
    return [...new Set(['', ...registered, ...recent])];
  }
  return recentValues(field, query, viewer, stats, usage);
}

/** A group straight from the counters: its value and its count. */
export interface CountedGroup {
  value: string;
  count: number;
}

/**
 * The groups of one field over every action (no filter, a caller who sees everything), from the
 * very counters the list reads for `<field>=<value>` (`counts.ts`: `countedTotal`), so each
 * equals that list's `totalCount`: a registered field's values with their counters
 * (`registered.ts`), `status` and `priority` from their counters. `undefined` where those are
 * not proven complete.
 */
export async function countedGroups(
  field: GroupedField,
  stats: ReadStats = newStats(),
): Promise<CountedGroup[] | undefined> {
  if (field === 'status' || field === 'priority')
    return (await countedIntegers(field, stats))?.map((v) => ({ value: String(v.value), count: v.count }));
  const location = locationFieldOf(field);
  if (isRegistered(field)) {
    const registered = await registeredValues(field, stats);
    // A registry the stream has not caught up with: a location field's values are in the whole
    // locations' counters too, kept in the writes' own transactions.
    if (registered || location === undefined) return registered?.filter((v) => v.count > 0);
  }
  const locations = await countedLocations(stats);
  if (!locations || location === undefined) return undefined;
  const sums = new Map<string, number>();
  for (const l of locations) sums.set(l.location[location], (sums.get(l.location[location]) ?? 0) + l.count);
  return [...sums].map(([value, count]) => ({ value, count }));
}

/**
 * The name of a person as their latest action by `field` shows it: one entry of their partition
 * of its equality index, which holds every filter value (the name beside the id). For a group's
 * label; `undefined` when no action has them.
 */
export async function personName(
  field: 'owner' | 'assignee',
  id: string,
  stats?: ReadStats,
): Promise<string | undefined> {
  const spec = storedFields[field];
  const index = spec.equality.index;
  if (!canBeKey(id)) return undefined;
  // Their latest action's entry, its name only: one entry, newest first.
  const page = await queryPage(
    queryInput({ index, partition: id, projection: [filterPath(spec.sortBy.key)], descending: true }),
    stats ? { stats } : {},
    1,
  );
  const item = page.Items?.[0];
  const name = item === undefined ? undefined : valueAt(item, filterPath(spec.sortBy.key));
  return typeof name === 'string' ? name : undefined;
}
