import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { type ActionView, actionLimits, locationFields, UNASSIGNED } from '../model/action';
import { eventTypeOf, type HistoryEntry, type HistoryType } from '../model/history';

/**
 * What the API answers (an action as it shows it, a comment, a history entry), as zod schemas,
 * for the OpenAPI document (`lib/api-docs/openapi.ts`). The domain's types are the truth; the compiler
 * holds each schema's output equal to its type in both directions (the `Same` checks below),
 * so a field added to the view or to history fails to compile until it is documented. Only the
 * document's generator imports this (no handler does), so zod-to-openapi stays out of bundles.
 */

extendZodWithOpenApi(z);

export const personSchema = z
  .object({ id: z.string(), name: z.string(), email: z.string().nullable() })
  .openapi('Person');
const person = personSchema;

export const commentSchema = z
  .object({
    id: z.string().openapi({ description: 'A time-ordered UUID (v7)' }),
    author: person,
    text: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Comment');

const endorsement = z
  .object({ id: z.string(), name: z.string(), email: z.string().nullable(), endorsedAt: z.string() })
  .openapi('Endorsement');

/** An uploaded file attached to an action (contract section 15). */
export const uploadedAttachmentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    uploadedBy: person,
    uploadedAt: z.string(),
    scan: z.enum(['not-scanned', 'pending', 'clean', 'threat']).openapi({
      description:
        "The malware scan: `not-scanned` where no scanner runs; `pending` until the scanner's verdict is recorded (history entry `attachment-scanned`), then `clean` or `threat`. Downloads of a `pending` file check the scanner's current result themselves.",
    }),
  })
  .openapi('UploadedAttachment');

const historyTypes = Object.keys(eventTypeOf) as [HistoryType, ...HistoryType[]];

export const historyEntrySchema = z
  .object({
    version: z.number().int().openapi({ description: 'Versions run 1, 2, 3... with no gaps' }),
    type: z.enum(historyTypes).openapi({
      description: `Each entry is also published as an event: ${Object.entries(eventTypeOf)
        .map(([type, event]) => `${event} (\`${type}\`)`)
        .join(
          ', ',
        )}. The due-date reminders (\`due-soon\`, \`overdue\`, \`escalated\`) are written by the service (actor \`system\`), once per dueAt value; so is \`attachment-scanned\`, when the malware scan of an uploaded file ends in a verdict.`,
    }),
    actor: person,
    time: z.string(),
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .optional()
      .openapi({ description: 'For `updated`: exactly the fields that changed' }),
    comment: z
      .object({
        id: z.string(),
        author: person.optional(),
        text: z.string().optional().openapi({
          description:
            "The comment's current text while it exists; absent once the comment or its action is deleted (earlier texts are not kept)",
        }),
      })
      .optional()
      .openapi({ description: 'For the comment types: which comment, and who wrote it' }),
    dueAt: z
      .string()
      .optional()
      .openapi({ description: 'For the reminders (`due-soon`, `overdue`, `escalated`): the dueAt they are about' }),
    attachment: z
      .object({
        id: z.string(),
        name: z.string(),
        contentType: z.string(),
        size: z.number().int(),
        scan: z.enum(['clean', 'threat']).optional().openapi({
          description: "For `attachment-scanned`: the malware scanner's verdict",
        }),
      })
      .optional()
      .openapi({
        description:
          'For `attachment-added`, `attachment-removed` and `attachment-scanned` (written by the service, actor `system`, when the malware scan of the file ends in a verdict): which uploaded file',
      }),
  })
  .openapi('HistoryEntry');

/** The detail of the three due-date events (contract section 10), as published on the bus. */
export const reminderEventDetailSchema = z
  .object({
    eventId: z.string(),
    id: z.string(),
    actor: person.openapi({ example: { id: 'system', name: 'Action tracking service', email: null } }),
    time: z.string(),
    version: z.number().int(),
    dueAt: z.string(),
    owner: person,
    assignee: person,
    status: z.string(),
    title: z.string(),
  })
  .openapi('ReminderEventDetail', {
    description:
      'The detail of ActionDueSoon (within DUE_SOON_HOURS of dueAt), ActionOverdue (past dueAt while open) and ActionEscalated (overdue for ESCALATE_AFTER_HOURS): each once per dueAt value of an open action, only the latest that applies when an action enters a window by a create or a change of dueAt.',
  });

export const actionViewSchema = z
  .object({
    id: z.string().openapi({ example: '3f0c7a52-8d7e-4f59-9a1c-0f4b7c1d2e3a' }),
    title: z.string(),
    description: z.string(),
    actionProducer: z.object({ name: z.string(), url: z.string().optional(), reference: z.string().optional() }),
    location: z.object(
      Object.fromEntries(locationFields.map((f) => [f, z.string()])) as Record<
        (typeof locationFields)[number],
        z.ZodString
      >,
    ),
    allowAnonymousEdits: z.boolean(),
    dueAt: z.string().openapi({ example: '2026-12-01T10:00:00.000Z', description: 'UTC, milliseconds, Z' }),
    priority: z.string().openapi({ example: '2', description: 'A non-negative integer, as a string' }),
    status: z.string().openapi({ example: '1', description: 'A non-negative integer, as a string' }),
    owner: person,
    initiator: person,
    assignee: person.openapi({ description: `Nobody assigned shows as ${JSON.stringify(UNASSIGNED)}.` }),
    endorsedBy: z
      .array(endorsement)
      .openapi({ description: `In endorsement order, at most ${actionLimits.endorsements}` }),
    attachments: z
      .array(
        z.union([
          z.object({
            url: z.string(),
            name: z.string().optional(),
            contentType: z.string().optional(),
            size: z.number().int().optional(),
          }),
          uploadedAttachmentSchema,
        ]),
      )
      .openapi({
        description:
          'Links (with `url`, sent on create or PATCH) and uploaded files (with `id`, added by POST .../attachments; a PATCH of `attachments` replaces the links and keeps them)',
      }),
    tags: z.array(z.string()),
    comments: z
      .array(commentSchema)
      .openapi({ description: `The latest ${actionLimits.latestComments} comments, oldest of them first` }),
    commentCount: z.number().int().openapi({ description: 'How many comments the action has in all' }),
    overdue: z.boolean().openapi({
      description:
        'Open (status not in CLOSED_STATUSES) and past dueAt, as of the last due-date sweep; false at once when a change closes the action or moves dueAt. Read-only.',
    }),
    createdAt: z.string().openapi({ example: '2026-11-21T09:30:00.000Z' }),
    updatedAt: z.string().openapi({ example: '2026-11-21T09:30:00.000Z' }),
    closedAt: z.string().nullable().openapi({
      example: null,
      description:
        'When the status last entered a closed status (CLOSED_STATUSES), null while open; an action created closed has its createdAt. Reopening clears it, closing again sets it. Read-only.',
    }),
    version: z.number().int().openapi({
      example: 3,
      description:
        'Moves with every change; the ETag is this number in quotes, so `If-Match: "3"` edits only this version.',
    }),
  })
  .openapi('Action');

/** True only when A and B are the same type (each assignable to the other, exactly). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_ extends true>() => undefined;
same<Same<z.output<typeof actionViewSchema>, ActionView>>();
same<Same<z.output<typeof historyEntrySchema>, HistoryEntry>>();
