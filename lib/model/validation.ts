import * as z from 'zod';
import { parseDateTime } from '../dates';
import { clip, type Problem, ValidationError } from '../errors';
import { foldForComparison, isBlank, NOT_ONE_LINE, utf8Bytes } from '../text';
import { actionLimits, type LocationField, locationFields, UNASSIGNED } from './action';

/**
 * The one schema that validates create bodies, the one that validates patch bodies, and
 * `validateBody`, which turns every way a body is wrong into a problem that names its field.
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

/**
 * What a description may not hold: control characters other than tab, line feed and carriage
 * return. Bidirectional formatting is allowed there: right-to-left prose needs it, and a
 * description is never shown as a name.
 */
const NOT_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** The one-line text rules of contract section 3, on any string schema (a webhook's description too). */
export const oneLine = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine(
    (s) => !NOT_ONE_LINE.test(s),
    'must be one line of plain text: no control characters (C0, C1) or bidirectional formatting characters (U+202A-U+202E, U+2066-U+2069)',
  );

const shortText = oneLine(
  z.string().max(actionLimits.shortText, `must be at most ${actionLimits.shortText} characters`),
);
const required = (max: number) =>
  oneLine(
    z
      .string()
      .max(max, `must be at most ${max} characters`)
      .refine((s) => !isBlank(s), 'must not be empty or only white space or invisible characters'),
  );
/** White space or a control character anywhere: a URL holding one is refused, never trimmed or rewritten. */
const NOT_IN_URL = /[\p{White_Space}\u0000-\u001f\u007f-\u009f]/u;
const httpUrl = oneLine(
  z
    .string()
    .refine((s) => !NOT_IN_URL.test(s), 'must not contain white space or control characters')
    .pipe(
      z
        .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
        .max(actionLimits.url, `must be at most ${actionLimits.url} characters`),
    ),
);
const descriptionSchema = z
  .string()
  .max(actionLimits.description, `must be at most ${actionLimits.description} characters`)
  .refine(
    (s) => !NOT_IN_TEXT.test(s),
    'must not contain control characters other than tab, line feed and carriage return',
  );

/** A title also fits its sort key once folded (`actionLimits.foldedTitleBytes`): a 400, never DynamoDB's refusal. */
export const titleSchema = required(actionLimits.title).refine(
  (s) => utf8Bytes(foldForComparison(s)) <= actionLimits.foldedTitleBytes,
  `must be at most ${actionLimits.foldedTitleBytes} bytes of UTF-8 once normalized and case-folded (some characters, such as U+FB2C, grow to several)`,
);

export const dueAtSchema = z
  .string()
  .transform((s, ctx) => {
    const iso = parseDateTime(s);
    if (iso === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an ISO 8601 date-time with an offset or Z, e.g. 2026-12-01T10:00:00Z',
      });
      return z.NEVER;
    }
    return iso;
  })
  .meta({ example: '2026-12-01T10:00:00Z' });

/** A non-negative integer, or a string of one: `2` or `"2"`. */
export const integerSchema = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const n = typeof value === 'number' ? value : /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0 || n > actionLimits.maxInteger) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an integer from 0 to ${actionLimits.maxInteger}, as a number or string`,
      });
      return z.NEVER;
    }
    return n;
  })
  .meta({ example: '2' });

export const personInputSchema = z.strictObject({
  id: required(actionLimits.shortText).refine(
    (id) => id !== UNASSIGNED.id,
    `'${UNASSIGNED.id}' is reserved for "nobody"`,
  ),
  name: shortText.optional(),
  email: z.email('must be an email address').max(actionLimits.email).nullable().optional(),
});

export const attachmentSchema = z.strictObject({
  url: httpUrl,
  name: shortText.optional(),
  contentType: shortText.optional(),
  size: z.number().int().nonnegative().optional(),
});

const locationShape = Object.fromEntries(locationFields.map((f) => [f, shortText.optional()])) as Record<
  LocationField,
  z.ZodOptional<typeof shortText>
>;

const tagsSchema = z
  .array(
    oneLine(
      z.string().min(1, 'must not be empty').max(actionLimits.tag, `must be at most ${actionLimits.tag} characters`),
    ),
  )
  .max(actionLimits.tags, `at most ${actionLimits.tags} tags`);
const attachmentsSchema = z
  .array(attachmentSchema)
  .max(actionLimits.attachments, `at most ${actionLimits.attachments} attachments`);

export const createActionSchema = z.strictObject({
  title: titleSchema,
  description: descriptionSchema.optional(),
  actionProducer: z.strictObject({
    name: required(actionLimits.shortText),
    url: httpUrl.optional(),
    reference: required(actionLimits.shortText).optional(),
  }),
  location: z.strictObject(locationShape).optional(),
  allowAnonymousEdits: z.boolean().optional(),
  dueAt: dueAtSchema,
  priority: integerSchema,
  status: integerSchema,
  attachments: attachmentsSchema.optional(),
  tags: tagsSchema.optional(),
  assignee: personInputSchema.nullable().optional(),
});

export type CreateActionBody = z.output<typeof createActionSchema>;

/**
 * The detail of an `ActionRequested` event: a create body, plus the owner the trusted producer
 * acts for, and a required producer reference that makes the event idempotent.
 */
export const actionRequestedSchema = createActionSchema.extend({
  actionProducer: createActionSchema.shape.actionProducer.extend({ reference: required(actionLimits.shortText) }),
  owner: personInputSchema,
});

/** An edit is a JSON merge patch (RFC 7396) of these fields; `null` resets optional ones. */
export const patchActionSchema = z.strictObject({
  title: titleSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  // The producer's name and reference never change (the fixed fields of `updateAction`).
  actionProducer: z.strictObject({ url: httpUrl.nullable().optional() }).optional(),
  location: z
    .strictObject(
      Object.fromEntries(locationFields.map((f) => [f, shortText.nullable().optional()])) as Record<
        LocationField,
        z.ZodOptional<z.ZodNullable<typeof shortText>>
      >,
    )
    .nullable()
    .optional(),
  allowAnonymousEdits: z.boolean().optional(),
  dueAt: dueAtSchema.optional(),
  priority: integerSchema.optional(),
  status: integerSchema.optional(),
  attachments: attachmentsSchema.nullable().optional(),
  tags: tagsSchema.nullable().optional(),
  assignee: personInputSchema.nullable().optional(),
});

export type ActionPatch = z.output<typeof patchActionSchema>;

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
export function validateBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
  { fixedFields = [], allowed = [] }: { fixedFields?: string[]; allowed?: string[] } = {},
): z.output<T> {
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
  return (result as { data: z.output<T> }).data;
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
