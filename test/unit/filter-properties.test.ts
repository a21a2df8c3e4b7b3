import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextMillisecond, parseDateTime, parseDay } from '../../lib/dates';
import { ValidationError } from '../../lib/errors';
import { type ListQuery, queryLimits, splitList } from '../../lib/filter/query';
import { anyText, escapeListValue, parse, queryString, wellFormedQuery } from './query-arbitraries';

/**
 * Properties of the filter language over arbitrary input: it answers with a query or a
 * ValidationError and nothing else. What the planner hands DynamoDB for it is tested with the
 * planner (store/list/plan.test.ts).
 */

const RUNS = { numRuns: 400 };

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
