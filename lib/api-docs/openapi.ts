import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { type RouteHandler, routes } from '../http/routes';
import {
  MAX_SUBSCRIPTIONS,
  webhookCreateSchema,
  webhookEventTypes,
  webhookPatchSchema,
} from '../webhooks/subscriptions';
import { accessOperations, accessTag, accessTags } from './access';
import { actionGroups, actionOperations, actionTags } from './actions';
import {
  jsonBody,
  type Operation,
  type Operations,
  problem,
  problems,
  quotaOrThrottle,
  threadParameters,
  throttled,
} from './components';
import { evidenceOperations, evidenceTag } from './evidence';
import { notificationOperations, notificationsTag, notificationTags } from './notifications';
import { actionViewSchema as actionView, personSchema as person, reminderEventDetailSchema } from './view-schemas';

/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests, the schemas
 * of what the API answers (`view-schemas.ts`, held equal to the domain's types), the field
 * catalogue that drives the filter language, and the route table that both AWS and the local
 * gateway serve. Each route's handler name is its operationId.
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

/**
 * What each route does, keyed by its handler: a handler of the route table without an entry
 * here does not compile. Each operation's operationId is its handler's name (set below), so a
 * generated client calls `createAction`, not `postApiActions`; a handler that serves two routes
 * names the second operation itself.
 */
const operations: Operations<RouteHandler> = {
  ...notificationOperations,
  ...evidenceOperations,
  ...actionOperations,
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
      200: {
        description: 'A page of deliveries with their attempts; nextCursor is absent on the last page',
        content: {
          'application/json': {
            schema: z.object({ deliveries: z.array(delivery), nextCursor: z.string().optional() }),
          },
        },
      },
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
  openApi: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Get the OpenAPI document',
    security: [],
    responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: z.object({}) } } } },
  }),
  ...accessOperations,
  docs: (r): Operation => {
    const base = {
      method: 'get' as const,
      path: r.path,
      summary: 'Open the documentation page',
      security: [],
    };
    if (!r.path.includes('{file}'))
      return {
        ...base,
        responses: { 200: { description: 'The HTML page', content: { 'text/html': { schema: z.string() } } } },
      };
    return {
      ...base,
      operationId: 'docsFile',
      summary: 'Get a file of the documentation page',
      request: { params: z.object({ file: z.string() }) },
      responses: {
        200: { description: 'A file of the page', content: { '*/*': { schema: z.string() } } },
        404: {
          description: 'No documentation file has that name.',
          content: { 'application/problem+json': { schema: problem } },
        },
      },
    };
  },
};

/** The groups of the docs page, in the order a newcomer reads them, each with its one line. */
const tags = [
  ...actionGroups,
  {
    name: 'Webhooks',
    description: 'Every change and reminder posted to your own endpoint, signed (Standard Webhooks 1.0).',
  },
  notificationsTag,
  evidenceTag,
  accessTag,
  { name: 'This document', description: 'The API description as OpenAPI 3.1, and this page.' },
] as const;

/** The group of each route's operation, by handler: a handler without one does not compile. */
const tagOf: Record<RouteHandler, (typeof tags)[number]['name']> = {
  ...notificationTags,
  ...actionTags,
  createWebhook: 'Webhooks',
  listWebhooks: 'Webhooks',
  getWebhook: 'Webhooks',
  updateWebhook: 'Webhooks',
  deleteWebhook: 'Webhooks',
  rotateWebhookSecret: 'Webhooks',
  pingWebhook: 'Webhooks',
  listWebhookDeliveries: 'Webhooks',
  redeliverWebhook: 'Webhooks',
  ...accessTags,
  openApi: 'This document',
  docs: 'This document',
  ...{ createUpload: 'Evidence', attachUpload: 'Evidence', getAttachment: 'Evidence', deleteAttachment: 'Evidence' },
};

/** What a receiver scans for in the reminders it may be sent. */
const reminderSummaries = {
  ActionDueSoon: 'Received when an action is due soon',
  ActionOverdue: 'Received when an action is overdue',
  ActionEscalated: 'Received when an overdue action is escalated',
} as const;

/** The whole document. */
export function openApiDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', problem);
  registry.register('Action', actionView);
  // The due-date reminders as the calls a webhook receiver gets (OpenAPI 3.1 `webhooks`).
  for (const type of ['ActionDueSoon', 'ActionOverdue', 'ActionEscalated'] as const) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on${type}`,
      tags: ['Webhooks'],
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
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A Cognito ID token (locally: `npm run --silent token`).',
  });
  const operationIds = new Set<string>();
  for (const route of routes) {
    const operation = operations[route.handler](route);
    const operationId = operation.operationId ?? route.handler;
    if (operationIds.has(operationId)) throw new Error(`Two operations are called ${operationId}`);
    operationIds.add(operationId);
    // Every authenticated route also counts against the caller's quotas (lib/http/quotas.ts).
    const limited = route.public ? throttled : quotaOrThrottle;
    registry.registerPath({
      ...operation,
      operationId,
      tags: [tagOf[route.handler]],
      responses: { ...operation.responses, ...limited },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Action tracking service',
      version: '1.0.0',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Safety, maintenance and quality actions: create, list with filters, paging and sorting, and edit under the owner/assignee rule. Every error is application/problem+json. Each caller has a quota of requests and of index entries read a minute; every authenticated answer carries the RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10) of the quota nearest to running out ("requests", or "reads" counted in index entries), and past a quota the answer is 429 with Retry-After.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [...tags],
  }) as unknown as Record<string, unknown>;
}
