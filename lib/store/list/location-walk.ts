import { fieldsByName } from '../../filter/fields';
import type { Clause, ListQuery } from '../../filter/query';
import type { LocationField } from '../../model/action';
import { type IndexDefinition, indexes } from '../indexes';
import type { Item } from '../item';
import { attr, everythingPartitions } from '../table';
import type { ReadBudget } from './budget';
import { Placeholders } from './expression';
import { clauseIn } from './index-holds';
import { type LocationCount, locationFieldOf, locationHolds, registeredLocations } from './location-counts';
import { compareValues, mergeInOrder } from './merge';
import { page, skipTooDeep } from './page';
import { DEFAULT_SORT, type IndexRead } from './plan';
import { checkedPosition } from './positions';
import { queryInput, walkPageSize } from './reads';
import type { ListResult, Position, ReadStats, Row, Rows } from './result';
import { walkInOrder } from './walk';

/**
 * A sort on a location field below the site (department, work group, productive unit, team,
 * crew), which no index orders or keeps partitions of (contract section 4: every sort answers).
 * The registered whole locations (`location-counts.ts`, proven complete by their counters) give
 * the field's values in order and, for each value, the places its actions are: the by-site
 * partitions of the sites whose locations hold it, the by-business-unit partitions of units whose
 * locations with that value have no site (filtered to an empty site), each already in `createdAt`,
 * then id, order, merged with the list's filters and the value applied, one value after another.
 * A value some location with neither unit nor site holds (in no partition: keys cannot be empty)
 * is read by a fetching walk of every action in created order instead, as `value-walk.ts` reads
 * an empty site. Positions are `[value, <createdAt>#<id>]`, as when every match is sorted in
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

/** Where the actions with one value of the sort field are. */
export interface ValueSource {
  value: string;
  /** Sites (by-site partitions) of the locations with it. */
  sites: string[];
  /** Business units (by-business-unit partitions, filtered to no site) of its locations without a site. */
  units: string[];
  /** Whether a location with it has neither business unit nor site: only a fetching walk finds those. */
  nowhere: boolean;
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
  const byValue = new Map<string, { sites: Set<string>; units: Set<string>; nowhere: boolean }>();
  for (const { location, count } of locations) {
    if (count <= 0 || !locationHolds(located, location)) continue;
    const value = location[field];
    const source = byValue.get(value) ?? { sites: new Set<string>(), units: new Set<string>(), nowhere: false };
    byValue.set(value, source);
    if (location.site !== '') source.sites.add(location.site);
    else if (location.businessUnit !== '') source.units.add(location.businessUnit);
    else source.nowhere = true;
  }
  const sources = [...byValue].map(([value, s]) => ({
    value,
    sites: [...s.sites].sort(),
    units: [...s.units].sort(),
    nowhere: s.nowhere,
  }));
  sources.sort((a, b) => compareValues(a.value, b.value));
  return forward ? sources : sources.reverse();
}

/** A position before every entry of a partition, in each direction (created keys are ASCII). */
const partitionStart = (forward: boolean) => (forward ? '' : '\uffff');

/** An index read of one kind of partition with `clauses` as its filter; `undefined` if the index cannot evaluate one. */
function readOf(index: IndexDefinition, clauses: Clause[]): IndexRead | undefined {
  const filter = clauses.map((clause) => clauseIn(index, clause));
  return filter.every((c) => c !== undefined) ? { index, partitions: [], filter } : undefined;
}

/**
 * The page of a list sorted by a location field below the site; `undefined` when the locations
 * cannot be enumerated (the registry is not proven) or an index cannot evaluate a filter: the
 * caller refuses the sort as before. `found`: matches an earlier read counted, a lower bound.
 */
