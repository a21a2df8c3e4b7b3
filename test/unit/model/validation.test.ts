import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Problem, ValidationError } from '../../../lib/errors';
import { SERVICE_FIELDS, validateBody } from '../../../lib/model/validate-body';
import { actionRequestedSchema, createActionSchema, patchActionSchema } from '../../../lib/model/validation';

/** Every way a body is wrong is a 400 whose problems name the field; what passes comes out normalised. */

const body = {
  title: 'T',
  actionProducer: { name: 'p' },
  dueAt: '2026-12-01T12:00:00+02:00',
  priority: 1,
  status: '2',
};

/** The problems `validateBody` reports, or fails the test when it accepts the body. */
function problemsOf(schema: Parameters<typeof validateBody>[0], input: unknown, options = {}): Problem[] {
  try {
    validateBody(schema, input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    return (error as ValidationError).errors ?? [];
  }
  throw new Error('the body was accepted');
}
const message = (problems: Problem[], field: string) => problems.find((p) => p.field === field)?.message;

describe('a valid create body', () => {
  it('comes out with dueAt in UTC with milliseconds and numbers as numbers', () => {
    expect(validateBody(createActionSchema, body)).toEqual({
      title: 'T',
      actionProducer: { name: 'p' },
      dueAt: '2026-12-01T10:00:00.000Z',
      priority: 1,
      status: 2,
    });
  });

  it('takes the largest integer and zero, as numbers or strings', () => {
    expect(validateBody(createActionSchema, { ...body, priority: 999_999_999, status: '0' })).toMatchObject({
      priority: 999_999_999,
      status: 0,
    });
  });
});

describe('problems name their field', () => {
  it('a body that is not an object', () => {
    for (const input of [null, [], 'x', 5, true]) {
      expect(problemsOf(createActionSchema, input)).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    }
  });

  it('fields only the service sets, each named, unless allowed', () => {
    const problems = problemsOf(createActionSchema, { ...body, id: 'x', owner: {}, overdue: true });
    expect(problems).toEqual([
      { field: 'id', message: 'is set by the service and cannot be sent' },
      { field: 'owner', message: 'is set by the service and cannot be sent' },
      { field: 'overdue', message: 'is set by the service and cannot be sent' },
    ]);
    expect(SERVICE_FIELDS).toContain('createdAt');
    const requested = { ...body, actionProducer: { name: 'p', reference: 'R' }, owner: { id: 'o' } };
    expect(validateBody(actionRequestedSchema, requested, { allowed: ['owner'] }).owner).toEqual({ id: 'o' });
  });

  it('unknown fields, nested ones by their path', () => {
    const problems = problemsOf(createActionSchema, { ...body, colour: 'red', location: { planet: 'Mars' } });
    expect(message(problems, 'colour')).toBe('is not a known field');
    expect(message(problems, 'location.planet')).toBe('is not a known field');
    expect(problems).toHaveLength(2);
  });

  it('missing fields are required; sent fields of the wrong type say the type', () => {
    expect(problemsOf(createActionSchema, { actionProducer: { name: 'p' } })).toEqual(
      ['title', 'dueAt', 'priority', 'status'].map((field) => ({ field, message: 'is required' })),
    );
    const problems = problemsOf(createActionSchema, { ...body, title: 5, priority: true, allowAnonymousEdits: 'yes' });
    expect(message(problems, 'title')).toBe('must be a string');
    expect(message(problems, 'priority')).toBe('must be a number or a string');
    expect(message(problems, 'allowAnonymousEdits')).toBe('must be a boolean');
  });

  it('integers out of range or not plain digits', () => {
    for (const value of [-1, 1.5, 1_000_000_000, '1e3', '-1', '', ' 1', '0x1']) {
      expect(message(problemsOf(createActionSchema, { ...body, priority: value }), 'priority')).toBe(
        'must be an integer from 0 to 999999999, as a number or string',
      );
    }
  });

  it('a dueAt that is not a date-time with an offset', () => {
    for (const dueAt of ['2026-02-30T00:00:00Z', '2026-12-01', '2026-12-01T10:00:00', 'tomorrow']) {
      expect(message(problemsOf(createActionSchema, { ...body, dueAt }), 'dueAt')).toMatch(
        /^must be an ISO 8601 date-time/,
      );
    }
  });

  it('text: blank titles, control and bidirectional characters in names, control characters in descriptions', () => {
    expect(message(problemsOf(createActionSchema, { ...body, title: ' \u200b\t' }), 'title')).toBe(
      'must not be empty or only white space or invisible characters',
    );
    for (const title of ['a\u0007', 'a\nb', 'a\u202eb', 'a\u2066b', 'a\u0085']) {
      expect(message(problemsOf(createActionSchema, { ...body, title }), 'title')).toMatch(
        /^must be one line of plain text/,
      );
    }
    expect(message(problemsOf(createActionSchema, { ...body, description: 'bell\u0007' }), 'description')).toBe(
      'must not contain control characters other than tab, line feed and carriage return',
    );
    // Right-to-left prose needs bidirectional formatting; lines and tabs are prose too.
    expect(
      validateBody(createActionSchema, { ...body, description: 'line\r\n\tone \u202bشسيب\u202c' }).description,
    ).toBe('line\r\n\tone \u202bشسيب\u202c');
    expect(message(problemsOf(createActionSchema, { ...body, title: 'x'.repeat(201) }), 'title')).toBe(
      'must be at most 200 characters',
    );
  });

  it('lone surrogates, in values and in field names', () => {
    const problems = problemsOf(createActionSchema, { ...body, title: 'a\ud800', tags: ['\udc00'], 'k\udc00': 1 });
    expect(message(problems, 'title')).toBe('must be well-formed Unicode (it holds a lone surrogate)');
    expect(message(problems, 'tags.0')).toBe('must be well-formed Unicode (it holds a lone surrogate)');
    expect(message(problems, 'k\udc00')).toBe('is a field name that is not well-formed Unicode');
  });

  it('URLs: http or https only, no white space, at most 2,000 characters', () => {
    const url = (u: string) =>
      message(problemsOf(createActionSchema, { ...body, actionProducer: { name: 'p', url: u } }), 'actionProducer.url');
    expect(url('ftp://x.example/')).toBe('must be an http or https URL');
    expect(url('javascript:alert(1)')).toBe('must be an http or https URL');
    expect(url('https://x.example/a b')).toBe('must not contain white space or control characters');
    expect(url(`https://x.example/${'a'.repeat(2000)}`)).toBe('must be at most 2000 characters');
  });

  it('arrays past their limit, people and emails', () => {
    const tags = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(message(problemsOf(createActionSchema, { ...body, tags }), 'tags')).toBe('must have at most 50 items');
    expect(message(problemsOf(createActionSchema, { ...body, tags: [''] }), 'tags.0')).toBe('must not be empty');
    expect(message(problemsOf(createActionSchema, { ...body, assignee: { id: 'undefined' } }), 'assignee.id')).toBe(
      `'undefined' is reserved for "nobody"`,
    );
    expect(
      message(problemsOf(createActionSchema, { ...body, assignee: { id: 'a', email: 'nope' } }), 'assignee.email'),
    ).toBe('must be an email address');
  });
});

describe('patches', () => {
  it('a null resets an optional field and cannot remove a required one', () => {
    expect(validateBody(patchActionSchema, { description: null, assignee: null, location: null })).toEqual({
      description: null,
      assignee: null,
      location: null,
    });
    const problems = problemsOf(patchActionSchema, { title: null, dueAt: null, allowAnonymousEdits: null });
    for (const field of ['title', 'dueAt', 'allowAnonymousEdits']) {
      expect(message(problems, field)).toBe('is required and cannot be removed');
    }
  });

  it('fixed fields cannot be changed, and are not reported twice as unknown', () => {
    expect(
      problemsOf(
        patchActionSchema,
        { actionProducer: { name: 'q', url: null } },
        { fixedFields: ['actionProducer.name'] },
      ),
    ).toEqual([{ field: 'actionProducer.name', message: 'cannot be changed after creation' }]);
  });
});

describe('any JSON at all', () => {
  it('is either accepted or refused with a ValidationError naming a field or the body, never anything else', () => {
    const json = fc.oneof(
      fc.jsonValue(),
      fc.record({ title: fc.jsonValue(), dueAt: fc.jsonValue(), priority: fc.jsonValue(), location: fc.jsonValue() }),
    );
    for (const schema of [createActionSchema, patchActionSchema]) {
      fc.assert(
        fc.property(json, (input) => {
          try {
            validateBody(schema, input);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            const problems = (error as ValidationError).errors ?? [];
            expect(problems.length).toBeGreaterThan(0);
            // A field may be named "" (an unknown key can be); it is still named.
            for (const p of problems) {
              expect(typeof (p.field ?? p.parameter)).toBe('string');
              expect(p.message).not.toBe('');
            }
          }
        }),
        { numRuns: 150 },
      );
    }
  });
});
