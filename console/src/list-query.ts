import type { ListView } from '../routes';
import { OPEN_STATUSES } from './statuses';
import { startOfDay, timeZone } from './time';
import type { ListParameter } from './types';

/**
 * A list's address and its API query, both ways, pure. The address holds every filter, the sort
 * and the page (the cursor of this page and of those before it), so a copied link opens the same
 * list; the API query is the view's own filters with the person's on top.
 */

/** The filters a person sets, by their name in the address. */
export const FILTERS = ['q', 'status', 'priority', 'site', 'assignee', 'from', 'to'] as const;
export type Filter = (typeof FILTERS)[number];

/** The columns a list sorts by, and the field each sorts on. */
export const SORTABLE = {
  Title: 'title',
  Status: 'status',
  Priority: 'priority',
  Due: 'dueAt',
  Assignee: 'assignee',
  Site: 'location.site',
} as const;

export const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

/** What each view lists before any filter of the person's, and in what order. */
function viewQuery(view: ListView, now: Date): { filters: [ListParameter, string][]; sort?: string } {
  switch (view) {
    case 'mine':
      return {
        filters: [
          ['assignee', 'me'],
          ['status', `~${OPEN_STATUSES}`],
        ],
        sort: 'dueAt',
      };
    case 'overdue':
      // Longest overdue first: the earliest due date.
      return { filters: [['overdue', 'true']], sort: 'dueAt' };
    case 'dueSoon':
      return {
        filters: [
          ['status', `~${OPEN_STATUSES}`],
          ['dueAt', `>${now.toISOString()}`],
          ['dueAt', `<${new Date(now.getTime() + 7 * DAY_MS).toISOString()}`],
        ],
        sort: 'dueAt',
      };
    case 'all':
      return { filters: [] };
  }
}

const dayBefore = (day: string) => new Date(Date.parse(day) - DAY_MS).toISOString().slice(0, 10);
const dayAfter = (day: string) => new Date(Date.parse(day) + DAY_MS).toISOString().slice(0, 10);
const MS = 1;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/**
 * API filters an address may carry as they are (each repeatable), so a link from the Overview
 * opens exactly the list a number counts: a location at any level, `overdue`, date ranges, people
 * and the producer. The named filters above are the ones the filter form edits.
 */
const PASSED = ['overdue', 'dueAt', 'closedAt', 'createdAt', 'owner', 'actionProducer.name'];
const passed = (name: string) => PASSED.includes(name) || (name.startsWith('location.') && name !== 'location.site');

/**
 * The due range's days are the person's calendar days (section 13: times in their zone): in UTC
 * the API's own day form, elsewhere the instants the zone's days start at.
 */
function dueRange(from: string, to: string, zone: string): [ListParameter, string][] {
  const range: [ListParameter, string][] = [];
  if (zone === 'UTC') {
    if (isDay(from)) range.push(['dueAt', `>${dayBefore(from)}`]);
    if (isDay(to)) range.push(['dueAt', `<${dayAfter(to)}`]);
    return range;
  }
  // `>` is strictly after: one millisecond before the day starts includes its first instant.
  if (isDay(from)) range.push(['dueAt', `>${new Date(Date.parse(startOfDay(from, zone)) - MS).toISOString()}`]);
  if (isDay(to)) range.push(['dueAt', `<${new Date(Date.parse(startOfDay(dayAfter(to), zone))).toISOString()}`]);
  return range;
}

/** The API query (repeatable parameters, so a list of pairs) of the list an address shows. */
export function apiQuery(
  view: ListView,
  address: URLSearchParams,
  now = new Date(),
  zone = timeZone.value,
): [ListParameter, string][] {
  const cursor = address.get('cursor');
  // A cursor carries its filters and sort; the API takes it with the page size alone.
  if (cursor)
    return [
      ['cursor', cursor],
      ['limit', String(PAGE_SIZE)],
    ];
  const base = viewQuery(view, now);
  const own: [ListParameter, string][] = [];
  const text = (name: Filter) => address.get(name)?.trim() ?? '';
  if (text('q')) own.push(['title', `*${text('q')}`]);
  if (text('status')) own.push(['status', text('status')]);
  if (text('priority')) own.push(['priority', text('priority')]);
  if (text('site')) own.push(['location.site', text('site')]);
  if (text('assignee')) own.push(['assignee', text('assignee')]);
  // A due range includes both its days: `>` means after the day before, `<` before the day after.
  own.push(...dueRange(text('from'), text('to'), zone));
  for (const [name, value] of address) if (passed(name) && value) own.push([name as ListParameter, value]);
  const overridden = new Set(own.map(([name]) => name));
  const filters = [...base.filters.filter(([name]) => !overridden.has(name)), ...own];
  const sort = address.get('sort') || base.sort;
  return [...filters, ...(sort ? [['sort', sort] as [ListParameter, string]] : []), ['limit', String(PAGE_SIZE)]];
}

/** The filters and sort of the list an address shows, without paging: what an export of it takes. */
export function listFilters(view: ListView, address: URLSearchParams, now = new Date()): string {
  const first = new URLSearchParams(address);
  first.delete('cursor');
  first.delete('prev');
  const query = apiQuery(view, first, now).filter(([name]) => name !== 'limit');
  return new URLSearchParams(query).toString();
}

/** The sort an address shows: its own, or the view's. */
export function currentSort(view: ListView, address: URLSearchParams): string | undefined {
  return address.get('sort') || viewQuery(view, new Date()).sort;
}

/** The address after changing some filters or the sort: back to the first page. */
export function withFilters(address: URLSearchParams, changes: Record<string, string>): URLSearchParams {
  const next = new URLSearchParams(address);
  next.delete('cursor');
  next.delete('prev');
  for (const [name, value] of Object.entries(changes)) {
    if (value.trim()) next.set(name, value.trim());
    else next.delete(name);
  }
  return next;
}

/** An address's filters and sort, then the page: the cursors before it, and its own. */
function atPage(address: URLSearchParams, earlier: string[], cursor: string | undefined): URLSearchParams {
  const next = new URLSearchParams(address);
  next.delete('prev');
  next.delete('cursor');
  for (const before of earlier) next.append('prev', before);
  if (cursor) next.set('cursor', cursor);
  return next;
}

/** The address of the next page: this page's cursor (empty on the first) joins those before it. */
export function nextPage(address: URLSearchParams, cursor: string): URLSearchParams {
  return atPage(address, [...address.getAll('prev'), address.get('cursor') ?? ''], cursor);
}

/** The address of the previous page, or undefined on the first. */
export function previousPage(address: URLSearchParams): URLSearchParams | undefined {
  if (!address.get('cursor')) return undefined;
  const earlier = address.getAll('prev');
  const back = earlier.pop();
  return atPage(address, earlier, back);
}
