import { describe, expect, it } from 'vitest';
import { parseChangesQuery } from '../../lib/actions/changes';
import { type Problem, ValidationError } from '../../lib/errors';
import { parsePageQuery, parseThreadQuery } from '../../lib/filter/page-query';

/**
 * The one parser of a paged read's query string (a thread, the change feed, a subscription's
 * deliveries): the page size, the cursor, the read's own parameters, and the 400 that names every
 * problem at once.
 */

const limits = { defaultLimit: 50, maxLimit: 100 };
const thread = (raw: string) => parsePageQuery(raw, { limits, cursor: 'cursor' });

/** The problems of the 400 `parse` throws. */
function problems(parse: () => unknown): Problem[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    return (error as ValidationError).errors ?? [];
  }
  throw new Error('no 400');
}

const limitProblem = (max: number) => ({ parameter: 'limit', message: `must be an integer from 1 to ${max}` });

describe('parsePageQuery', () => {
  it('gives the default page size and no cursor for an empty query', () => {
    expect(thread('')).toEqual({ limit: 50, others: {} });
  });

  it('takes a limit from 1 to the largest, and the cursor as given (decoded)', () => {
    expect(thread('limit=1')).toMatchObject({ limit: 1 });
    expect(thread('limit=100&cursor=a%2Bb')).toEqual({ limit: 100, cursor: 'a+b', others: {} });
    expect(thread('limit=007')).toMatchObject({ limit: 7 });
  });

  it.each(['0', '101', '-1', '1.5', '1e2', ' 5', '', 'ten', '0100', '9'.repeat(400)])(
    'refuses the limit %j, naming the range',
    (limit) => {
      expect(problems(() => thread(`limit=${encodeURIComponent(limit)}`))).toEqual([limitProblem(100)]);
    },
  );

  it('allows as many digits as the largest limit has', () => {
    const wide = { defaultLimit: 100, maxLimit: 1000 };
    expect(parsePageQuery('limit=1000', { limits: wide, cursor: 'after' }).limit).toBe(1000);
    expect(parsePageQuery('limit=0999', { limits: wide, cursor: 'after' }).limit).toBe(999);
    expect(problems(() => parsePageQuery('limit=01000', { limits: wide, cursor: 'after' }))).toEqual([
      limitProblem(1000),
    ]);
  });

  it('refuses an empty cursor under the name the read gives it', () => {
    expect(problems(() => thread('cursor='))).toEqual([{ parameter: 'cursor', message: 'must not be empty' }]);
    expect(problems(() => parsePageQuery('after', { limits, cursor: 'after' }))).toEqual([
      { parameter: 'after', message: 'must not be empty' },
    ]);
  });

  it('names every problem at once: unknown and repeated parameters, the limit, the cursor', () => {
    expect(problems(() => thread(`sort=x&limit=2&limit=3&${'q'.repeat(300)}=1&cursor=`))).toEqual([
      { parameter: 'sort', message: 'is not a known parameter' },
      { parameter: 'limit', message: 'may appear only once' },
      { parameter: expect.stringMatching(/^q{1,100}…?$/), message: 'is not a known parameter' },
      { parameter: 'cursor', message: 'must not be empty' },
    ]);
    // The first of a repeated parameter is the one read: a good limit then a bad one is one problem.
    expect(problems(() => thread('limit=2&limit=x'))).toEqual([
      { parameter: 'limit', message: 'may appear only once' },
    ]);
  });

  it("takes a read's own parameters and adds what its check finds to the same 400", () => {
    const spec = { limits, cursor: 'after', others: ['since'] as const };
    expect(parsePageQuery('since=x&after=c', spec)).toEqual({ limit: 50, cursor: 'c', others: { since: 'x' } });
    expect(parsePageQuery('', spec).others).toEqual({});
    const check = (given: { others: { since?: string } }) =>
      given.others.since === 'bad' ? [{ parameter: 'since', message: 'is bad' }] : [];
    expect(parsePageQuery('since=good', spec, check).others.since).toBe('good');
    expect(problems(() => parsePageQuery('limit=0&since=bad', spec, check))).toEqual([
      limitProblem(100),
      { parameter: 'since', message: 'is bad' },
    ]);
  });
});

describe('the reads that page through it keep their 400s', () => {
  it('a thread (and a subscription’s deliveries): limit 1-100, default 50, and cursor', () => {
    expect(parseThreadQuery('')).toEqual({ limit: 50 });
    expect(parseThreadQuery('limit=100&cursor=c')).toEqual({ limit: 100, cursor: 'c' });
    expect(problems(() => parseThreadQuery('limit=101&after=c'))).toEqual([
      { parameter: 'after', message: 'is not a known parameter' },
      limitProblem(100),
    ]);
  });

  it('the change feed: limit 1-1000, default 100, after or since but not both', () => {
    expect(parseChangesQuery('', 'u-1')).toEqual({ limit: 100, from: '' });
    expect(parseChangesQuery('limit=1000&since=2026-01-01T00:00:00Z', 'u-1').limit).toBe(1000);
    expect(parseChangesQuery('since=2026-01-01T08:00:00%2B08:00', 'u-1').from).toBe('2026-01-01T00:00:00.000Z');
    expect(problems(() => parseChangesQuery('limit=1001&cursor=c', 'u-1'))).toEqual([
      { parameter: 'cursor', message: 'is not a known parameter' },
      limitProblem(1000),
    ]);
    expect(problems(() => parseChangesQuery('after=c&since=2026-01-01T00:00:00Z', 'u-1'))).toEqual([
      { parameter: 'since', message: 'starts a feed; a cursor in after continues one: send one of them' },
    ]);
    expect(problems(() => parseChangesQuery('since=yesterday', 'u-1'))).toEqual([
      { parameter: 'since', message: 'must be an ISO 8601 date-time with an offset or Z' },
    ]);
    expect(problems(() => parseChangesQuery('after=', 'u-1'))).toEqual([
      { parameter: 'after', message: 'must not be empty' },
    ]);
  });
});
