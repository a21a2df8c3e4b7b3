import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { type RouteHandler, routes } from '../http/routes';
import { accessOperations, accessTag, accessTags } from './access';
import { actionGroups, actionOperations, actionTags } from './actions';
import { type Operation, type Operations, problem, quotaOrThrottle, throttled } from './components';
import { evidenceOperations, evidenceTag, evidenceTags } from './evidence';
import { importOperations, importsTag, importTags } from './imports';
import { notificationOperations, notificationsTag, notificationTags } from './notifications';
import { transferOperations, transferTag, transferTags } from './transfer';
import { actionViewSchema as actionView } from './view-schemas';
import { registerReminderWebhooks, webhookOperations, webhooksTag, webhookTags } from './webhooks';

/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests, the schemas
 * of what the API answers (`view-schemas.ts`, held equal to the domain's types), the field
 * catalogue that drives the filter language, and the route table that both AWS and the local
 * gateway serve. Each route's handler name is its operationId. This file assembles it: the
 * operations are described by capability in `actions.ts`, `webhooks.ts`, `access.ts`,
 * `evidence.ts` and `notifications.ts`, on what `components.ts` shares.
 */

/**
 * What each route does, keyed by its handler: a handler of the route table without an entry
 * here does not compile. Each operation's operationId is its handler's name (set below), so a
 * generated client calls `createAction`, not `postApiActions`; a handler that serves two routes
 * names the second operation itself.
 */
const operations: Operations<RouteHandler> = {
  ...notificationOperations,
  ...evidenceOperations,
  ...importOperations,
  ...transferOperations,
  ...actionOperations,
  ...webhookOperations,
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
  webhooksTag,
  notificationsTag,
  evidenceTag,
  importsTag,
  transferTag,
  accessTag,
  { name: 'This document', description: 'The API description as OpenAPI 3.1, and this page.' },
] as const;

/** The group of each route's operation, by handler: a handler without one does not compile. */
const tagOf: Record<RouteHandler, (typeof tags)[number]['name']> = {
  ...notificationTags,
  ...actionTags,
  ...webhookTags,
  ...accessTags,
  openApi: 'This document',
  docs: 'This document',
  ...evidenceTags,
  ...importTags,
  ...transferTags,
};

/** The whole document. */
export function openApiDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', problem);
  registry.register('Action', actionView);
  registerReminderWebhooks(registry);
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
