import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import type { Action } from '../../../../lib/model/action';
import { toItem } from '../../../../lib/store/item';
import {
  keptAsPart,
  mergeParts,
  onlyOwn,
  ownMatches,
  scopeMayMatch,
  walkedAsPart,
} from '../../../../lib/store/list/entry';
import { comparePositions } from '../../../../lib/store/list/plan/positions';
import type { Part } from '../../../../lib/store/list/run/parts';
import { anAction } from '../../action-fixture';

/**
 * The scoped list's pure decisions (`lib/store/list/entry.ts`, contract section 14): which scopes
 * a list's filters leave anything, when a list is only the caller's own, the caller's own part
 * from their partitions, and the parts merged into one page, bounded where the budget cut a part.
 */

/** A part whose matches stand at `at` (positions compare as strings), as a part's read leaves it. */
const part = (at: string[], state: Partial<Omit<Part, 'matches'>> = {}): Part => ({
  matches: at.map((a) => ({ at: a, id: `id-${a}` })),
  totalCount: at.length,
  exact: true,
  more: false,
  cut: false,
  ...state,
});
const up = parseListQuery('sort=dueAt').sort;
const ascending = { skip: 0, limit: 10, sort: up };
const descending = { ...ascending, sort: parseListQuery('sort=-dueAt').sort };
const placesOf = (page: ReturnType<typeof mergeParts>) => page.shown.map((m) => m.at);

describe('mergeParts', () => {
  it('merges the parts in the list’s order, counted as their sum, exactly when every part is', () => {
    const page = mergeParts([part(['b', 'e']), part(['a', 'c', 'd'])], ascending);
    expect(placesOf(page)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(page).toMatchObject({ totalCount: 5, totalCountRelation: 'eq', cut: false });
    expect(page.next).toBeUndefined();
  });

  it('merges in descending order when the sort is descending, and when there is none (newest first)', () => {
    const parts = [part(['e', 'b']), part(['d', 'c', 'a'])];
    expect(placesOf(mergeParts(parts, descending))).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(placesOf(mergeParts(parts, { skip: 0, limit: 10 }))).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('shows the window skip..skip+limit, and the last shown as the cursor when more follow', () => {
    const page = mergeParts([part(['b', 'e']), part(['a', 'c', 'd'])], { skip: 1, limit: 2, sort: up });
    expect(placesOf(page)).toEqual(['b', 'c']);
    expect(page.next).toBe('c');
    expect(page.totalCountRelation).toBe('eq');
  });

  it('gives no cursor when a full page is the last of every part', () => {
    expect(mergeParts([part(['a']), part(['b'])], { skip: 0, limit: 2, sort: up }).next).toBeUndefined();
  });

  it('gives the cursor when a part says more follow the matches it read', () => {
    const page = mergeParts([part(['a']), part(['b'], { more: true })], { skip: 0, limit: 2, sort: up });
    expect(page.next).toBe('b');
  });

  it('counts at least (gte) when a part is inexact, though none was cut', () => {
    const page = mergeParts([part(['a']), part(['b'], { exact: false, totalCount: 40 })], ascending);
    expect(page).toMatchObject({ totalCount: 41, totalCountRelation: 'gte', cut: false });
    expect(placesOf(page)).toEqual(['a', 'b']);
  });

  it('stops the page at the place a cut part is sure of, and continues from there', () => {
    const page = mergeParts([part(['a', 'b', 'd', 'e']), part(['c'], { cut: true, reached: 'c' })], ascending);
    expect(placesOf(page)).toEqual(['a', 'b', 'c']);
    expect(page).toMatchObject({ next: 'c', cut: true, totalCountRelation: 'gte' });
  });

  it('stops at the nearest of several cut parts’ places, in the list’s direction', () => {
    const cutAt = (reached: string) => part([], { cut: true, reached, exact: false });
    const up = mergeParts([part(['a', 'c', 'e', 'g']), cutAt('f'), cutAt('d')], ascending);
    expect(placesOf(up)).toEqual(['a', 'c']);
    expect(up.next).toBe('d');
    const down = mergeParts([part(['g', 'e', 'c', 'a']), cutAt('b'), cutAt('d')], descending);
    expect(placesOf(down)).toEqual(['g', 'e']);
    expect(down.next).toBe('d');
  });

  it('shows nothing when a cut part is sure of none, and the cursor stays where the page began', () => {
    const parts = [part(['b', 'c']), part([], { cut: true, exact: false })];
    const page = mergeParts(parts, ascending, 'a');
    expect(page.shown).toEqual([]);
    expect(page).toMatchObject({ next: 'a', cut: true, totalCountRelation: 'gte' });
    expect(mergeParts(parts, ascending).next).toBeUndefined();
  });

  it('gives the last shown as the cursor when a cut page is full', () => {
    const page = mergeParts([part(['a', 'b', 'c']), part(['d'], { cut: true, reached: 'd' })], {
      skip: 0,
      limit: 2,
      sort: up,
    });
    expect(placesOf(page)).toEqual(['a', 'b']);
    expect(page.next).toBe('b');
  });

  it('counts only, with no cursor, when the limit is 0, even cut', () => {
    const page = mergeParts([part(['a', 'b']), part(['c'], { cut: true, reached: 'c' })], {
      skip: 0,
      limit: 0,
      sort: up,
    });
    expect(page.shown).toEqual([]);
    expect(page).toMatchObject({ totalCount: 3, cut: true, totalCountRelation: 'gte' });
    expect(page.next).toBeUndefined();
  });

  it('without a cut, shows the window of the sorted union of the parts', () => {
    const places = fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 3 }), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(places, fc.nat(12), fc.nat(6), fc.nat(3), (all, split, skip, limit) => {
        const page = mergeParts(
          [part(all.slice(0, split).sort(comparePositions)), part(all.slice(split).sort(comparePositions))],
          { skip, limit, sort: up },
        );
        const sorted = [...all].sort(comparePositions);
        expect(placesOf(page)).toEqual(sorted.slice(skip, skip + limit));
        expect(page.next !== undefined).toBe(limit > 0 && sorted.length > skip + limit);
      }),
    );
  });
});

