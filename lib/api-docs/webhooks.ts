import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import type { RouteHandler } from '../http/routes';
import { webhookCreateSchema, webhookPatchSchema } from '../webhooks/subscription-bodies';
import { MAX_SUBSCRIPTIONS, webhookEventTypes } from '../webhooks/subscriptions';
import { jsonBody, type Operations, pageResponse, problems, threadParameters } from './components';
import { personSchema as person, reminderEventDetailSchema } from './view-schemas';

/**
 * Webhooks in the OpenAPI document (contract section 9): the subscriptions API, its delivery
 * log, and the due-date reminders as the calls a receiver gets. Registered from `openapi.ts`.
 */

const webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z
      .array(z.string())
      .openapi({ description: `Event types, or ["*"] for all: ${webhookEventTypes.join(', ')}` }),
    description: z.string(),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .optional()
      .openapi({ description: 'Why the service disabled it (410 Gone, or 5 days of failures)' }),
    createdAt: z.string(),
    owner: person,
  })
  .openapi('Webhook');

const webhookParameter = z.object({ id: z.string() });

const delivery = z
  .object({
    id: z.string().openapi({ description: 'Time-ordered (UUIDv7 at the event time)' }),
    eventId: z.string().openapi({ description: 'The webhook-id header of every attempt' }),
    type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(
      z.object({
        at: z.string(),
        durationMs: z.number().int(),
        responseStatus: z.number().int().optional(),
        error: z.string().optional().openapi({
          description:
            'Why the attempt failed: connection failed, timed out, TLS failed, address not allowed, or HTTP <status> for an answer outside 2xx',
        }),
      }),
    ),
    nextAttemptAt: z.string().optional(),
  })
  .openapi('WebhookDelivery');

const WEBHOOK_DELIVERY = `Each published event whose type the subscription names is POSTed to its url per Standard Webhooks 1.0: body {type, timestamp, data}; headers webhook-id (the event id, the same on every retry and redelivery), webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256>; two, space separated, for 24 hours after a rotation). Success is a 2xx within 10 seconds; redirects are not followed. Retries after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 Gone disables the subscription, and so do 5 days of failures. Only public addresses are reached (unless the deployment sets WEBHOOKS_ALLOW_PRIVATE=true).`;

