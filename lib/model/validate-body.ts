import type * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { clip, type Problem, ValidationError } from '../errors';
import { NOT_ONE_LINE } from '../text';

/**
 * `validateBody`, which turns every way a body is wrong into a problem that names its field, and
 * the one-line text rule every schema shares. No zod at run time (its types only): a module
 * that imports this one carries zod only if it builds a schema itself, so what reads, lists or
 * deletes carries none (each body's schema lives beside the use case that validates it).
 */

/** Fields only the service sets; a body that sends one is refused, naming it. */
export const SERVICE_FIELDS = [
  'id',
  'owner',
  'initiator',
  'createdAt',
  'updatedAt',
  'endorsedBy',
  'comments',
  'commentCount',
  'overdue',
  'closedAt',
];

/** The one-line text rule of contract section 3: its test and the message a refusal carries. */
export const ONE_LINE = {
  test: (s: string) => !NOT_ONE_LINE.test(s),
  message:
    'must be one line of plain text: no control characters (C0, C1) or bidirectional formatting characters (U+202A-U+202E, U+2066-U+2069)',
};

/** The one-line text rule on any string schema of zod's classic API (a webhook's description too). */
export const oneLine = <T extends z.ZodType<string>>(schema: T) => schema.refine(ONE_LINE.test, ONE_LINE.message);

const REQUIRED_IN_PATCH = new Set(['title', 'dueAt', 'priority', 'status', 'allowAnonymousEdits']);

/** A lone surrogate: with the `u` flag, only an unpaired one is a code point of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Every string in `body`, keys included, must be well-formed Unicode; a lone surrogate cannot be
 * stored as UTF-8 as sent. Walked without recursion, so no nesting depth can overflow the stack.
 */
function malformedText(body: object): Problem[] {
  const problems: Problem[] = [];
  const pending: Array<[path: string, value: unknown]> = [['', body]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [path, value] = next;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) {
        problems.push({
          field: clip(path || 'body'),
          message: 'must be well-formed Unicode (it holds a lone surrogate)',
        });
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${key}` : key;
        if (LONE_SURROGATE.test(key)) {
          problems.push({ field: clip(childPath), message: 'is a field name that is not well-formed Unicode' });
        } else pending.push([childPath, child]);
      }
    }
  }
  return problems;
}

/** Validates `body` against `schema`, turning every issue into a `field` problem. */
export function validateBody<T extends z.ZodType | ZodMiniType>(
  schema: T,
  body: unknown,
  { fixedFields = [], allowed = [] }: { fixedFields?: string[]; allowed?: string[] } = {},
): z.core.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ field: 'body', message: 'must be a JSON object' }]);
  }
  const problems: Problem[] = malformedText(body);
  const record = body as Record<string, unknown>;
  for (const field of SERVICE_FIELDS) {
    if (Object.hasOwn(record, field) && !allowed.includes(field))
      problems.push({ field, message: 'is set by the service and cannot be sent' });
  }
  for (const field of fixedFields) {
    const [parent, child] = field.split('.') as [string, string];
    const value = record[parent];
    if (value && typeof value === 'object' && Object.hasOwn(value, child)) {
      problems.push({ field, message: 'cannot be changed after creation' });
    }
  }
  for (const [field, value] of Object.entries(record)) {
    if (value === null && REQUIRED_IN_PATCH.has(field)) {
      problems.push({ field, message: 'is required and cannot be removed' });
    }
  }
  const service = new Set([...SERVICE_FIELDS.filter((f) => !allowed.includes(f)), ...fixedFields]);
  const result = schema.safeParse(body);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const field = path ? `${path}.${key}` : key;
          if (!service.has(field)) problems.push({ field: clip(field), message: 'is not a known field' });
        }
      } else if (!(issue.code === 'invalid_type' && problems.some((p) => p.field === path))) {
        problems.push({ field: path || 'body', message: friendly(issue, body) });
      }
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return (result as { data: z.core.output<T> }).data;
}

/** Whether `body` holds a value at `path` (`null` counts: it was sent). */
function sent(body: unknown, path: readonly PropertyKey[]): boolean {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

/**
 * An issue as a client reads it. Zod leaves the input out of its issues, so whether a field of
 * the wrong type was missing or sent is read from the body: `{"title": 5}` must be a string.
 */
function friendly(issue: z.core.$ZodIssue, body: unknown): string {
  // A number that is not whole: zod's issue expects an "int", whose message a client need not parse.
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  if (issue.code === 'invalid_type') {
    return sent(body, issue.path) ? `must be ${article(issue.expected)}` : 'is required';
  }
  if (issue.code === 'invalid_union') {
    // A field of several accepted types (`2` or `"2"`) names them all.
    const expected = issue.errors.flatMap((branch) =>
      branch.flatMap((i) => (i.code === 'invalid_type' && i.path.length === 0 ? [article(i.expected)] : [])),
    );
    if (expected.length === issue.errors.length) {
      return sent(body, issue.path) ? `must be ${expected.join(' or ')}` : 'is required';
    }
  }
  if (issue.code === 'too_big' && issue.origin === 'array') return `must have at most ${issue.maximum} items`;
  return issue.message;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