describe('scopeMayMatch', () => {
  const north = { site: 'North Pit' };

  it('drops a scope whose fixed value a filter excludes', () => {
    expect(scopeMayMatch(parseListQuery('location.site=South'), north)).toBe(false);
    expect(scopeMayMatch(parseListQuery('location.site=!North Pit'), north)).toBe(false);
  });

  it('keeps a scope whose fixed value the filters take', () => {
    expect(scopeMayMatch(parseListQuery('location.site=North Pit'), north)).toBe(true);
    expect(scopeMayMatch(parseListQuery('location.site=~South,North Pit'), north)).toBe(true);
  });

  it('compares `*` with the folded value, as the stored copy is', () => {
    expect(scopeMayMatch(parseListQuery('location.site=*pit'), north)).toBe(true);
    expect(scopeMayMatch(parseListQuery('location.site=*pot'), north)).toBe(false);
  });

  it('leaves alone a filter on a field the scope does not fix', () => {
    expect(scopeMayMatch(parseListQuery('location.team=Red&status=1'), north)).toBe(true);
    expect(scopeMayMatch(parseListQuery('location.team=Red'), { site: 'North Pit', team: 'Blue' })).toBe(false);
  });
});

describe('onlyOwn', () => {
  it('is true when owner or assignee is only the caller', () => {
    expect(onlyOwn(parseListQuery('owner=me', 'p-1'), 'p-1')).toBe(true);
    expect(onlyOwn(parseListQuery('assignee=~me', 'p-1'), 'p-1')).toBe(true);
    expect(onlyOwn(parseListQuery('status=1&assignee=p-1'), 'p-1')).toBe(true);
  });

  it('is false when the list may hold another person’s actions', () => {
    expect(onlyOwn(parseListQuery('status=1'), 'p-1')).toBe(false);
    expect(onlyOwn(parseListQuery('owner=~me,p-2', 'p-1'), 'p-1')).toBe(false);
    expect(onlyOwn(parseListQuery('owner=!me', 'p-1'), 'p-1')).toBe(false);
    expect(onlyOwn(parseListQuery('owner=p-2'), 'p-1')).toBe(false);
  });
});

