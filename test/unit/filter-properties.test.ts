import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextMillisecond, parseDateTime, parseDay } from '../../lib/dates';
import { ValidationError } from '../../lib/errors';
import { fields } from '../../lib/filter/fields';
import { type Clause, type ListQuery, parseListQuery, queryLimits, splitList } from '../../lib/filter/query';
import { storedFieldList } from '../../lib/store/catalogue';
import { indexes } from '../../lib/store/indexes';
import { expressionLimits, filterExpression, Placeholders } from '../../lib/store/list/plan/expression';
import { type IndexRead, plan } from '../../lib/store/list/plan/plan';
import { attr, everythingPartitions, filterKey, lowerKey } from '../../lib/store/table';

/**
 * Properties of the filter language over arbitrary input: it answers with a query or a
 * ValidationError and nothing else, and what it hands DynamoDB is placeholders only, inside
 * DynamoDB's limits, and never wider than what was asked.
 */

const RUNS = { numRuns: 400 };

// ---------------------------------------------------------------------------------- generators

/** A lone surrogate: valid in a JavaScript string, not in UTF-8 or in encodeURIComponent. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const anyText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(',', '\\', '%', '&', '=', '+', '#', '~', '*'), loneSurrogate) }),
);

const isoDate = fc
  .date({ min: new Date(Date.UTC(-1, 0, 1)), max: new Date(Date.UTC(10000, 0, 1)), noInvalidDate: true })
  .map((d) => d.toISOString());
const offset = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
    .map(([sign, h, m]) => `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const dateText = fc.oneof(
  isoDate,
  isoDate.map((iso) => iso.slice(0, 10)),
  fc.tuple(isoDate, offset).map(([iso, zone]) => iso.slice(0, 19) + zone),
  fc.tuple(isoDate, fc.stringMatching(/^\.\d{1,9}$/), offset).map(([iso, f, z]) => iso.slice(0, 19) + f + z),
  fc
    .tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 33 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
);
const numberText = fc.oneof(
  fc.nat({ max: 20 }).map(String),
  fc.integer({ min: -1000, max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.double().map(String),
);
const scalar = fc.oneof(anyText, dateText, numberText);
const escapeListValue = (v: string) => v.replace(/[\\,]/g, '\\$&');
const list = fc
  .array(scalar, { maxLength: 105 })
  .chain((values) => fc.constantFrom(values.map(escapeListValue).join(','), values.join(',')));

const names = [...fields.map((f) => f.name), 'skip', 'limit', 'sort'];
const parameterName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...names) },
  { weight: 1, arbitrary: fc.constantFrom('Title', 'location.', 'location', '__proto__', 'constructor', '', 'a.b.c') },
  { weight: 1, arbitrary: anyText },
);
const operator = fc.constantFrom('', '=', '==', '!', '*', '<', '>', '~', '=!', '!=', '~~', '*=');
const sortValue = fc
  .tuple(fc.constantFrom('', '-', '--', '+'), fc.constantFrom(...names, 'nope', ''))
  .map(([p, n]) => p + n);
const value = fc.oneof(
  fc.tuple(operator, fc.oneof(scalar, list)).map(([op, v]) => op + v),
  sortValue,
  numberText,
);

/** Percent-encodes as a careful client would, or not at all, or half-way. */
function encodeText(text: string, how: number): string {
  if (how === 0) return text;
  try {
    return how === 1 ? encodeURIComponent(text) : text.replace(/[&=+#%]/g, (c) => encodeURIComponent(c));
  } catch {
    return text; // a lone surrogate cannot be encoded: send it raw
  }
}

const pair = fc
  .tuple(parameterName, value, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }))
  .map(([name, v, hn, hv]) => `${encodeText(name, hn)}=${encodeText(v, hv)}`);

/** Query strings shaped like real ones, and pure junk. */
const queryString = fc.oneof(
  { weight: 6, arbitrary: fc.array(pair, { maxLength: 25 }).map((pairs) => pairs.join('&')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('&', '=', '%', '2', 'B', 'title', '~', ',', '\\', '+', 'limit', 'skip', 'sort', '-'),
    }),
  },
);