/** The operations, by handler. */
export const webhookOperations = {
  createWebhook: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Create a webhook subscription',
    description: `Any signed-in caller, at most ${MAX_SUBSCRIPTIONS} subscriptions (409 past that). url: absolute https URL, at most 2,000 characters, no user or password, not a private, loopback or link-local host. events: default ["*"]. The secret (whsec_ + base64 of 32 bytes) is shown only here and on rotation. ${WEBHOOK_DELIVERY}`,
    request: { body: jsonBody(webhookCreateSchema) },
    responses: {
      201: {
        description: 'The subscription and its secret; Location names it',
        content: { 'application/json': { schema: webhook.extend({ secret: z.string() }) } },
      },
      ...problems(400, 401, 409, 413, 415, 503),
    },
  }),
  listWebhooks: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'List webhook subscriptions',
    description: "The caller's own, never with a secret.",
    responses: {
      200: {
        description: 'Every subscription of the caller',
        content: { 'application/json': { schema: z.object({ webhooks: z.array(webhook) }) } },
      },
      ...problems(401, 503),
    },
  }),
  getWebhook: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Get a webhook subscription',
    description: 'Its owner only; 404 to anyone else.',
    request: { params: webhookParameter },
    responses: {
      200: { description: 'The subscription', content: { 'application/json': { schema: webhook } } },
      ...problems(401, 404, 503),
    },
  }),
  updateWebhook: (r) => ({
    method: 'patch',
    path: r.path,
    summary: 'Edit a webhook subscription',
    description:
      'A JSON merge patch; its owner only. url, events, description (null clears it) and enabled. After enabled: false nothing more is sent; enabling again clears disabledReason.',
    request: {
      params: webhookParameter,
      body: jsonBody(webhookPatchSchema, ['application/merge-patch+json', 'application/json']),
    },
    responses: {
      200: { description: 'The subscription', content: { 'application/json': { schema: webhook } } },
      ...problems(400, 401, 404, 413, 415, 503),
    },
  }),
  deleteWebhook: (r) => ({
    method: 'delete',
    path: r.path,
    summary: 'Delete a webhook subscription',
    description: 'Its owner only; nothing more is sent to it.',
    request: { params: webhookParameter },
    responses: { 204: { description: 'Deleted' }, ...problems(401, 404, 503) },
  }),
  rotateWebhookSecret: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Rotate the signing secret',
    description: 'A new secret; for 24 hours every delivery carries the new and the old signature.',
    request: { params: webhookParameter },
    responses: {
      200: {
        description: 'The new secret',
        content: { 'application/json': { schema: z.object({ secret: z.string() }) } },
      },
      ...problems(401, 404, 503),
    },
  }),
  pingWebhook: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Send a test ping',
    description:
      'One WebhookPing delivery to this endpoint alone. Redeliveries and pings of one subscription: at most 30 in any 10 minutes (past that a 429 problem+json with Retry-After).',
    request: { params: webhookParameter },
    responses: {
      202: {
        description: 'The ping is on its way; see the delivery log',
        content: { 'application/json': { schema: z.object({ deliveryId: z.string() }) } },
      },
      ...problems(401, 404, 409, 503),
    },
  }),
  listWebhookDeliveries: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'List deliveries',
    description: 'The delivery log of the last 30 days, newest first, in pages.',
    request: { params: webhookParameter, query: threadParameters },
    responses: {
      200: pageResponse('A page of deliveries with their attempts', 'deliveries', delivery),
      ...problems(400, 401, 404, 503),
    },
  }),
  redeliverWebhook: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Redeliver',
    description:
      'Attempt the delivery again now, with the same webhook-id. Redeliveries and pings of one subscription: at most 30 in any 10 minutes (past that a 429 problem+json with Retry-After).',
    request: { params: z.object({ id: z.string(), deliveryId: z.string() }) },
    responses: { 202: { description: 'The attempt is on its way' }, ...problems(401, 404, 409, 503) },
  }),
} satisfies Partial<Operations<RouteHandler>>;

/** Their group on the docs page. */
export const webhooksTag = {
  name: 'Webhooks',
  description: 'Every change and reminder posted to your own endpoint, signed (Standard Webhooks 1.0).',
} as const;

/** The group of each operation here. */
export const webhookTags = {
  createWebhook: webhooksTag.name,
  listWebhooks: webhooksTag.name,
  getWebhook: webhooksTag.name,
  updateWebhook: webhooksTag.name,
  deleteWebhook: webhooksTag.name,
  rotateWebhookSecret: webhooksTag.name,
  pingWebhook: webhooksTag.name,
  listWebhookDeliveries: webhooksTag.name,
  redeliverWebhook: webhooksTag.name,
} as const;

/** What a receiver scans for in the reminders it may be sent. */
const reminderSummaries = {
  ActionDueSoon: 'Received when an action is due soon',
  ActionOverdue: 'Received when an action is overdue',
  ActionEscalated: 'Received when an overdue action is escalated',
} as const;

/** The due-date reminders as the calls a webhook receiver gets (OpenAPI 3.1 `webhooks`). */
export function registerReminderWebhooks(registry: OpenAPIRegistry): void {
  for (const type of ['ActionDueSoon', 'ActionOverdue', 'ActionEscalated'] as const) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on${type}`,
      tags: [webhooksTag.name],
      summary: reminderSummaries[type],
      description: `${type}, as a webhook delivery your endpoint receives (Standard Webhooks 1.0: webhook-id, webhook-timestamp, webhook-signature).`,
      security: [],
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({ type: z.literal(type), timestamp: z.string(), data: reminderEventDetailSchema }),
            },
          },
        },
      },
      responses: {
        204: { description: 'Any 2xx within 10 seconds is a success' },
        410: { description: 'Gone: the subscription is disabled at once' },
      },
    });
  }
}
