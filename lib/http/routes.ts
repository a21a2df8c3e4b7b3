import { evidenceRoutes, type StorageAccess } from './evidence-routes';
import { importFunction, importRoutes } from './import-routes';
import { exportRoutes, exportWorker } from './export-routes';
import { notificationFunctions, notificationRoutes } from './notification-routes';

/**
 * Every HTTP route, once. The CDK construct deploys exactly these behind API Gateway and the
 * local gateway serves exactly these, so no route exists only locally or only in AWS.
 */

/**
 * DynamoDB calls a handler makes; the construct grants exactly these. Writes go through
 * TransactWriteItems, which IAM authorizes item by item as PutItem, UpdateItem and DeleteItem.
 * `Query` is granted on the table (threads and counters) and its indexes (lists).
 */
export type TableAccess =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  /** `Query` on the table itself, not its indexes: a partition read by key (a caller's grants). */
  | 'QueryTable'
  | 'BatchGetItem'
  | 'BatchWriteItem';

/** DynamoDB calls a handler makes on the search postings' table (`lib/store/search/postings.ts`). */
export type PostingsAccess = 'Query' | 'BatchWriteItem';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The handler module under `functions/`. */
  handler: string;
  /** What the handler may do to the table. */
  access: readonly TableAccess[];
  /** What it may do to the search postings' table: a list's search queries them. */
  postings?: readonly PostingsAccess[];
  /** Public routes skip the authorizer. */
  public?: boolean;
  /** What the handler may do to the evidence bucket (`evidence-routes.ts`). */
  storage?: readonly StorageAccess[];
}

/**
 * What every authenticated route needs besides its own calls: one `UpdateItem` of the caller's
 * quota window (lib/store/quotas.ts), and the edge's `GetItem` and `UpdateItem` of the person it
 * remembers and `Query` of their grants' partitions (lib/access/viewer.ts). The construct adds these to every
 * route that is not public.
 */
export const EDGE_ACCESS: readonly TableAccess[] = ['UpdateItem', 'GetItem', 'QueryTable'];

/** What every write of an action needs: read it, then write it, its history and counters in one transaction. */
const WRITE: readonly TableAccess[] = ['GetItem', 'PutItem', 'UpdateItem'];

/** Section 14's routes: grants and the caller's own view of their access. */
const accessRoutes = [
  { method: 'POST', path: '/api/grants', handler: 'createGrant', access: ['GetItem', 'PutItem'] },
  { method: 'GET', path: '/api/grants', handler: 'listGrants', access: ['QueryTable'] },
  { method: 'DELETE', path: '/api/grants/{id}', handler: 'deleteGrant', access: ['GetItem', 'DeleteItem'] },
  { method: 'GET', path: '/api/me', handler: 'getMe', access: ['QueryTable'] },
] as const satisfies readonly RouteDefinition[];

/**
 * The table itself, kept literal (`as const satisfies`) so the handler names are a type:
 * `lib/api-docs/openapi.ts` must document each one, or it does not compile.
 */
