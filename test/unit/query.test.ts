import { describe, expect, it } from 'vitest';
import { type Problem, ValidationError } from '../../lib/errors';
import { type FieldSpec, fields, fieldsByName } from '../../lib/filter/fields';
import {
  type Clause,
  distinctClauses,
  parseClause,
  parseListQuery,
  queryLimits,
  splitList,
  splitQueryString,
} from '../../lib/filter/query';

const stringFields = fields.filter((f) => f.type === 'string').map((f) => f.name);
const integerFields = ['priority', 'status'];
const dateFields = ['dueAt', 'createdAt', 'updatedAt'];

const field = (name: string): FieldSpec => {
  const spec = fieldsByName.get(name);
  if (!spec) throw new Error(`no field ${name}`);
  return spec;
};

/** The only clause of a query string. */
function clauseOf(query: string): Clause {
  const { filters } = parseListQuery(query);
  expect(filters).toHaveLength(1);
  return filters[0] as Clause;
}

/** The problems a refused query string is refused with; fails unless it is a ValidationError. */
function problemsOf(query: string): Problem[] {
  try {
    parseListQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    expect(e.status).toBe(400);
    expect(e.errors?.length).toBeGreaterThan(0);
    return e.errors ?? [];
  }
  throw new Error(`'${query}' was accepted`);
}

/** The parameters a refused query string's problems name. */
const namedBy = (query: string) => problemsOf(query).map((p) => p.parameter);

describe('splitQueryString', () => {
  it('keeps every pair in order, repeats included', () => {
    expect(splitQueryString('a=1&b=2&a=3')).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['a', '3'],
    ]);
  });

  it('splits at the first = only, so == reaches the value', () => {
    expect(splitQueryString('title==!urgent')).toEqual([['title', '=!urgent']]);
  });

  it('decodes + as a space and %2B as a plus, as a form does', () => {
    expect(splitQueryString('title=a+b%2Bc')).toEqual([['title', 'a b+c']]);
  });

  it('decodes escapes in names and values', () => {
    expect(splitQueryString('location%2Esite=%26%3D%25%E2%9C%93')).toEqual([['location.site', '&=%✓']]);
  });

  it('skips empty parts and reads a bare name as an empty value', () => {
    expect(splitQueryString('&&title&limit=&')).toEqual([
      ['title', ''],
      ['limit', ''],
    ]);
    expect(splitQueryString('')).toEqual([]);
  });

  it.each([
    ['title=%E0%A4%A', 'title'],
    ['title=%', 'title'],
    ['title=%zz', 'title'],
    ['title=%ED%A0%80', 'title'],
    ['%zz=1', '%zz'],
  ])('refuses malformed percent-encoding in %s, naming %s', (query, parameter) => {
    expect(() => splitQueryString(query)).toThrow(ValidationError);
    expect(namedBy(query)).toEqual([parameter]);
  });
});

describe('splitList', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a', ['a']],
    ['', ['']],
    [',', ['', '']],
    ['a,,b', ['a', '', 'b']],
    ['a\\,b,c', ['a,b', 'c']],
    ['a\\\\,b', ['a\\', 'b']],
    ['a\\\\\\,b', ['a\\,b']],
    ['a\\b', ['a\\b']],
    ['a\\', ['a\\']],
    ['\\,', [',']],
    ['\\\\', ['\\']],
  ])('%s is %j', (text, values) => {
    expect(splitList(text)).toEqual(values);
  });
});

describe('operators', () => {
  it('no operator means equal', () => {
    expect(clauseOf('location.site=North%20Pit')).toMatchObject({ op: '=', values: ['North Pit'] });
  });

  it('== is an explicit equal, so a value may start with an operator character', () => {
    expect(clauseOf('title==!urgent')).toMatchObject({ op: '=', values: ['!urgent'] });
    for (const op of ['=', '!', '*', '<', '>', '~']) {
      expect(clauseOf(`owner==${encodeURIComponent(op)}x,y`)).toMatchObject({ op: '=', values: [`${op}x,y`] });
    }
    expect(clauseOf('title==')).toMatchObject({ op: '=', values: [''] });
  });

  it('only the first character is an operator', () => {
    expect(clauseOf('owner=!=x')).toMatchObject({ op: '!', values: ['=x'] });
    expect(clauseOf('owner=<>x')).toMatchObject({ op: '<', values: ['>x'] });
    expect(clauseOf('owner=*~x')).toMatchObject({ op: '*', values: ['~x'] });
  });

  it('an empty value is an equal to the empty string', () => {
    expect(clauseOf('location.site=')).toMatchObject({ op: '=', values: [''] });
    expect(clauseOf('location.site')).toMatchObject({ op: '=', values: [''] });
  });
});

