import * as z from 'zod';
import { parseDateTime } from '../dates';
import { foldForComparison, isBlank, utf8Bytes } from '../text';
import { actionLimits, type LocationField, locationFields, UNASSIGNED } from './action';
import { oneLine } from './validate-body';

/**
 * The one schema that validates create bodies and the one that validates patch bodies (and the
 * ingested event's, a create body's kin). Only what validates an action's body imports this
 * module: its schemas are built when it loads, and with them all of zod's classic API (about
 * 88 KB of a bundle). `validateBody` is in `validate-body.ts`, which needs no zod at run time.
 */

/**
 * What a description may not hold: control characters other than tab, line feed and carriage
 * return. Bidirectional formatting is allowed there: right-to-left prose needs it, and a
 * description is never shown as a name.
 */
const NOT_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

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
