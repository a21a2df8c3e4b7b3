import { describe, expect, it } from 'vitest';
import { type Problem, ValidationError } from '../../../lib/errors';
import { attachRequestSchema, uploadRequestSchema } from '../../../lib/model/evidence-requests';
import { validateBody } from '../../../lib/model/validate-body';

/**
 * The upload and attach bodies are `zod/mini` schemas (so the S3 functions that validate them stay
 * small); `validateBody` must read their issues as it reads the classic schemas': every rule names
 * its field with its own message, and what passes comes out as sent.
 */

const upload = uploadRequestSchema({ types: ['image/png', 'application/pdf'], maxBytes: 1000 });

function problemsOf(schema: Parameters<typeof validateBody>[0], input: unknown): Problem[] {
  try {
    validateBody(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors ?? [];
  }
  throw new Error('the body was accepted');
}

describe('the upload body (zod/mini)', () => {
  it('accepts a good one as sent', () => {
    expect(validateBody(upload, { name: 'a.png', contentType: 'image/png', size: 10 })).toEqual({
      name: 'a.png',
      contentType: 'image/png',
      size: 10,
    });
  });

  it.each([
    [{ name: '', contentType: 'image/png', size: 1 }, 'name', 'must not be empty'],
    [{ name: '   ', contentType: 'image/png', size: 1 }, 'name', 'must not be only white space'],
    [{ name: 'x'.repeat(201), contentType: 'image/png', size: 1 }, 'name', 'must be at most 200 characters'],
    [{ name: 'a\u202Eb', contentType: 'image/png', size: 1 }, 'name', /^must be one line of plain text/],
    [{ name: 'a', contentType: 'text/html', size: 1 }, 'contentType', 'must be one of image/png, application/pdf'],
    [{ name: 'a', contentType: 'image/png', size: 0 }, 'size', 'must be at least 1 byte'],
    [{ name: 'a', contentType: 'image/png', size: 1001 }, 'size', 'must be at most 1000 bytes'],
    [{ name: 'a', contentType: 'image/png', size: '5' }, 'size', 'must be a number'],
    [{ name: 'a', contentType: 'image/png', size: 1.5 }, 'size', 'must be a whole number'],
    [{ name: 'a', contentType: 'image/png' }, 'size', 'is required'],
    [{ name: 'a', contentType: 'image/png', size: 1, extra: 1 }, 'extra', 'is not a known field'],
  ])('refuses %j naming %s', (body, field, expected) => {
    const problems = problemsOf(upload, body);
    expect(problems.map((p) => p.field)).toContain(field);
    const message = problems.find((p) => p.field === field)?.message ?? '';
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });
});

describe('the attach body (zod/mini)', () => {
  it('accepts an uploadId and refuses anything else, naming it', () => {
    const uploadId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(validateBody(attachRequestSchema, { uploadId })).toEqual({ uploadId });
    expect(problemsOf(attachRequestSchema, { uploadId: 'nope' })).toEqual([
      { field: 'uploadId', message: 'must be an uploadId as POST .../uploads returned it' },
    ]);
  });
});
