/**
 * Every HTTP route, once. The CDK construct deploys exactly these behind API Gateway and the
 * local gateway serves exactly these, so no route exists only locally or only in AWS.
 */

/** DynamoDB calls a handler makes; the construct grants exactly these. */
export type TableAccess = 'GetItem' | 'PutItem' | 'Query' | 'BatchGetItem';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** The handler module under `functions/`. */
  handler: string;
  /** What the handler may do to the table; `Query` is granted on the indexes only. */
  access: readonly TableAccess[];
  /** Whether it publishes change events. */
  publishes: boolean;
  /** Public routes skip the authorizer. */
  public?: boolean;
}

export const routes: readonly RouteDefinition[] = [
  { method: 'POST', path: '/api/actions', handler: 'createAction', access: ['PutItem'], publishes: true },
  { method: 'GET', path: '/api/actions', handler: 'listActions', access: ['Query', 'BatchGetItem'], publishes: false },
  { method: 'GET', path: '/api/actions/{id}', handler: 'getAction', access: ['GetItem'], publishes: false },
  {
    method: 'PATCH',
    path: '/api/actions/{id}',
    handler: 'updateAction',
    access: ['GetItem', 'PutItem'],
    publishes: true,
  },
  {
    method: 'DELETE',
    path: '/api/actions/{id}',
    handler: 'deleteAction',
    access: ['GetItem', 'PutItem'],
    publishes: true,
  },
  { method: 'GET', path: '/api/openapi.json', handler: 'openApi', access: [], publishes: false, public: true },
  { method: 'GET', path: '/docs', handler: 'docs', access: [], publishes: false, public: true },
  { method: 'GET', path: '/docs/{file}', handler: 'docs', access: [], publishes: false, public: true },
];

/** Answers requests no route matches (API Gateway's `$default` route). */
export const fallbackRoute = { handler: 'notFound' } as const;

/** The event-driven entry point: SQS batches of `ActionRequested` events. */
export const ingestFunction = {
  handler: 'ingestActions',
  access: ['PutItem'] as readonly TableAccess[],
  publishes: true,
};

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