const routeTable = [
  { method: 'POST', path: '/api/actions', handler: 'createAction', access: WRITE },
  {
    method: 'GET',
    path: '/api/actions',
    handler: 'listActions',
    access: ['Query', 'BatchGetItem'],
    postings: ['Query'],
  },
  // Before `/api/actions/{id}`: the first route that matches serves (as API Gateway prefers a literal path).
  // It reads the trend counters and day ends (`QueryTable`) and, for today, counts as the list does.
  {
    method: 'GET',
    path: '/api/actions/trends',
    handler: 'getTrends',
    access: ['Query', 'BatchGetItem'],
    postings: ['Query'],
  },
  // Before `/api/actions/{id}`: the local gateway takes the first route that matches (API Gateway, the most specific).
  {
    method: 'GET',
    path: '/api/actions/counts',
    handler: 'countActions',
    access: ['Query', 'BatchGetItem'],
    postings: ['Query'],
  },
  { method: 'GET', path: '/api/actions/{id}', handler: 'getAction', access: ['GetItem'] },
  { method: 'PATCH', path: '/api/actions/{id}', handler: 'updateAction', access: WRITE },
  // A delete's transaction also deletes the action's entry in reference order (`lib/store/reference-order.ts`).
  { method: 'DELETE', path: '/api/actions/{id}', handler: 'deleteAction', access: [...WRITE, 'DeleteItem'] },
  { method: 'POST', path: '/api/actions/{id}/comments', handler: 'addComment', access: WRITE },
  { method: 'GET', path: '/api/actions/{id}/comments', handler: 'listComments', access: ['GetItem', 'Query'] },
  { method: 'PATCH', path: '/api/actions/{id}/comments/{commentId}', handler: 'editComment', access: WRITE },
  {
    method: 'DELETE',
    path: '/api/actions/{id}/comments/{commentId}',
    handler: 'deleteComment',
    access: [...WRITE, 'DeleteItem', 'Query'],
  },
  { method: 'PUT', path: '/api/actions/{id}/endorsements/me', handler: 'endorseAction', access: WRITE },
  { method: 'DELETE', path: '/api/actions/{id}/endorsements/me', handler: 'withdrawEndorsement', access: WRITE },
  {
    method: 'GET',
    path: '/api/actions/{id}/history',
    handler: 'getHistory',
    access: ['GetItem', 'Query', 'BatchGetItem'],
  },
  { method: 'POST', path: '/api/webhooks', handler: 'createWebhook', access: ['PutItem', 'UpdateItem'] },
  { method: 'GET', path: '/api/webhooks', handler: 'listWebhooks', access: ['Query'] },
  { method: 'GET', path: '/api/webhooks/{id}', handler: 'getWebhook', access: ['GetItem'] },
  { method: 'PATCH', path: '/api/webhooks/{id}', handler: 'updateWebhook', access: ['GetItem', 'UpdateItem'] },
  {
    method: 'DELETE',
    path: '/api/webhooks/{id}',
    handler: 'deleteWebhook',
    access: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/secret',
    handler: 'rotateWebhookSecret',
    access: ['GetItem', 'UpdateItem'],
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/ping',
    handler: 'pingWebhook',
    // Put: the delivery, its due attempt and the request counter; Update: its queue's marker.
    access: ['GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries',
    handler: 'listWebhookDeliveries',
    access: ['GetItem', 'Query'],
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'redeliverWebhook',
    access: ['GetItem', 'PutItem', 'UpdateItem'],
  },
  ...evidenceRoutes,
  ...importRoutes,
  ...exportRoutes,
  { method: 'GET', path: '/api/changes', handler: 'listChanges', access: ['Query', 'BatchGetItem'] },
  ...notificationRoutes,
  ...accessRoutes,
  { method: 'GET', path: '/api/openapi.json', handler: 'openApi', access: [], public: true },
  { method: 'GET', path: '/docs', handler: 'docs', access: [], public: true },
  { method: 'GET', path: '/docs/{file}', handler: 'docs', access: [], public: true },
] as const satisfies readonly RouteDefinition[];

/** The name of every handler the route table serves. */
export type RouteHandler = (typeof routeTable)[number]['handler'];

/** Every route; `handler` is one of the table's own names. */
export const routes: readonly (RouteDefinition & { handler: RouteHandler })[] = routeTable;

/** Answers requests no route matches (API Gateway's `$default` route). */
export const fallbackRoute = { handler: 'notFound' } as const;

/**
 * The event-driven entry point: SQS batches of `ActionRequested` events. A record the function
 * reports as failed (an invalid event, or a store that answered "busy") is received again, up to
 * `maxReceives` times in all, then moved to the dead-letter queue.
 */
export const ingestFunction = { handler: 'ingestActions', access: WRITE, maxReceives: 3 };

/**
 * The due-date sweep, run on a schedule: reads its queue (one index, `reminders-by-due`) and
 * writes reminders as every change is written (read the action, one transaction). Once a day it
 * also records open and overdue per location prefix from the counters (`QueryTable`) and puts
 * them (`lib/store/trends/day-ends.ts`).
 */
export const sweepFunction = {
  handler: 'sweepDueDates',
  access: [...WRITE, 'QueryTable'],
  queries: 'reminders-by-due',
} as const satisfies { handler: string; access: readonly TableAccess[]; queries: string };

/**
 * The table's stream consumer: publishes each history entry as an event (it alone may put
 * events), and writes the search postings of creates, title edits and deletes: it reads and
 * removes their pending marks on the table and writes postings in batches to the postings' table
 * (`lib/store/search/postings.ts`). It also keeps the trend counters: one transaction an entry,
 * a marker put and the day counters' ADDs (`lib/store/trends/trend-counters.ts`).
 */
export const streamFunction = {
  handler: 'publishEvents',
  access: ['GetItem', 'DeleteItem', 'PutItem', 'UpdateItem'],
  postings: ['BatchWriteItem'],
} as const satisfies { handler: string; access: readonly TableAccess[]; postings: readonly PostingsAccess[] };

/**
 * Records GuardDuty's malware scan verdicts on attached files (contract section 15), run by a rule
 * on the account's default bus: reads the action and writes the change as every change is written.
 */
export const scanResultFunction = { handler: 'recordScanResults', access: WRITE } as const;

/** What delivering webhooks does to the table: subscriptions, deliveries and the attempts due. */
const DELIVER: readonly TableAccess[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'];

/**
 * Webhook delivery (contract section 9): `deliver` reads the published events from a queue fed
 * by a rule on the bus and makes each first attempt; `sweep` runs every minute and, for most of
 * it, claims and runs the attempts due (retries, redeliveries, pings) every second.
 */
export const webhookFunctions = {
  deliver: { handler: 'deliverWebhooks', access: DELIVER },
  sweep: { handler: 'sweepWebhooks', access: DELIVER },
} as const;

/** Every function the service deploys, once: each route's handler and the functions no route calls. */
export const functionHandlers: readonly string[] = [
  ...new Set<string>([
    ...routes.map((r) => r.handler),
    fallbackRoute.handler,
    ingestFunction.handler,
    streamFunction.handler,
    sweepFunction.handler,
    scanResultFunction.handler,
    webhookFunctions.deliver.handler,
    webhookFunctions.sweep.handler,
    exportWorker.handler,
    ...Object.values(notificationFunctions).map((f) => f.handler),
    importFunction.handler,
  ]),
];

/** Matches a request path against a route path such as `/api/actions/{id}`. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1, -1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}