describe('title (text): case-insensitive under every operator', () => {
  it.each([
    ['Pump', '=', ['pump']],
    ['=PUMP', '=', ['pump']],
    ['!Pump', '!', ['pump']],
    ['*PuMp', '*', ['pump']],
    ['<Pump', '<', ['pump']],
    ['>Pump', '>', ['pump']],
    ['~Pump,BELT,%C3%84rger', '~', ['pump', 'belt', 'ärger']],
  ])('title=%s', (value, op, values) => {
    const clause = clauseOf(`title=${value}`);
    expect(clause).toMatchObject({ type: 'text', op, values });
    expect(clause.field.name).toBe('title');
  });

  it('refuses an empty * search, naming title', () => {
    expect(namedBy('title=*')).toEqual(['title']);
  });
});

describe.each(stringFields)('%s (string)', (name) => {
  it('compares exactly under = ! < > ~', () => {
    expect(clauseOf(`${name}=Ab`)).toMatchObject({ type: 'string', op: '=', values: ['Ab'] });
    expect(clauseOf(`${name}=!Ab`)).toMatchObject({ type: 'string', op: '!', values: ['Ab'] });
    expect(clauseOf(`${name}=<Ab`)).toMatchObject({ type: 'string', op: '<', values: ['Ab'] });
    expect(clauseOf(`${name}=>Ab`)).toMatchObject({ type: 'string', op: '>', values: ['Ab'] });
    expect(clauseOf(`${name}=~Ab,cD`)).toMatchObject({ type: 'string', op: '~', values: ['Ab', 'cD'] });
    expect(clauseOf(`${name}==Ab`)).toMatchObject({ type: 'string', op: '=', values: ['Ab'] });
  });

  it('* searches case-insensitively, so its value is lower-cased', () => {
    expect(clauseOf(`${name}=*AbC`)).toMatchObject({ type: 'string', op: '*', values: ['abc'] });
  });

  it('refuses an empty * search', () => {
    expect(namedBy(`${name}=*`)).toEqual([name]);
  });

  it('keeps a value that looks like a number or a date as text', () => {
    expect(clauseOf(`${name}=007`)).toMatchObject({ values: ['007'] });
    expect(clauseOf(`${name}=2026-12-01`)).toMatchObject({ values: ['2026-12-01'] });
  });
});

it('assignee=undefined asks for unassigned actions', () => {
  expect(clauseOf('assignee=undefined')).toMatchObject({ type: 'string', op: '=', values: ['undefined'] });
  expect(clauseOf('assignee=undefined').field.name).toBe('assignee');
});

describe.each(integerFields)('%s (integer)', (name) => {
  it.each([
    ['2', '=', [2]],
    ['=2', '=', [2]],
    ['!2', '!', [2]],
    ['<10', '<', [10]],
    ['>0', '>', [0]],
    ['~1,2,10', '~', [1, 2, 10]],
    ['007', '=', [7]],
    ['999999999999999', '=', [999999999999999]],
  ])(`${name}=%s`, (value, op, values) => {
    expect(clauseOf(`${name}=${value}`)).toMatchObject({ type: 'integer', op, values });
  });

  it('refuses * (like), naming the parameter', () => {
    expect(namedBy(`${name}=*1`)).toEqual([name]);
    expect(namedBy(`${name}=*`)).toEqual([name]);
  });

  it.each([
    '',
    '=',
    'x',
    '-1',
    '<-1',
    '1.5',
    '1.0',
    '1e3',
    '0x10',
    '+1',
    '%2B1',
    '%201',
    '1%20',
    '٣',
    '1_000',
    'Infinity',
    'NaN',
    '9999999999999999',
    '~1,,2',
    '~1,x',
    '~',
  ])(`refuses ${name}=%s, naming ${name}`, (value) => {
    expect(namedBy(`${name}=${value}`)).toEqual([name]);
  });
});

