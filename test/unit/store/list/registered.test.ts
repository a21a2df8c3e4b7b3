import { describe, expect, it } from 'vitest';
import { fieldsByName } from '../../../../lib/filter/fields';
import { parseListQuery } from '../../../../lib/filter/query';
import { provenComplete } from '../../../../lib/store/list/count/registered';
import { byRegistry } from '../../../../lib/store/list/count/registry-counts';
import { valueHolds } from '../../../../lib/store/list/plan/expression';

describe('provenComplete: the registry is trusted only when its counts account for every action', () => {
  const counts = new Map([
    ['', 2],
    ['Cadia', 5],
    ['Gone', 0],
    ['Ridgeway', 3],
  ]);
  it("keeps the values some action has, in the registry's order, '' first", () => {
    expect(provenComplete(['', 'Cadia', 'Gone', 'Ridgeway'], counts, 10)).toEqual([
      { value: '', count: 2 },
      { value: 'Cadia', count: 5 },
      { value: 'Ridgeway', count: 3 },
    ]);
  });
  it('is undefined when an action has a value the registry lacks (the stream has not caught up)', () => {
    expect(provenComplete(['', 'Cadia', 'Gone', 'Ridgeway'], counts, 11)).toBeUndefined();
    expect(provenComplete(['', 'Cadia'], counts, 10)).toBeUndefined();
  });
});

describe('valueHolds: a clause on the sort field judged on one value, as the filter judges an action', () => {
  const site = fieldsByName.get('location.site') as NonNullable<ReturnType<typeof fieldsByName.get>>;
  const holds = (query: string, value: string) => valueHolds(parseListQuery(query).filters, site, value);
  it('compares exactly, in code point order, for <, > and =', () => {
    expect(holds('location.site=<Cadia', 'Bald Hill')).toBe(true);
    expect(holds('location.site=<Cadia', 'Cadia')).toBe(false);
    expect(holds('location.site=<Cadia', '')).toBe(true);
    expect(holds('location.site=>Cadia', 'cadia')).toBe(true);
    expect(holds('location.site=Cadia', 'Cadia')).toBe(true);
  });
  it('matches * case-insensitively, on the folded copy too', () => {
    expect(holds('location.site=*adi', 'CADIA')).toBe(true);
    expect(holds('location.site=*ADI', 'Cadia')).toBe(true);
    expect(holds('location.site=*xyz', 'Cadia')).toBe(false);
  });
  it('leaves clauses on other fields to the read', () => {
    expect(holds('status=1&location.site=~Cadia,Ridgeway', 'Ridgeway')).toBe(true);
  });
});

describe('byRegistry: the clauses the registered values count', () => {
  const clause = (query: string) => parseListQuery(query).filters[0] as Parameters<typeof byRegistry>[0];
  it('takes <, > and * on the counted string fields, nothing else', () => {
    for (const query of [
      'owner=<u-b',
      'assignee=>u-a',
      'location.site=*pit',
      'location.team=*a',
      'location.crew=>B',
      'actionProducer.name=<M',
    ])
      expect(byRegistry(clause(query)), query).toBe(true);
    for (const query of [
      'location.site=Cadia',
      'location.site=!Cadia',
      'location.team=~a,b',
      'title=*pit',
      'priority=>2',
    ])
      expect(byRegistry(clause(query)), query).toBe(false);
  });
});
