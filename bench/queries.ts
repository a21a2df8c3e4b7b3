import { REFERENCE_DATE, type World } from './world';

/**
 * The fixed mix of list queries the benchmark runs: the default list, every index-served
 * filter, `~`, date ranges, a `*` search, deep paging, a count-only call and several sorts.
 * Values come from the seeded world, so the mix is the same on every run.
 */

export interface BenchQuery {
  name: string;
  /** The raw query string, as a client would send it. */
  query: string;
}

const q = (parts: Record<string, string | number>) =>
  Object.entries(parts)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

const day = (offsetDays: number) => new Date(Date.parse(REFERENCE_DATE) + offsetDays * 86_400_000).toISOString();

/** `reference` names an action the generator makes (found by the caller, who can generate). */
export function benchQueries(w: World, reference: string): BenchQuery[] {
  const [, , , owner] = w.people;
  const assignee = w.people[10];
  const site = w.sites[4];
  return [
    { name: 'default list', query: '' },
    { name: 'owner', query: q({ owner: owner?.id ?? '' }) },
    { name: 'assignee', query: q({ assignee: assignee?.id ?? '' }) },
    { name: 'unassigned', query: 'assignee=undefined' },
    { name: 'site', query: q({ 'location.site': site?.name ?? '' }) },
    { name: 'site + status', query: `${q({ 'location.site': site?.name ?? '' })}&status=1` },
    { name: 'business unit', query: q({ 'location.businessUnit': w.businessUnits[2] ?? '' }) },
    { name: 'producer', query: q({ 'actionProducer.name': 'Audits' }) },
    { name: 'reference', query: q({ 'actionProducer.reference': reference }) },
    { name: 'status', query: 'status=1' },
    { name: 'priority', query: 'priority=5' },
    { name: 'status ~', query: 'status=~1,2' },
    { name: 'priority >', query: 'priority=>3' },
    { name: 'overdue open, by due', query: `dueAt=<${encodeURIComponent(REFERENCE_DATE)}&status=~1,2&sort=dueAt` },
    { name: 'due next 7 days', query: `dueAt=>${day(0)}&dueAt=<${day(7)}&sort=dueAt&limit=50` },
    { name: 'created since a date', query: `createdAt=>${day(-14).slice(0, 10)}` },
    { name: 'created on a day', query: `createdAt=${day(-20).slice(0, 10)}&limit=100` },
    { name: 'title search', query: 'title=*pump' },
    { name: 'deep skip', query: 'skip=9000' },
    { name: 'count only', query: 'limit=0' },
    { name: 'sort dueAt', query: 'sort=dueAt' },
    { name: 'sort -priority', query: 'sort=-priority' },
    { name: 'sort title', query: 'sort=title' },
    { name: 'sort owner', query: 'sort=owner' },
    { name: 'owner, by -due', query: `${q({ owner: owner?.id ?? '' })}&sort=-dueAt&limit=50` },
  ];
}