/** One clause that parses: an operator the field takes and values of its type. */
const wellFormedClause = fc.constantFrom(...fields).chain((f) => {
  // A flag: `true` or `false`, `=` only.
  if (f.type === 'boolean')
    return fc
      .tuple(fc.constantFrom('', '='), fc.boolean())
      .map(([op, value]) => `${f.name}=${encodeText(op + String(value), 1)}`);
  const ops =
    f.type === 'integer' || f.type === 'date' ? ['', '=', '!', '<', '>', '~'] : ['', '=', '!', '*', '<', '>', '~'];
  const one =
    f.type === 'integer'
      ? fc.nat({ max: 12 }).map(String)
      : f.type === 'date'
        ? fc
            .oneof(
              isoDate.map((iso) => iso.slice(0, 10)),
              isoDate,
            )
            .filter((d) => /^\d{4}-/.test(d))
        : fc.oneof(
            fc.constantFrom('', 'North Pit', 'undefined', 'Ann', 'a,b', 'c\\d'),
            fc.string({ maxLength: 12 }),
            fc.string({ unit: 'binary', maxLength: 12 }),
            fc.string({ unit: 'grapheme', maxLength: 6 }),
          );
  return fc.tuple(fc.constantFrom(...ops), fc.array(one, { minLength: 1, maxLength: 4 })).map(([op, values]) => {
    const value = op === '~' ? values.map(escapeListValue).join(',') : values[0] || (op === '*' ? 'x' : '');
    // Without an operator, a value that starts with one needs the explicit `==`.
    const operator = op === '' && /^[=!*<>~]/.test(value) ? '=' : op;
    return `${f.name}=${encodeText(operator + value, 1)}`;
  });
});
const wellFormedQuery = fc
  .tuple(
    fc.array(wellFormedClause, { maxLength: 6 }),
    fc.option(
      fc.tuple(
        fc.constantFrom('', '-'),
        fc.constantFrom(...fields.filter((f) => f.type !== 'boolean').map((f) => f.name)),
      ),
    ),
    fc.option(fc.nat({ max: 500 })),
    fc.option(fc.nat({ max: 100 })),
  )
  .map(([clauses, sort, skip, limit]) =>
    [
      ...clauses,
      ...(sort ? [`sort=${sort.join('')}`] : []),
      ...(skip !== null ? [`skip=${skip}`] : []),
      ...(limit !== null ? [`limit=${limit}`] : []),
    ].join('&'),
  );

/** Query strings that parse, to exercise the planner and the expressions. */
const validQuery = fc.oneof(
  wellFormedQuery,
  queryString.filter((q) => !(parse(q) instanceof ValidationError)),
);

// ----------------------------------------------------------------------------------- checkers

