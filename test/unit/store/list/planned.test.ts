import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import { plan } from '../../../../lib/store/list/plan/plan';
import { type ReadOrWalk, readOrWalk } from '../../../../lib/store/list/run/planned';
import { sizes } from './sizes-fixture';

/** How a planned list finds its page: every match read and sorted, or a read in the list's order. */

/** The choice for `q` planned over `sizes`, as a person would describe it. */
function choose(q: string, available: number, counted?: number, known?: number) {
  const query = parseListQuery(q);
  const chosen = plan(query, sizes, counted);
  const c: ReadOrWalk = readOrWalk(query, chosen, available, counted, known);
  const order = c.walk
    ? `walk ${c.walk.read.index.name}`
    : c.byValue
      ? `by value ${c.byValue.index.name}`
      : c.byLocation
        ? 'by location'
        : c.byReference
          ? 'by reference'
          : undefined;
  expect(c.ordered).toBe(order !== undefined);
  expect(c.window).toBe(query.skip + query.limit + 1);
  return { readAll: c.readAll, readShare: c.readShare, order, exact: chosen.exact };
}

const copperByDue = 'location.businessUnit=Copper&status=~1,2,5&sort=dueAt';
const cadiaByDue = 'location.site=Cadia&status=~1,2,5&sort=dueAt';

describe('readOrWalk: a walk with a count', () => {
  it("reads every match when they fit and cost less than the walk: a business unit's few of every action by due time", () => {
    expect(choose(copperByDue, 5000, 109)).toEqual({
      readAll: true,
      readShare: undefined,
      order: 'walk all-by-due',
      exact: true,
    });
  });

  it('walks when every match does not fit the budget left, however it compares with the walk', () => {
    expect(choose(copperByDue, 379, 109)).toMatchObject({ readAll: false, order: 'walk all-by-due' });
    expect(choose(copperByDue, 380, 109)).toMatchObject({ readAll: true });
  });

  it("walks when the walk reads less for the page: a site's own partition by due time", () => {
    expect(choose(cadiaByDue, 5000, 109)).toMatchObject({ readAll: false, order: 'walk by-site-by-due' });
  });

  it("takes a scope's part's count (`known`) as the count", () => {
    expect(choose(copperByDue, 5000, undefined, 109)).toMatchObject({ readAll: true, order: 'walk all-by-due' });
    expect(choose(cadiaByDue, 5000, undefined, 109)).toMatchObject({ readAll: false });
  });

  it('reads every match for a count (`limit=0`): a count has no walk', () => {
    expect(choose(`${copperByDue}&limit=0`, 5000, 109)).toEqual({
      readAll: true,
      readShare: undefined,
      order: undefined,
      exact: true,
    });
  });
});

describe('readOrWalk: an exact plan', () => {
  it('reads every match whenever they fit, with the whole budget, and otherwise walks the value partitions', () => {
    expect(choose('location.site=Cadia&sort=status', 380)).toEqual({
      readAll: true,
      readShare: undefined,
      order: 'by value by-status',
      exact: true,
    });
    expect(choose('location.site=Cadia&sort=status', 379)).toMatchObject({
      readAll: false,
      order: 'by value by-status',
    });
  });

  it('reads every match for a count the counters did not give, with the whole budget, even past it: a cut read counts a lower bound', () => {
    expect(choose('status=1&limit=0', 100)).toEqual({
      readAll: true,
      readShare: undefined,
      order: undefined,
      exact: true,
    });
  });

  it('walks the locations for a location field below the site, or reads every match when they fit', () => {
    expect(choose('location.site=Cadia&sort=location.crew', 5000)).toMatchObject({
      readAll: true,
      order: 'by location',
    });
    expect(choose('location.site=Cadia&sort=location.crew', 379)).toMatchObject({
      readAll: false,
      order: 'by location',
    });
  });

  it('walks the reference order for a sort by reference, or reads every match when they fit', () => {
    expect(choose('location.site=Cadia&sort=actionProducer.reference', 5000)).toMatchObject({
      readAll: true,
      order: 'by reference',
    });
    expect(choose('location.site=Cadia&sort=actionProducer.reference', 379)).toMatchObject({
      readAll: false,
      order: 'by reference',
    });
  });
});

describe("readOrWalk: a scope's part (`known`) without a walk", () => {
  it('walks the value or location partitions rather than read every match, though they fit', () => {
    expect(choose('location.site=Cadia&sort=status', 5000, undefined, 380)).toMatchObject({
      readAll: false,
      order: 'by value by-status',
    });
    expect(choose('location.site=Cadia&sort=location.crew', 5000, undefined, 380)).toMatchObject({
      readAll: false,
      order: 'by location',
    });
  });

  it('reads its matches first when sorted by reference: the reference order holds every action', () => {
    expect(choose('location.site=Cadia&sort=actionProducer.reference', 5000, undefined, 380)).toMatchObject({
      readAll: true,
      order: 'by reference',
    });
  });
});

describe('readOrWalk: a guessed plan', () => {
  const cadiaSince = 'location.site=Cadia&createdAt=>2026-01-01T00:00:00Z&sort=status';
  const since = 'createdAt=>2026-01-01T00:00:00Z';

  it('reads every match with half the budget, keeping the other half for the read in order', () => {
    expect(choose(cadiaSince, 1000)).toEqual({
      readAll: true,
      readShare: 500,
      order: 'by value by-status',
      exact: false,
    });
    // The guess (190 entries) does not decide: the read stops at its share.
    expect(choose(cadiaSince, 101)).toMatchObject({ readAll: true, readShare: 50 });
  });

  it('keeps a round of every partition of a walk, and a run, when that is more than half', () => {
    // 16 shards of all-by-created: 4 x 16 + 2 = 66 kept for the walk.
    expect(choose(since, 1000)).toEqual({ readAll: true, readShare: 500, order: 'walk all-by-created', exact: false });
    expect(choose(since, 100)).toMatchObject({ readAll: true, readShare: 34 });
    expect(choose(since, 67)).toMatchObject({ readAll: true, readShare: 1 });
  });

  it('walks at once when the budget left is no more than the walk needs', () => {
    expect(choose(since, 66)).toMatchObject({ readAll: false, readShare: undefined, order: 'walk all-by-created' });
    expect(choose(cadiaSince, 1)).toMatchObject({ readAll: false, order: 'by value by-status' });
  });
});