describe('ownMatches', () => {
  const at = (id: string, overrides: Partial<Action>) =>
    toItem(anAction({ id, createdAt: `2026-11-0${id.slice(-1)}T08:00:00.000Z`, ...overrides }));
  const north = anAction().location;
  const south = { ...north, site: 'South' };
  const items = [
    at('a-1', { location: south }),
    at('a-2', { location: north }),
    at('a-3', { location: south, status: 2 }),
    at('a-4', { location: south }),
  ];
  const ids = (p: Part) => p.matches.map((m) => m.id);

  it('keeps each action once, outside every scope, that the filters keep, in the list’s order', () => {
    const own = ownMatches(
      parseListQuery('status=1&sort=createdAt'),
      [{ site: north.site }],
      [...items, ...items.slice(0, 1)],
    );
    expect(ids(own)).toEqual(['a-1', 'a-4']);
    expect(own).toMatchObject({ totalCount: 2, exact: true, more: false, cut: false });
  });

  it('follows a descending sort', () => {
    expect(ids(ownMatches(parseListQuery('sort=-createdAt'), [], items))).toEqual(['a-4', 'a-3', 'a-2', 'a-1']);
  });

  it('starts after `after`, still counting the whole part', () => {
    const list = parseListQuery('sort=createdAt');
    const first = ownMatches(list, [], items);
    const rest = ownMatches(list, [], items, first.matches[1]?.at);
    expect(ids(rest)).toEqual(['a-3', 'a-4']);
    expect(rest.totalCount).toBe(4);
  });
});

describe('keptAsPart', () => {
  const kept = (keys: string[], state: { complete: boolean; reached?: string }) => ({
    matches: keys.map((key) => ({ key, id: `id-${key}`, action: anAction({ id: `id-${key}` }) })),
    ...state,
  });

  it('counts exactly a search that read every posting from the start', () => {
    const p = keptAsPart(kept(['a', 'b'], { complete: true }), 5);
    expect(p).toMatchObject({ totalCount: 2, exact: true, more: false, cut: false });
    expect(p.matches.map((m) => [m.at, m.action?.id])).toEqual([
      ['a', 'id-a'],
      ['b', 'id-b'],
    ]);
    expect(keptAsPart(kept(['c'], { complete: true }), 5, 'b').exact).toBe(false);
  });

  it('is not cut when it stopped holding the window and one more', () => {
    const p = keptAsPart(kept(['a', 'b', 'c'], { complete: false, reached: 'c' }), 2);
    expect(p).toMatchObject({ exact: false, more: true, cut: false });
    expect(p.reached).toBeUndefined();
  });

  it('is cut, sure up to where it got, when it stopped short of the window', () => {
    expect(keptAsPart(kept(['a'], { complete: false, reached: 'c' }), 2)).toMatchObject({
      more: true,
      cut: true,
      reached: 'c',
    });
    // The window itself without the one more does not say more follow: still cut.
    expect(keptAsPart(kept(['a', 'b'], { complete: false, reached: 'b' }), 2).cut).toBe(true);
    expect(keptAsPart(kept([], { complete: false }), 2).reached).toBeUndefined();
  });
});

describe('walkedAsPart', () => {
  const walked = (at: string[], cut = false, reached?: string) => ({
    matches: at.map((a) => ({ at: a, id: `id-${a}` })),
    cut,
    ...(reached !== undefined ? { reached } : {}),
  });

  it('takes the counters’ total when they knew every scope, and says more follow past the window', () => {
    expect(walkedAsPart(walked(['a', 'b', 'c']), undefined, 2, 7)).toMatchObject({
      totalCount: 7,
      exact: true,
      more: true,
      cut: false,
    });
  });

  it('counts the matches read, exactly only when the walk read its whole index', () => {
    expect(walkedAsPart(walked(['a', 'b']), undefined, 2, undefined)).toMatchObject({ totalCount: 2, exact: true });
    expect(walkedAsPart(walked(['a', 'b', 'c']), undefined, 2, undefined).exact).toBe(false);
    expect(walkedAsPart(walked(['b']), undefined, 2, undefined, 'a').exact).toBe(false);
    expect(walkedAsPart(walked(['a'], true, 'b'), undefined, 2, undefined)).toMatchObject({
      exact: false,
      cut: true,
      reached: 'b',
    });
  });

  it('carries the action of each match the walk fetched', () => {
    const fetched = new Map([['id-b', toItem(anAction({ id: 'id-b', title: 'Fetched' }))]]);
    const p = walkedAsPart(walked(['a', 'b']), fetched, 2, 2);
    expect(p.matches.map((m) => m.action?.title)).toEqual([undefined, 'Fetched']);
  });
});