const parse = (q: string): ListQuery | ValidationError => {
  try {
    return parseListQuery(q);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
};

/** Every attribute name segment the store uses; an expression may name nothing else. */
const knownSegments = new Set<string>([
  ...Object.values(attr),
  ...Object.values(filterKey),
  ...Object.values(filterKey).map(lowerKey),
]);

const TOKENS =
  /#n\d+|:v\d+|\b(?:AND|OR|NOT|IN|begins_with|contains|attribute_exists|attribute_not_exists)\b|<>|>=|<=|[()<>=,.\s]/g;
const countOperators = (expression: string) =>
  (
    expression.match(
      /\b(AND|OR|NOT|IN|BETWEEN|begins_with|contains|attribute_exists|attribute_not_exists)\b|<>|<=|>=|[<>=]/g,
    ) ?? []
  ).length;

/** Checks one filter expression; returns false when it was refused as too complex. */
function checkExpression(clauses: Clause[]): boolean {
  const p = new Placeholders();
  let expression: string | undefined;
  try {
    expression = filterExpression(clauses, p);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors?.map((e) => e.parameter)).toEqual(['query']);
    return false;
  }
  if (clauses.length === 0) {
    expect(expression).toBeUndefined();
    return true;
  }
  const text = expression as string;
  // Nothing but placeholders, keywords and punctuation: no client text at all.
  expect(text.replace(TOKENS, '')).toBe('');
  for (const name of text.match(/#n\d+/g) ?? []) expect(knownSegments.has(p.names[name] as string)).toBe(true);
  for (const v of text.match(/:v\d+/g) ?? []) expect(Object.hasOwn(p.values, v)).toBe(true);
  expect(text.length).toBeLessThanOrEqual(expressionLimits.maxLength);
  expect(countOperators(text)).toBeLessThanOrEqual(expressionLimits.maxOperators);
  expect(p.operators).toBe(countOperators(text));
  for (const inList of text.match(/IN \(([^)]*)\)/g) ?? []) {
    expect(inList.split(',').length).toBeLessThanOrEqual(expressionLimits.maxInOperands);
  }
  return true;
}

/** The filter field an index's partition key stands for (the ones the planner reads by equality). */
const partitionField: Record<string, string> = {
  [attr.ownerKey]: 'owner',
  [attr.assigneeKey]: 'assignee',
  [attr.producerKey]: 'actionProducer.name',
  [attr.referenceKey]: 'actionProducer.reference',
  [attr.statusKey]: 'status',
  [attr.priorityKey]: 'priority',
  [attr.siteKey]: 'location.site',
  [attr.businessUnitKey]: 'location.businessUnit',
};
/** The field an index's sort key orders, when a key range can stand for a clause on it. */
const rangeField: Record<string, string> = {
  [attr.createdKey]: 'createdAt',
  [attr.dueKey]: 'dueAt',
  [attr.updatedKey]: 'updatedAt',
  [attr.titleKey]: 'title',
  [attr.priorityOrderKey]: 'priority',
};

/** A clause as the client asked for it; the planner may move it onto a top-level copy of its value. */
const signature = (c: Clause) => JSON.stringify([c.field.name, c.op, c.values]);

/** Every clause of the query is kept by the read: as its filter, its partitions or its key range. */
function checkNothingDropped(query: ListQuery, read: IndexRead) {
  // Each filtered clause accounts for one asked clause (a query may repeat a clause).
  const dropped = [...query.filters];
  // The sparse index of overdue actions holds only what `overdue=true` asks for.
  if (read.index.name === indexes.overdueByCreated.name) {
    const i = dropped.findIndex((c) => c.field.name === 'overdue' && c.values[0] === true);
    expect(i).toBeGreaterThanOrEqual(0);
    dropped.splice(i, 1);
  }
  // A list of titles read as one key range of the title index a title (`IndexRead.ranges`).
  if (read.ranges) {
    const i = dropped.findIndex((c) => c.field.name === 'title' && c.op === '~');
    expect(i).toBeGreaterThanOrEqual(0);
    const [titles] = dropped.splice(i, 1) as [Clause];
    expect(read.ranges).toHaveLength(new Set(titles.values as string[]).size);
    expect(read.range).toBeUndefined();
  }
  for (const clause of read.filter) {
    const i = dropped.findIndex((c) => signature(c) === signature(clause));
    expect(i, signature(clause)).toBeGreaterThanOrEqual(0);
    dropped.splice(i, 1);
  }
  const byPartition = dropped.filter((c) => c.field.name === partitionField[read.index.partitionKey.name]);
  const byRange = dropped.filter((c) => !byPartition.includes(c));
  if (byPartition.length > 0) {
    // One equality clause became the partitions; a second one on the field would have to be filtered.
    expect(byPartition).toHaveLength(1);
    const [clause] = byPartition as [Clause];
    expect(['=', '~']).toContain(clause.op);
    // The site and business unit indexes keep the empty value under a stand-in key.
    const standIn = storedFieldList.find((f) => f.equality?.index.partitionKey.name === read.index.partitionKey.name)
      ?.equality?.empty;
    const keys = clause.values.map((v) => (v === '' && standIn !== undefined ? standIn : v));
    expect(new Set<unknown>(read.partitions)).toEqual(new Set<unknown>(keys));
  } else {
    expect(read.partitions).toEqual([...everythingPartitions]);
  }
  for (const clause of byRange) {
    expect(clause.field.name).toBe(rangeField[read.index.sortKey.name]);
    expect(['=', '<', '>']).toContain(clause.op);
    expect(clause.values).toHaveLength(1);
  }
  if (byRange.length > 0) expect(read.range).toBeDefined();
}

// --------------------------------------------------------------------------------- properties

describe('parseListQuery on arbitrary query strings', () => {
  it('returns a query or throws a ValidationError naming parameters, never anything else', () => {
    fc.assert(
      fc.property(queryString, (q) => {
        const result = parse(q);
        if (result instanceof ValidationError) {
          expect(result.status).toBe(400);
          expect(result.errors?.length).toBeGreaterThan(0);
          for (const problem of result.errors ?? []) {
            expect(typeof problem.parameter).toBe('string');
            expect(problem.parameter?.length).toBeLessThanOrEqual(101);
          }
          return;
        }
        expect(result.limit).toBeGreaterThanOrEqual(0);
        expect(result.limit).toBeLessThanOrEqual(queryLimits.maxLimit);
        expect(result.skip).toBeGreaterThanOrEqual(0);
        expect(result.skip + result.limit).toBeLessThanOrEqual(queryLimits.maxWindow);
        expect(result.filters.length).toBeLessThanOrEqual(queryLimits.maxFilters);
        for (const clause of result.filters) {
          expect(clause.values.length).toBeGreaterThan(0);
          expect(clause.values.length).toBeLessThanOrEqual(queryLimits.maxInValues);
          if (clause.op !== '~') expect(clause.values).toHaveLength(1);
          if (clause.type === 'integer') for (const v of clause.values) expect(Number.isSafeInteger(v)).toBe(true);
          if (clause.op === '*') expect(clause.type === 'text' || clause.type === 'string').toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds valid queries often enough to test what follows', () => {
    const sample = fc.sample(queryString, { numRuns: 400, seed: 42 });
    const valid = sample.filter((q) => !(parse(q) instanceof ValidationError));
    expect(valid.length).toBeGreaterThan(40);
    expect(valid.some((q) => (parse(q) as ListQuery).filters.length >= 2)).toBe(true);
    const wellFormed = fc.sample(wellFormedQuery, { numRuns: 200, seed: 42 });
    expect(wellFormed.filter((q) => parse(q) instanceof ValidationError)).toEqual([]);
  });
});

describe('what the planner hands DynamoDB', () => {
  it('is placeholders only, inside the limits, for every read of every plan', () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        const query = parseListQuery(q);
        checkExpression(query.filters);
        const chosen = plan(query);
        if (chosen.empty) return;
        for (const read of [chosen.read]) {
          checkExpression(read.filter);
          expect(read.partitions.length).toBeGreaterThan(0);
          expect(read.partitions.length).toBeLessThanOrEqual(queryLimits.maxInValues);
        }
      }),
      RUNS,
    );
  });

  it('never leaves out a filter: each clause is a filter, the partitions or the key range', () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        const query = parseListQuery(q);
        const chosen = plan(query);
        if (chosen.empty) return;
        checkNothingDropped(query, chosen.read);
      }),
      RUNS,
    );
  });

  it('never asks DynamoDB for an empty partition key (it refuses one with a ValidationException)', () => {
    const emptyish = fc
      .tuple(fc.constantFrom(...Object.values(partitionField)), fc.constantFrom('', '~', '~,x', '~x,', '~x,,y'))
      .map(([name, v]) => `${name}=${v}`);
    fc.assert(
      fc.property(fc.oneof(validQuery, emptyish), (q) => {
        const query = parse(q);
        if (query instanceof ValidationError) return;
        const chosen = plan(query);
        for (const read of [chosen.read]) {
          expect(read.partitions).not.toContain('');
        }
      }),
      RUNS,
    );
  });
});