describe.each(dateFields)('%s (date)', (name) => {
  const instant = (at: string) => ({ kind: 'instant', at });
  const day = (prefix: string, start: string, end: string) => ({ kind: 'day', prefix, start, end });
  const dec1 = day('2026-12-01', '2026-12-01T00:00:00.000Z', '2026-12-02T00:00:00.000Z');

  it.each([
    ['2026-12-01T10:00:00Z', '=', [instant('2026-12-01T10:00:00.000Z')]],
    ['=2026-12-01T10:00:00Z', '=', [instant('2026-12-01T10:00:00.000Z')]],
    ['!2026-12-01T10:00:00Z', '!', [instant('2026-12-01T10:00:00.000Z')]],
    ['<2026-12-01T10:00:00Z', '<', [instant('2026-12-01T10:00:00.000Z')]],
    ['>2026-12-01T10:00:00Z', '>', [instant('2026-12-01T10:00:00.000Z')]],
    ['2026-12-01T12:00:00%2B02:00', '=', [instant('2026-12-01T10:00:00.000Z')]],
    ['2026-12-01T05:00:00-05:00', '=', [instant('2026-12-01T10:00:00.000Z')]],
    ['2026-12-01T10:00:00.123456Z', '=', [instant('2026-12-01T10:00:00.123Z')]],
    ['2026-12-01', '=', [dec1]],
    ['!2026-12-01', '!', [dec1]],
    ['<2026-12-01', '<', [dec1]],
    ['>2026-12-01', '>', [dec1]],
    ['~2026-12-01,2026-12-05T08:00:00%2B01:00', '~', [dec1, instant('2026-12-05T07:00:00.000Z')]],
  ])(`${name}=%s`, (value, op, values) => {
    expect(clauseOf(`${name}=${value}`)).toMatchObject({ type: 'date', op, values });
  });

  it('refuses * (like), naming the parameter', () => {
    expect(namedBy(`${name}=*2026`)).toEqual([name]);
  });

  it.each([
    ['no offset', '2026-12-01T10:00:00'],
    ['an unencoded + (a space once decoded)', '2026-12-01T10:00:00+01:00'],
    ['February 30', '2026-02-30'],
    ['February 30 with a time', '2026-02-30T10:00:00Z'],
    ['month 13', '2026-13-01'],
    ['month 13 with a time', '2026-13-01T10:00:00Z'],
    ['hour 25', '2026-12-01T25:00:00Z'],
    ['an empty value', ''],
    ['text', 'today'],
    ['a year and month', '2026-12'],
    ['a bad item in a list', '~2026-12-01,soon'],
    ['an empty item in a list', '~2026-12-01,'],
  ])(`refuses %s, naming ${name}`, (_, value) => {
    expect(namedBy(`${name}=${value}`)).toEqual([name]);
  });
});

