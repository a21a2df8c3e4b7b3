import { describe, expect, it } from 'vitest';
import { type FieldSpec, fieldsByName } from '../../../../lib/filter/fields';
import { type Clause, parseListQuery } from '../../../../lib/filter/query';
import type { Scope } from '../../../../lib/model/access';
import type { Sizes } from '../../../../lib/store/list/plan/plan';
import { combinedWalk } from '../../../../lib/store/list/run/combined';

/**
 * When a scoped list reads its scopes as one walk of the list's own index (filtered to the
 * scopes) rather than a part a scope: when the walk is expected to read fewer bytes.
 */

const sizes: Sizes = { total: 10_000, values: { status: { '1': 1527, '2': 1085, '5': 239 } } };

const clausesOf = (scope: Scope): Clause[] =>
  (['businessUnit', 'site'] as const).flatMap((f) =>
    scope[f] === undefined
      ? []
      : [
          {
            field: fieldsByName.get(`location.${f}`) as FieldSpec,
            type: 'string',
            op: '=',
            values: [scope[f] as string],
          } satisfies Clause,
        ],
  );

const sites = (n: number): Scope[] => Array.from({ length: n }, (_, i) => ({ businessUnit: 'Mining', site: `S${i}` }));

describe('combinedWalk', () => {
  it("walks all-by-due once for twenty sites' open actions by due time, not twenty sites sorted whole", () => {
    const walk = combinedWalk(
      parseListQuery('status=~1,2,5&sort=dueAt'),
      sites(20),
      Array(20).fill(86),
      clausesOf,
      sizes,
    );
    expect(walk?.read.index.name).toBe('all-by-due');
    expect(walk?.fetch).toBe(false);
  });

  it('walks the open statuses once for twenty sites newest first', () => {
    const walk = combinedWalk(parseListQuery('status=~1,2,5'), sites(20), Array(20).fill(86), clausesOf, sizes);
    expect(walk?.read.index.name).toBe('by-status');
  });

  it('reads a part a scope when the scopes hold few of the walk’s entries', () => {
    expect(
      combinedWalk(parseListQuery('status=~1,2,5&sort=dueAt'), sites(2), [3, 4], clausesOf, sizes),
    ).toBeUndefined();
  });

  it('never for one scope, for no match, or for a walk that fetches (an index without the scope’s fields)', () => {
    expect(combinedWalk(parseListQuery('status=~1,2,5'), sites(1), [800], clausesOf, sizes)).toBeUndefined();
    expect(
      combinedWalk(parseListQuery('status=~1,2,5'), sites(20), Array(20).fill(0), clausesOf, sizes),
    ).toBeUndefined();
    // Newest first with no filter walks all-by-created, which holds only keys.
    expect(combinedWalk(parseListQuery(''), sites(20), Array(20).fill(300), clausesOf, sizes)).toBeUndefined();
  });
});
