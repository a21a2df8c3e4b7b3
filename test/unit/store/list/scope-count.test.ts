import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../../lib/filter/query';
import { deepened } from '../../../../lib/store/list/count/scope-count';

const clauses = (query: string) => parseListQuery(query).filters;
const names = (query: string, scope: Parameters<typeof deepened>[0]) => {
  const { scopes, others } = deepened(scope, clauses(query));
  return { scopes, others: others.map((c) => `${c.field.name}${c.op}${c.values.join(',')}`) };
};

describe('deepened: a scope made deeper by the clauses right below it', () => {
  const site = { businessUnit: 'Iron', site: 'North Pit' };

  it('a site scope and one department is the prefix three fields deep, the clause taken out', () => {
    expect(names('location.department=Lab&status=1', site)).toEqual({
      scopes: [{ ...site, department: 'Lab' }],
      others: ['status=1'],
    });
  });

  it('a set of departments is one prefix each, and an empty department is a prefix too', () => {
    expect(names('location.department=~Lab,,Lab', site).scopes).toEqual([
      { ...site, department: 'Lab' },
      { ...site, department: '' },
    ]);
  });

  it('a business unit goes down two fields, and no further than the deepest prefix counter', () => {
    expect(
      names('location.site=East&location.department=Lab&location.workGroup=Drill', { businessUnit: 'Iron' }),
    ).toEqual({
      scopes: [{ businessUnit: 'Iron', site: 'East', department: 'Lab' }],
      others: ['location.workGroup=Drill'],
    });
  });

  it('stops at a field with no equality (a skipped field, another operator, two clauses on it)', () => {
    for (const query of [
      'location.workGroup=Drill',
      'location.department=!Lab',
      'location.department=*La',
      'location.department=~Lab,Pit&location.department=Lab',
    ])
      expect(names(query, site).scopes, query).toEqual([site]);
  });

  it('never splits a scope into more than 100 prefixes', () => {
    const many = Array.from({ length: 11 }, (_, i) => `S${i}`).join(',');
    const deps = Array.from({ length: 10 }, (_, i) => `D${i}`).join(',');
    const { scopes, others } = deepened(
      { businessUnit: 'Iron' },
      clauses(`location.site=~${many}&location.department=~${deps}`),
    );
    expect(scopes).toHaveLength(11);
    expect(others).toHaveLength(1);
  });
});