describe('dates', () => {
  const instant = fc.date({
    min: new Date('0000-01-01T00:00:00.000Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  });

  it('reads back every canonical instant as itself', () => {
    fc.assert(
      fc.property(instant, (d) => {
        expect(parseDateTime(d.toISOString())).toBe(d.toISOString());
      }),
      RUNS,
    );
  });

  it('reads the same instant written with any offset, cutting digits past milliseconds', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        fc.stringMatching(/^\d{0,6}$/),
        (d, offsetMinutes, extra) => {
          const local = new Date(d.getTime() + offsetMinutes * 60_000);
          if (local.getUTCFullYear() < 0 || local.getUTCFullYear() > 9999) return;
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          const text = `${local.toISOString().slice(0, 23)}${extra}${zone}`;
          expect(parseDateTime(text)).toBe(d.toISOString());
        },
      ),
      RUNS,
    );
  });

  it('puts every instant inside exactly its own UTC day', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const iso = d.toISOString();
        const day = parseDay(iso.slice(0, 10));
        expect(day).toBeDefined();
        expect(day?.start.slice(0, 10)).toBe(iso.slice(0, 10));
        expect((day?.start as string) <= iso && iso < (day?.end as string)).toBe(true);
        expect(nextMillisecond(iso) > iso).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('splitList', () => {
  it('gives back any list of values escaped with \\ and joined with commas', () => {
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 20 }), (values) => {
        expect(splitList(values.map(escapeListValue).join(','))).toEqual(values);
      }),
      RUNS,
    );
  });
});
