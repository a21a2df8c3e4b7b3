/**
 * Every HTTP route, once. The CDK construct deploys exactly these behind API Gateway and the
 * local gateway serves exactly these, so no route exists only locally or only in AWS.
 */

/**
 * DynamoDB calls a handler makes; the construct grants exactly these. Writes go through
 * TransactWriteItems, which IAM authorizes item by item as PutItem, UpdateItem and DeleteItem.
 * `Query` is granted on the table (threads and counters) and its indexes (lists).
 */
export type TableAccess = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'BatchGetItem';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The handler module under `functions/`. */
  handler: string;
  /** What the handler may do to the table. */
  access: readonly TableAccess[];
  /** Public routes skip the authorizer. */
  public?: boolean;
}

/** What every write of an action needs: read it, then write it, its history and counters in one transaction. */
const WRITE: readonly TableAccess[] = ['GetItem', 'PutItem', 'UpdateItem'];

/**
 * The table itself, kept literal (`as const satisfies`) so the handler names are a type:
 * `lib/openapi.ts` must document each one, or it does not compile.
 */
const routeTable = [
  { method: 'POST', path: '/api/actions', handler: 'createAction', access: WRITE },
  { method: 'GET', path: '/api/actions', handler: 'listActions', access: ['Query', 'BatchGetItem'] },
  { method: 'GET', path: '/api/actions/{id}', handler: 'getAction', access: ['GetItem'] },
  { method: 'PATCH', path: '/api/actions/{id}', handler: 'updateAction', access: WRITE },
  { method: 'DELETE', path: '/api/actions/{id}', handler: 'deleteAction', access: WRITE },
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
  { method: 'GET', path: '/api/actions/{id}/history', handler: 'getHistory', access: ['Query'] },
  { method: 'GET', path: '/api/changes', handler: 'listChanges', access: ['Query'] },
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

/** The table's stream consumer: publishes each history entry as an event; it alone may put events. */
export const streamFunction = { handler: 'publishEvents' } as const;

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