export async function listByLocation(
  query: ListQuery,
  descending: boolean,
  budget: ReadBudget,
  stats: ReadStats,
  after: Position | undefined,
  counted: number | undefined,
  found: number,
): Promise<ListResult | undefined> {
  const sortField = (query.sort ?? DEFAULT_SORT).field;
  const field = locationFieldOf(sortField.name) as LocationField;
  const locations = await registeredLocations(stats);
  if (locations === undefined) return undefined;
  const forward = !descending;
  const sources = valueSources(locations, query.filters, field, forward);
  const site = fieldsByName.get('location.site');
  if (site === undefined) return undefined;
  const noSite: Clause = { field: site, type: 'string', op: '=', values: [''] };

  const from = after === undefined ? undefined : (checkedPosition(sortField, after) as [string | null, string]);
  const direction = forward ? 1 : -1;
  const start = from === undefined ? 0 : sources.findIndex((s) => direction * compareValues(s.value, from[0]) >= 0);
  const window = query.skip + query.limit + 1;
  if (query.skip >= budget.available) throw skipTooDeep(budget.limit);
  const rows: Row[] = [];
  let reached: Position | undefined;
  const fetched = new Map<string, Item>();
  for (const source of start < 0 ? [] : sources.slice(start)) {
    // Inside the cursor's own value: after its created key; every later value from its start.
    const inside = from !== undefined && source.value === (from[0] ?? '') && from[1] !== partitionStart(forward);
    const past = inside ? from[1] : undefined;
    const equal: Clause = { field: sortField, type: 'string', op: '=', values: [source.value] };
    const clauses = [...query.filters, equal];
    let read: Rows & { fetched?: Map<string, Item> };
    if (source.nowhere) {
      // Some of its actions are in no partition: every action in created order, each fetched and filtered.
      const all = { index: indexes.allByCreated, partitions: [...everythingPartitions], filter: [] };
      read = await walkInOrder(
        { read: all, fetch: true, clauses, cost: 0, entries: 0 },
        forward,
        window - rows.length,
        budget,
        stats,
        past,
      );
    } else {
      const bySite = readOf(indexes.bySite, clauses);
      const byUnit = readOf(indexes.byBusinessUnit, [...clauses, noSite]);
      if (bySite === undefined || byUnit === undefined) return undefined;
      // One merge of both kinds of partition, each tagged with its kind (`s` or `b`).
      const partitions = [...source.sites.map((s) => `s${s}`), ...source.units.map((u) => `b${u}`)];
      const merged = await mergeInOrder(
        partitions,
        (tagged) => {
          const key = String(tagged);
          return queryInput(key.startsWith('s') ? bySite : byUnit, key.slice(1), new Placeholders(), forward, past);
        },
        attr.createdKey,
        forward,
        window - rows.length,
        budget,
        stats,
        walkPageSize(bySite, window, partitions.length),
        past,
      );
      const last = merged.items[merged.items.length - 1]?.[attr.createdKey] as string | undefined;
      read = {
        rows: merged.items.map((item) => ({ id: item[attr.id] as string, value: item[attr.createdKey] })),
        cut: merged.cut,
        ...(merged.cut ? { reached: merged.reached ?? last } : {}),
      };
    }
    for (const row of read.rows) rows.push({ id: row.id, value: [source.value, row.value as string] });
    for (const [id, item] of read.fetched ?? []) fetched.set(id, item);
    if (read.cut) {
      reached = [source.value, (read.reached as string | undefined) ?? past ?? partitionStart(forward)];
      break;
    }
    if (rows.length >= window) break;
  }
  const cut = reached !== undefined;
  const whole = !cut && rows.length < window && from === undefined;
  const result = await page(
    { rows, cut, ...(reached ? { reached } : {}) },
    query,
    counted ?? (whole ? rows.length : Math.max(found, rows.length)),
    counted !== undefined || whole ? 'eq' : 'gte',
    indexes.bySite,
    sources.length,
    stats,
    after,
    fetched,
  );
  return { ...result, strategy: 'planned', index: indexes.bySite.name };
}
