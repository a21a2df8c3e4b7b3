import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { type ActionView, actionLimits, locationFields, UNASSIGNED } from './action';
import { eventTypeOf, type HistoryEntry, type HistoryType } from './history';

/**
 * What the API answers (an action as it shows it, a comment, a history entry), as zod schemas,
 * for the OpenAPI document (`lib/openapi.ts`). The domain's types are the truth; the compiler
 * holds each schema's output equal to its type in both directions (the `Same` checks below),
 * so a field added to the view or to history fails to compile until it is documented. Only the
 * document's generator imports this (no handler does), so zod-to-openapi stays out of bundles.
 */

extendZodWithOpenApi(z);

const person = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).openapi('Person');

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

const historyTypes = Object.keys(eventTypeOf) as [HistoryType, ...HistoryType[]];

export const historyEntrySchema = z
  .object({
    version: z.number().int().openapi({ description: 'Versions run 1, 2, 3... with no gaps' }),
    type: z.enum(historyTypes),
    actor: person,
    time: z.string(),
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .optional()
      .openapi({ description: 'For `updated`: exactly the fields that changed' }),
    comment: z.object({ id: z.string(), text: z.string().optional() }).optional(),
  })
  .openapi('HistoryEntry');

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
    attachments: z.array(
      z.object({
        url: z.string(),
        name: z.string().optional(),
        contentType: z.string().optional(),
        size: z.number().int().optional(),
      }),
    ),
    tags: z.array(z.string()),
    comments: z
      .array(commentSchema)
      .openapi({ description: `The latest ${actionLimits.latestComments} comments, oldest of them first` }),
    commentCount: z.number().int().openapi({ description: 'How many comments the action has in all' }),
    createdAt: z.string().openapi({ example: '2026-11-21T09:30:00.000Z' }),
    updatedAt: z.string().openapi({ example: '2026-11-21T09:30:00.000Z' }),
  })
  .openapi('Action');

/** True only when A and B are the same type (each assignable to the other, exactly). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_ extends true>() => undefined;
same<Same<z.output<typeof actionViewSchema>, ActionView>>();
same<Same<z.output<typeof historyEntrySchema>, HistoryEntry>>();