describe('~ lists', () => {
  it('reads \\, as a comma and \\\\ as a backslash', () => {
    expect(clauseOf(`location.team=~${encodeURIComponent('A\\,B,C\\\\,D')}`)).toMatchObject({
      op: '~',
      values: ['A,B', 'C\\', 'D'],
    });
  });

  it('splits on a percent-encoded comma too: only \\, is a literal comma', () => {
    expect(clauseOf('status=~1%2C2')).toMatchObject({ op: '~', values: [1, 2] });
    expect(clauseOf('title=~a%5C%2Cb')).toMatchObject({ op: '~', values: ['a,b'] });
  });

  it('takes 100 values and refuses 101, naming the parameter', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(',');
    expect(clauseOf(`status=~${values(100)}`).values).toHaveLength(100);
    expect(clauseOf(`owner=~${values(100)}`).values).toHaveLength(100);
    expect(namedBy(`status=~${values(101)}`)).toEqual(['status']);
    expect(namedBy(`owner=~${values(101)}`)).toEqual(['owner']);
  });

  it('takes 100 long values: the length limit is per value, not per list', () => {
    const ids = Array.from({ length: 100 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(clauseOf(`owner=~${ids.join(',')}`).values).toEqual(ids);
    const days = Array.from({ length: 100 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    expect(clauseOf(`dueAt=~${days.join(',')}`).values).toHaveLength(100);
  });

  it('counts escaped commas as part of a value, not as separators', () => {
    const values = Array.from({ length: 100 }, () => 'a\\,b').join(',');
    expect(clauseOf(`title=~${encodeURIComponent(values)}`).values).toHaveLength(100);
  });
});

describe('value length', () => {
  it(`takes a value of ${queryLimits.maxValueLength} characters and refuses a longer one`, () => {
    const ok = 'x'.repeat(queryLimits.maxValueLength);
    expect(clauseOf(`title=${ok}`).values).toEqual([ok]);
    expect(namedBy(`title=${ok}x`)).toEqual(['title']);
    expect(namedBy(`location.site=~a,${ok}x`)).toEqual(['location.site']);
  });
});

describe('parseListQuery', () => {
  it('defaults to no filters, no sort, skip 0 and limit 10', () => {
    expect(parseListQuery('')).toEqual({ filters: [], sort: undefined, skip: 0, limit: 10, terms: [] });
  });

  it('keeps repeated filters, which combine with AND', () => {
    const { filters } = parseListQuery('dueAt=>2026-01-01&dueAt=<2026-02-01&title=a&title=b');
    expect(filters.map((f) => [f.field.name, f.op])).toEqual([
      ['dueAt', '>'],
      ['dueAt', '<'],
      ['title', '='],
      ['title', '='],
    ]);
  });

  it('knows every filterable field of the seed, and no others', () => {
    expect(fields.map((f) => f.name).sort()).toEqual(
      [
        'title',
        'status',
        'priority',
        'dueAt',
        'assignee',
        'owner',
        'actionProducer.name',
        'actionProducer.reference',
        'location.businessUnit',
        'location.site',
        'location.department',
        'location.workGroup',
        'location.productiveUnit',
        'location.team',
        'location.crew',
        'createdAt',
        'updatedAt',
        // contract section 17: service-set, null while open
        'closedAt',
        // contract section 10: a filter only, not a sort
        'overdue',
      ].sort(),
    );
    for (const f of fields) expect(field(f.name)).toBe(f);
  });

  it.each([
    'colour',
    'Title',
    'TITLE',
    'title ',
    'location',
    'location.',
    'location.unknown',
    'actionProducer',
    'actionProducer.url',
    'description',
    'id',
    'tags',
    'initiator',
    'endorsedBy',
    '__proto__',
    'constructor',
    'Skip',
    '',
  ])('refuses the unknown parameter %j, naming it', (name) => {
    expect(namedBy(`${encodeURIComponent(name)}=x`)).toEqual([name]);
  });

  it('cuts a long unknown name short in the error', () => {
    const [problem] = problemsOf(`${'q'.repeat(5000)}=1`);
    expect(problem?.parameter?.length).toBeLessThanOrEqual(101);
  });

  it('reports every problem at once', () => {
    expect(namedBy('colour=red&limit=x&priority=*1&dueAt=2026-02-30&sort=nope')).toEqual([
      'colour',
      'priority',
      'dueAt',
      'limit',
      'sort',
    ]);
  });

  it(`takes ${queryLimits.maxFilters} filters and refuses more, naming the query, counting each as sent`, () => {
    const query = (n: number) => Array.from({ length: n }, (_, i) => `status=>${i % 2}`).join('&');
    expect(parseListQuery(query(queryLimits.maxFilters)).filters).toHaveLength(2);
    expect(namedBy(query(queryLimits.maxFilters + 1))).toEqual(['query']);
  });

  it('keeps a clause sent twice once (the counters see the shape), but not two that differ', () => {
    expect(parseListQuery('overdue=false&overdue=false').filters).toHaveLength(1);
    expect(parseListQuery('status=1&status=1&status=~1,2').filters.map((c) => c.op)).toEqual(['=', '~']);
    expect(parseListQuery('owner=me&owner=u-1', 'u-1').filters).toHaveLength(1);
    expect(parseListQuery('dueAt=>2025-01-01&dueAt=>2025-01-02').filters).toHaveLength(2);
    // Clauses put together by the service (a counts group's value beside the request's filter) alike.
    const [status, overdue] = parseListQuery('status=1&overdue=true').filters;
    expect(distinctClauses([status, overdue, status, overdue].filter((c) => c !== undefined))).toEqual([
      status,
      overdue,
    ]);
    // The cursor stays bound to the terms as sent.
    expect(parseListQuery('status=1&status=1').terms).toEqual([
      ['status', '1'],
      ['status', '1'],
    ]);
  });

  it('throws nothing but ValidationError for junk', () => {
    for (const junk of ['=', '==', '&=&', '%', '?', '#', 'title=%00', 'sort=%00', '\u0000=\u0000', 'a=b=c']) {
      try {
        parseListQuery(junk);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
      }
    }
  });
});

describe('limit', () => {
  it.each([
    ['limit=0', 0],
    ['limit=1', 1],
    ['limit=100', 100],
    ['limit=007', 7],
    ['', 10],
  ])('%s is %i', (query, limit) => {
    expect(parseListQuery(query).limit).toBe(limit);
  });

  it.each([
    'limit=101',
    'limit=-1',
    'limit=1.5',
    'limit=1e1',
    'limit=%2B5',
    'limit=+5',
    'limit=%205',
    'limit=ten',
    'limit=',
    'limit',
    'limit=0x10',
    'limit=99999999999999999999999',
    'limit=1&limit=2',
    'limit=1&limit=1',
    'limit=~1,2',
    'limit=%3E5',
  ])('refuses %s, naming limit', (query) => {
    expect(namedBy(query)).toEqual(['limit']);
  });

  it('says an empty one must not be empty', () => {
    expect(problemsOf('limit=')[0]?.message).toMatch(/empty/);
  });
});

describe('skip', () => {
  it.each([
    ['skip=0', 0],
    ['skip=25', 25],
    ['skip=9990', 9990],
    ['skip=9900&limit=100', 9900],
    ['skip=10000&limit=0', 10000],
    ['', 0],
  ])('%s is %i', (query, skip) => {
    expect(parseListQuery(query).skip).toBe(skip);
  });

  it.each([
    'skip=-1',
    'skip=1.5',
    'skip=%2B1',
    'skip=',
    'skip',
    'skip=x',
    'skip=1&skip=2',
    'skip=9991',
    'skip=9901&limit=100',
    'skip=10001&limit=0',
    'skip=99999999999999999999999',
  ])('refuses %s, naming skip', (query) => {
    expect(namedBy(query)).toEqual(['skip']);
  });

  it('refuses a window past 10,000 with a hint to narrow the filter', () => {
    expect(problemsOf('skip=9950&limit=100')[0]?.message).toMatch(/10000.*narrow/);
  });
});

describe('sort', () => {
  it.each(fields.filter((f) => f.type !== 'boolean').map((f) => f.name))(
    'sorts by %s, ascending or with - descending',
    (name) => {
      expect(parseListQuery(`sort=${name}`).sort).toEqual({ field: field(name), descending: false });
      expect(parseListQuery(`sort=-${name}`).sort).toEqual({ field: field(name), descending: true });
    },
  );

  it.each([
    'sort=',
    'sort',
    'sort=-',
    'sort=--title',
    'sort=%2Btitle',
    'sort=+title',
    'sort=Title',
    'sort=colour',
    'sort=skip',
    'sort=description',
    'sort=location',
    'sort=title,dueAt',
    'sort=title&sort=dueAt',
    'sort=title&sort=title',
    'sort=title%20',
  ])('refuses %s, naming sort', (query) => {
    expect(namedBy(query)).toEqual(['sort']);
  });

  it('says an empty one must not be empty', () => {
    expect(problemsOf('sort=')[0]?.message).toMatch(/empty/);
  });
});

describe('parseClause', () => {
  it('names its own field in every error', () => {
    for (const spec of fields) {
      for (const raw of ['*', '~', '<', 'x'.repeat(queryLimits.maxValueLength + 1)]) {
        try {
          parseClause(spec, raw);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).errors?.map((p) => p.parameter)).toEqual([spec.name]);
        }
      }
    }
  });

  it('takes overdue=true|false with = only, and never as a sort', () => {
    const overdue = field('overdue');
    expect(parseClause(overdue, 'true')).toEqual({ field: overdue, type: 'boolean', op: '=', values: [true] });
    expect(parseClause(overdue, '=false')).toEqual({ field: overdue, type: 'boolean', op: '=', values: [false] });
    for (const bad of ['', 'yes', 'TRUE', '!true', '~true,false', '<true', '*t'])
      expect(() => parseClause(overdue, bad)).toThrow(ValidationError);
    expect(() => parseListQuery('sort=overdue')).toThrow(ValidationError);
    expect(() => parseListQuery('sort=-overdue')).toThrow(ValidationError);
  });

  it('refuses * on exactly the numbers, dates and flags', () => {
    for (const spec of fields) {
      const refused = (() => {
        try {
          parseClause(spec, '*1');
          return false;
        } catch {
          return true;
        }
      })();
      expect([spec.name, refused]).toEqual([
        spec.name,
        spec.type === 'integer' || spec.type === 'date' || spec.type === 'boolean',
      ]);
    }
  });
});
