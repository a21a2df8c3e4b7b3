import { REFERENCE_DATE, type World } from './world';

/**
 * The fixed mix of list queries the benchmark runs. Values come from the seeded world, so the
 * mix is the same on every run.
 *
 * `counted` marks the common shapes of issue 13 (point 2): no filter in an order an
 * all-actions index keeps, count only, one value or a `~` of a few values of one counted field
 * newest or oldest first. They take `totalCount` from the counters and read about one page, so
 * their cost must not grow with the table (at most 25 read units, and at 100,000 actions at
 * most 1.2x what they read at 10,000). The rest go to the planner and still cost their matches.
 */

export interface BenchQuery {
  name: string;
  /** The raw query string, as a client would send it. */
  query: string;
  /** A common shape (served by counters and an ordered merge), held to the page-cost targets. */
  counted: boolean;
  /**
   * A daily combination (issue 53): served by the planner from counters and an ordered index,
   * held to the same targets as the common shapes (at most 25 read units, an exact count, at
   * most 1.2x from 10,000 to 100,000 actions) without going through the counted path.
   */
  daily?: boolean;
}

const q = (parts: Record<string, string | number>) =>
  Object.entries(parts)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

const day = (offsetDays: number) => new Date(Date.parse(REFERENCE_DATE) + offsetDays * 86_400_000).toISOString();

/** `reference` and `titles` name actions the generator makes (found by the caller, who can generate). */
export function benchQueries(w: World, reference: string, titles: readonly string[] = []): BenchQuery[] {
  const [, , , owner] = w.people;
  const assignee = w.people[10];
  const site = w.sites[4];
  const counted = (name: string, query: string): BenchQuery => ({ name, query, counted: true });
  const other = (name: string, query: string): BenchQuery => ({ name, query, counted: false });
  const daily = (name: string, query: string): BenchQuery => ({ name, query, counted: false, daily: true });
  const businessUnit = w.businessUnits[2] ?? '';
  return [
    counted('default list', ''),
    counted('count only', 'limit=0'),
    counted('sort createdAt', 'sort=createdAt'),
    counted('sort dueAt', 'sort=dueAt'),
    counted('sort -dueAt', 'sort=-dueAt'),
    counted('sort updatedAt', 'sort=updatedAt'),
    counted('sort -updatedAt', 'sort=-updatedAt'),
    counted('sort title', 'sort=title'),
    counted('sort -title', 'sort=-title'),
    counted('status', 'status=1'),
    counted('status, oldest first', 'status=1&sort=createdAt'),
    counted('status ~', 'status=~1,2'),
    counted('business unit', q({ 'location.businessUnit': w.businessUnits[2] ?? '' })),
    counted('site', q({ 'location.site': site?.name ?? '' })),
    counted('unassigned', 'assignee=undefined'),
    counted('owner', q({ owner: owner?.id ?? '' })),
    counted('assignee', q({ assignee: assignee?.id ?? '' })),
    counted('priority', 'priority=5'),
    counted('producer', q({ 'actionProducer.name': 'Audits' })),
    counted('status ~, count only', 'status=~1,2,5&limit=0'),
    counted('overdue', 'overdue=true'),
    counted('overdue, by due', 'overdue=true&sort=dueAt'),
    counted('overdue, by -due', 'overdue=true&sort=-dueAt'),
    // Counted, but a deep page costs its depth (about skip + limit entries), by design.
    other('deep skip', 'skip=9000'),
    other('count only, skipped', 'status=1&skip=2000&limit=0'),
    other('reference', q({ 'actionProducer.reference': reference })),
    other('site + status', `${q({ 'location.site': site?.name ?? '' })}&status=1`),
    other('owner, by -due', `${q({ owner: owner?.id ?? '' })}&sort=-dueAt&limit=50`),
    other('priority >', 'priority=>3'),
    // The daily combinations of issue 53: counters for the count, an ordered index for the page.
    daily('overdue open, by due', 'overdue=true&status=~1,2&sort=dueAt'),
    daily('overdue open, by -due', 'overdue=true&status=~1,2,5&sort=-dueAt'),
    daily('not closed, newest first', 'status=!3&status=!4'),
    daily('status + priority range', 'status=1&priority=>3'),
    daily('business unit overdue, by due', `${q({ 'location.businessUnit': businessUnit })}&overdue=true&sort=dueAt`),
    daily('open, due within a week', `status=~1,2,5&dueAt=>${day(0)}&dueAt=<${day(7)}&sort=dueAt`),
    daily('titles ~', q({ title: `~${titles.map((t) => t.replace(/[\\,]/g, (c) => `\\${c}`)).join(',')}` })),
    // The list issue 26 replaced with `overdue, by due`: open actions due before a date.
    other('open, due before a date', `dueAt=<${encodeURIComponent(REFERENCE_DATE)}&status=~1,2&sort=dueAt`),
    other('overdue + site', `overdue=true&${q({ 'location.site': site?.name ?? '' })}`),
    other('due next 7 days', `dueAt=>${day(0)}&dueAt=<${day(7)}&sort=dueAt&limit=50`),
    other('created since a date', `createdAt=>${day(-14).slice(0, 10)}`),
    other('created on a day', `createdAt=${day(-20).slice(0, 10)}&limit=100`),
    other('title search', 'title=*pump'),
    other('sort -priority', 'sort=-priority'),
    other('sort owner', 'sort=owner'),
  ];
}
