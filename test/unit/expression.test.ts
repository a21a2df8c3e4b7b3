import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/errors';
import { type FieldSpec, fields, fieldsByName } from '../../lib/filter/fields';
import { type Clause, parseClause, parseListQuery } from '../../lib/filter/query';
import { storedField } from '../../lib/store/fields';
import {
  clauseExpression,
  clauseHolds,
  expressionLimits,
  filterExpression,
  Placeholders,
} from '../../lib/store/list/plan/expression';

const field = (name: string) => fieldsByName.get(name) as FieldSpec;

/** One clause's expression, with the placeholder maps resolved back for reading. */
function expressionOf(name: string, raw: string) {
  const p = new Placeholders();
  const expression = clauseExpression(parseClause(field(name), raw), p);
  return { expression, names: p.names, values: p.values, operators: p.operators };
}

/** What DynamoDB counts as operators and functions in an expression string. */
const countOperators = (expression: string) =>
  (expression.match(/\b(AND|OR|NOT|IN|BETWEEN|begins_with|contains)\b|<>|<=|>=|[<>=]/g) ?? []).length;

/** An expression made only of placeholders, keywords and punctuation: no client text at all. */
const PLACEHOLDERS_ONLY = /^(?:#n\d+|:v\d+|AND|OR|NOT|IN|begins_with|contains|<>|>=|[()<>=,.\s])*$/;

describe('clause expressions', () => {
  it('= on title compares the lower-case title', () => {
    expect(expressionOf('title', 'Pump')).toEqual({
      expression: '#n0.#n1 = :v0',
      names: { '#n0': 'f', '#n1': 'ti' },
      values: { ':v0': 'pump' },
      operators: 1,
    });
  });

  it.each([
    ['!', '<>'],
    ['<', '<'],
    ['>', '>'],
  ])('%s on a string is %s on the exact value', (op, comparator) => {
    expect(expressionOf('location.site', `${op}North Pit`)).toEqual({
      expression: `#n0.#n1 ${comparator} :v0`,
      names: { '#n0': 'f', '#n1': 'ls' },
      values: { ':v0': 'North Pit' },
      operators: 1,
    });
  });

  it('~ is IN', () => {
    expect(expressionOf('owner', '~a,B')).toEqual({
      expression: '#n0.#n1 IN (:v0, :v1)',
      names: { '#n0': 'f', '#n1': 'ow' },
      values: { ':v0': 'a', ':v1': 'B' },
      operators: 1,
    });
  });

  it('~ with an empty value matches it with = (the embedded store skips empty strings in IN)', () => {
    expect(expressionOf('location.site', '~,North Pit')).toMatchObject({
      expression: '(#n0.#n1 IN (:v1) OR #n0.#n1 = :v0)',
      values: { ':v0': '', ':v1': 'North Pit' },
      operators: 3,
    });
    expect(expressionOf('location.site', '~')).toMatchObject({ expression: '#n0.#n1 = :v0', values: { ':v0': '' } });
  });

  it('* on a string field searches the lower-case copy OR the original, with a lower-case needle', () => {
    expect(expressionOf('location.site', '*NORTH')).toEqual({
      expression: '(contains(#n0.#n2, :v0) OR contains(#n0.#n1, :v0))',
      names: { '#n0': 'f', '#n1': 'ls', '#n2': 'lsl' },
      values: { ':v0': 'north' },
      operators: 3,
    });
  });

  it.each(fields.filter((f) => f.type === 'string').map((f) => f.name))(
    '* on %s uses its own lower-case copy',
    (name) => {
      const { names } = expressionOf(name, '*x');
      const spec = field(name);
      const { attribute, lowerAttribute } = storedField(spec);
      expect(Object.values(names)).toEqual(['f', attribute.split('.')[1], lowerAttribute?.split('.')[1]]);
      expect(lowerAttribute).toBe(`${attribute}l`);
    },
  );

  it('* on title needs no copy: the title is stored lower-cased', () => {
    expect(expressionOf('title', '*PUMP')).toEqual({
      expression: 'contains(#n0.#n1, :v0)',
      names: { '#n0': 'f', '#n1': 'ti' },
      values: { ':v0': 'pump' },
      operators: 1,
    });
  });

  it('integers compare as numbers', () => {
    expect(expressionOf('priority', '>9')).toMatchObject({ expression: '#n0.#n1 > :v0', values: { ':v0': 9 } });
    expect(expressionOf('status', '~1,10')).toMatchObject({
      expression: '#n0.#n1 IN (:v0, :v1)',
      values: { ':v0': 1, ':v1': 10 },
    });
  });

  describe('dates', () => {
    it('= a day is begins_with the day', () => {
      expect(expressionOf('dueAt', '2026-12-01')).toEqual({
        expression: 'begins_with(#n0.#n1, :v0)',
        names: { '#n0': 'f', '#n1': 'du' },
        values: { ':v0': '2026-12-01' },
        operators: 1,
      });
    });

    it('! a day is NOT begins_with the day', () => {
      expect(expressionOf('createdAt', '!2026-12-01')).toMatchObject({
        expression: 'NOT begins_with(#n0.#n1, :v0)',
        names: { '#n1': 'ca' },
        values: { ':v0': '2026-12-01' },
        operators: 2,
      });
    });

    it('< a day is before it starts; > a day is from the moment it ends', () => {
      expect(expressionOf('updatedAt', '<2026-12-01')).toMatchObject({
        expression: '#n0.#n1 < :v0',
        names: { '#n1': 'ua' },
        values: { ':v0': '2026-12-01T00:00:00.000Z' },
      });
      expect(expressionOf('dueAt', '>2026-12-01')).toMatchObject({
        expression: '#n0.#n1 >= :v0',
        values: { ':v0': '2026-12-02T00:00:00.000Z' },
      });
    });

    it('instants compare as canonical UTC strings', () => {
      const at = '2026-12-01T10:00:00.000Z';
      expect(expressionOf('dueAt', '2026-12-01T11:00:00+01:00')).toMatchObject({
        expression: '#n0.#n1 = :v0',
        values: { ':v0': at },
      });
      expect(expressionOf('dueAt', '!2026-12-01T10:00:00Z')).toMatchObject({
        expression: 'NOT #n0.#n1 = :v0',
        values: { ':v0': at },
        operators: 2,
      });
      expect(expressionOf('dueAt', '<2026-12-01T10:00:00Z')).toMatchObject({ expression: '#n0.#n1 < :v0' });
      expect(expressionOf('dueAt', '>2026-12-01T10:00:00Z')).toMatchObject({ expression: '#n0.#n1 > :v0' });
    });

    it('~ ORs the days and puts the instants in one IN', () => {
      expect(expressionOf('dueAt', '~2026-12-01,2026-12-05T10:00:00Z,2026-12-03,2026-12-06T00:00:00Z')).toEqual({
        expression: '(begins_with(#n0.#n1, :v0) OR begins_with(#n0.#n1, :v1) OR #n0.#n1 IN (:v2, :v3))',
        names: { '#n0': 'f', '#n1': 'du' },
        values: {
          ':v0': '2026-12-01',
          ':v1': '2026-12-03',
          ':v2': '2026-12-05T10:00:00.000Z',
          ':v3': '2026-12-06T00:00:00.000Z',
        },
        operators: 5,
      });
      expect(expressionOf('dueAt', '~2026-12-01').expression).toBe('begins_with(#n0.#n1, :v0)');
      expect(expressionOf('dueAt', '~2026-12-01T00:00:00Z').expression).toBe('#n0.#n1 IN (:v0)');
    });
  });
});

describe('filterExpression', () => {
  const clauses = (query: string) => parseListQuery(query).filters;

  it('is undefined without clauses', () => {
    expect(filterExpression([], new Placeholders())).toBeUndefined();
  });

  it('ANDs the clauses, sharing one placeholder per attribute name segment', () => {
    const p = new Placeholders();
    expect(filterExpression(clauses('title=a&title=!b&location.site=*C'), p)).toBe(
      '#n0.#n1 = :v0 AND #n0.#n1 <> :v1 AND (contains(#n0.#n3, :v2) OR contains(#n0.#n2, :v2))',
    );
    expect(p.names).toEqual({ '#n0': 'f', '#n1': 'ti', '#n2': 'ls', '#n3': 'lsl' });
    expect(p.operators).toBe(2 + 1 + 1 + 3);
  });

  it('counts operators as DynamoDB does', () => {
    const query = 'title=*a&status=~1,2&dueAt=!2026-12-01&dueAt=~2026-12-01,2026-12-02T00:00:00Z&owner=!x&priority=>1';
    const p = new Placeholders();
    const expression = filterExpression(clauses(query), p) as string;
    expect(p.operators).toBe(countOperators(expression));
  });

  it('never puts client text into the expression, whatever the value', () => {
    const hostile = [') OR attribute_exists(#n0', ':v0', '#n0', 'f.ti', 'AND', 'IN (', '\u0000', "' OR '1'='1"];
    const reference = filterExpression(clauses('title=x&owner=*x&location.site=~x,y'), new Placeholders());
    for (const text of hostile) {
      const v = encodeURIComponent(text.replace(/[\\,]/g, '\\$&'));
      const p = new Placeholders();
      const expression = filterExpression(clauses(`title=${v}&owner=*${v}&location.site=~${v},y`), p);
      expect(expression).toBe(reference);
      expect(expression).toMatch(PLACEHOLDERS_ONLY);
      expect(Object.values(p.values)).toContain(text.toLowerCase());
    }
  });

  it('takes an IN of 100 operands and refuses 101, naming the query', () => {
    const ok = parseClause(field('status'), `~${Array.from({ length: 100 }, (_, i) => i).join(',')}`);
    expect(filterExpression([ok], new Placeholders())).toMatch(/IN \((:v\d+, ){99}:v99\)/);
    const tooMany = { ...ok, values: Array.from({ length: 101 }, (_, i) => i) } as Clause;
    expect(() => filterExpression([tooMany], new Placeholders())).toThrow(ValidationError);
    try {
      filterExpression([tooMany], new Placeholders());
    } catch (error) {
      expect((error as ValidationError).errors).toEqual([{ parameter: 'query', message: expect.any(String) }]);
    }
    const instants = Array.from({ length: 101 }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
    const dateClause = parseClause(field('dueAt'), `~${instants.slice(0, 100).join(',')}`);
    const tooManyDates = {
      ...dateClause,
      values: [...dateClause.values, ...dateClause.values.slice(0, 1)],
    } as Clause;
    expect(() => filterExpression([tooManyDates], new Placeholders())).toThrow(ValidationError);
  });

  it(`takes ${expressionLimits.maxOperators} operators and refuses one more, naming the query`, () => {
    // n comparisons joined by n - 1 ANDs: 2n - 1 operators, in well under 4 KB.
    const equal = (n: number) => Array.from({ length: n }, (_, i) => parseClause(field('priority'), String(i)));
    const p = new Placeholders();
    const expression = filterExpression(equal(150), p) as string;
    expect(p.operators).toBe(299);
    expect(countOperators(expression)).toBe(299);
    expect(expression.length).toBeLessThan(expressionLimits.maxLength);
    // 151 comparisons and 150 ANDs: 301.
    const oneTooMany = equal(151);
    expect(countOperators(filterExpression(equal(150), new Placeholders()) as string) + 2).toBe(301);
    expect(() => filterExpression(oneTooMany, new Placeholders())).toThrow(ValidationError);
    try {
      filterExpression(oneTooMany, new Placeholders());
    } catch (error) {
      expect((error as ValidationError).errors?.[0]?.parameter).toBe('query');
    }
  });

  it(`refuses an expression longer than ${expressionLimits.maxLength} characters, naming the query`, () => {
    const list = parseClause(field('owner'), `~${Array.from({ length: 100 }, (_, i) => `u${i}`).join(',')}`);
    let accepted = 0;
    for (let n = 1; n <= 10; n++) {
      const p = new Placeholders();
      try {
        const expression = filterExpression(
          Array.from({ length: n }, () => list),
          p,
        ) as string;
        expect(expression.length).toBeLessThanOrEqual(expressionLimits.maxLength);
        expect(p.operators).toBeLessThanOrEqual(expressionLimits.maxOperators);
        accepted = n;
      } catch (error) {
        expect((error as ValidationError).errors?.[0]?.parameter).toBe('query');
      }
    }
    // 100-operand IN lists are ~700 characters each: a handful fit, ten do not.
    expect(accepted).toBeGreaterThanOrEqual(4);
    expect(accepted).toBeLessThan(10);
  });

  it('refuses the longest list of days once it has company', () => {
    const days = Array.from({ length: 100 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    const p = new Placeholders();
    const one = filterExpression(clauses(`dueAt=~${days.join(',')}`), p) as string;
    expect(one.length).toBeLessThanOrEqual(expressionLimits.maxLength);
    expect(p.operators).toBe(199);
    const two = clauses(`dueAt=~${days.join(',')}&createdAt=~${days.join(',')}`);
    expect(() => filterExpression(two, new Placeholders())).toThrow(ValidationError);
  });
});

describe('clauseHolds: a clause evaluated in memory, as DynamoDB evaluates its expression', () => {
  // A stored action's filter map, as `toItem` writes it (lower-case copies only where case differs).
  const item = {
    f: {
      ti: 'replace worn belt',
      st: 2,
      pr: 10,
      ls: 'North Pit',
      lsl: 'north pit',
      lc: '',
      du: '2026-03-04T05:06:07.000Z',
      od: 1,
    },
  };
  const holds = (name: string, raw: string) => clauseHolds(parseClause(field(name), raw), item);

  it('compares numbers as numbers and strings by code point', () => {
    expect([holds('status', '2'), holds('status', '!2'), holds('status', '<3'), holds('status', '>2')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect([holds('priority', '>9'), holds('priority', '~1,10')]).toEqual([true, true]);
    expect([
      holds('location.site', 'North Pit'),
      holds('location.site', '<North Q'),
      holds('location.site', '>N'),
    ]).toEqual([true, true, true]);
  });

  it('matches * case-insensitively through the lower-case copy, and titles by their folded value', () => {
    expect([
      holds('location.site', '*PIT'),
      holds('location.site', '*rth P'),
      holds('location.site', '*south'),
    ]).toEqual([true, true, false]);
    expect([holds('title', '*WORN'), holds('title', 'Replace Worn Belt'), holds('title', '>replace')]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('treats an empty value as a value, and a day as the whole UTC day', () => {
    expect([holds('location.crew', '~A,'), holds('location.crew', '!A'), holds('location.crew', 'A')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([holds('dueAt', '2026-03-04'), holds('dueAt', '!2026-03-04'), holds('dueAt', '<2026-03-04')]).toEqual([
      true,
      false,
      false,
    ]);
    expect([
      holds('dueAt', '>2026-03-03'),
      holds('dueAt', '~2026-01-01,2026-03-04'),
      holds('dueAt', '>2026-03-04'),
    ]).toEqual([true, true, false]);
  });

  it('reads a flag by its presence', () => {
    expect([holds('overdue', 'true'), holds('overdue', 'false')]).toEqual([true, false]);
    expect(clauseHolds(parseClause(field('overdue'), 'false'), { f: {} })).toBe(true);
  });
});
