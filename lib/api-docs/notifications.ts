import * as z from 'zod';
import type { RouteDefinition } from '../http/routes';
import { emailModes } from '../notifications/preferences';
import { topics } from '../notifications/recipients';
import { type Operation, problems } from './components';

/**
 * The OpenAPI operations of telling people (contract section 16), registered from `openapi.ts`:
 * the caller's notification preferences and the one-click unsubscribe link of every email.
 */

const preferences = z
  .object({
    email: z.enum(emailModes).openapi({
      description:
        '`immediately`: one email per event; `daily`: one digest a day at `digestHour` in `timeZone`, listing what happened and what is overdue; `off`: no email.',
    }),
    events: z
      .object(
        Object.fromEntries(topics.map((topic) => [topic, z.boolean()])) as Record<
          (typeof topics)[number],
          z.ZodBoolean
        >,
      )
      .openapi({
        description:
          'What to be told of: `assigned` (someone else assigns you), `dueSoon` and `overdue` (assigned to you, or yours and unassigned), `escalated` (yours or assigned to you), `comments` and `status` (someone else comments on, or changes the status of, an action you own or are assigned to).',
      }),
    timeZone: z.string().openapi({
      description: 'An IANA time zone name: times in emails, and the digest hour, are in it.',
      example: 'Australia/Perth',
    }),
    digestHour: z
      .number()
      .int()
      .min(0)
      .max(23)
      .openapi({ description: 'The hour (0-23, in `timeZone`) of the daily digest.' }),
  })
  .openapi('NotificationPreferences', {
    description: 'Defaults: immediately, every event on, UTC, 7.',
  });

const patch = z
  .object({
    email: z.enum(emailModes).nullable(),
    events: z.record(z.enum(topics), z.boolean().nullable()).nullable(),
    timeZone: z.string().nullable(),
    digestHour: z.number().int().min(0).max(23).nullable(),
  })
  .partial()
  .openapi({ description: 'A JSON merge patch (RFC 7396); `null` resets a field to its default.' });

/** The operations, by handler. */
export const notificationOperations = {
  getNotificationPreferences: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'Get my notification preferences',
    description: 'What email the caller gets, and when. Email goes only to the verified address of their own token.',
    responses: {
      200: { description: 'The preferences', content: { 'application/json': { schema: preferences } } },
      ...problems(401, 503),
    },
  }),
  updateNotificationPreferences: (r: RouteDefinition): Operation => ({
    method: 'patch',
    path: r.path,
    summary: 'Change my notification preferences',
    request: {
      body: {
        content: { 'application/merge-patch+json': { schema: patch }, 'application/json': { schema: patch } },
      },
    },
    responses: {
      200: { description: 'The preferences now', content: { 'application/json': { schema: preferences } } },
      ...problems(400, 401, 413, 415, 503),
    },
  }),
  unsubscribeNotifications: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Unsubscribe from every email, one click',
    description:
      "The `List-Unsubscribe` URL of every email (RFC 8058: a mail program POSTs `List-Unsubscribe=One-Click` to it). Turns the person's email off; no token needed, the link's own secret decides. A wrong link is a 404.",
    security: [],
    request: { query: z.object({ person: z.string(), token: z.string() }) },
    responses: { 204: { description: 'Email is off' }, ...problems(400, 404, 503) },
  }),
};

/** Their group on the docs page. */
export const notificationsTag = {
  name: 'Notifications',
  description: 'What email you get about the actions you own and are assigned to, and when.',
} as const;

export const notificationTags = {
  getNotificationPreferences: notificationsTag.name,
  updateNotificationPreferences: notificationsTag.name,
  unsubscribeNotifications: notificationsTag.name,
} as const;
