import { extendZodWithOpenApi, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { problemTypeBase } from '../errors';
import { threadLimits } from '../filter/page-query';
import { MAX_BODY_BYTES } from '../http/limits';
import type { RouteDefinition, RouteHandler } from '../http/routes';

/**
 * What every part of the OpenAPI document shares: the problem+json answers, the 429s, a JSON
 * body, the paging parameters of a thread. The files that describe operations (`actions.ts`,
 * `webhooks.ts`, `access.ts`, ...) import these; `openapi.ts` assembles the document.
 */

// Before any schema here calls `.openapi`; every describing file imports this one.
extendZodWithOpenApi(z);

/** An operation as described here: its operationId is the handler's name unless it sets one. */
export type Operation = Omit<Parameters<OpenAPIRegistry['registerPath']>[0], 'operationId'> & {
  operationId?: string;
};

/** Operations by the handler of their route. */
export type Operations<H extends RouteHandler> = { [K in H]: (route: RouteDefinition) => Operation };

/** The body of every error answer. */
export const problem = z
  .object({
    type: z.string().openapi({ example: `${problemTypeBase}validation-error` }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z
      .array(z.object({ parameter: z.string().optional(), field: z.string().optional(), message: z.string() }))
      .max(20)
      .optional()
      .openapi({ description: 'At most 20; detail says how many more there were.' }),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details' });

/** The problem+json answers of these statuses, each with what it means here. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/problem+json': { schema: problem } },
      },
    ]),
  );

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid; `errors` names each parameter or field.',
  401: 'A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from.',
  403: 'Not allowed for this caller.',
  404: 'No such action (or comment, or webhook subscription of the caller).',
  409: 'The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed.',
  422: 'The Idempotency-Key was used with another request (method, path or body).',
  412: 'If-Match does not match the current version; the ETag header carries the current one.',
  413: `The body is larger than ${MAX_BODY_BYTES} bytes.`,
  415: 'The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8.',
  429: 'The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done.',
  503: 'The store is busy or unreachable; see Retry-After.',
};

/**
 * In AWS, API Gateway answers any route with 429 when the stage's throttle (the construct's
 * `throttle` prop) is exceeded, before the service sees the request: its own small JSON body,
 * not a problem. The local stack has no throttle.
 */
export const throttled = {
  429: {
    description: "Too many requests: the API's throttle (AWS only). Retry later.",
    content: {
      'application/json': { schema: z.object({ message: z.string().openapi({ example: 'Too Many Requests' }) }) },
    },
  },
};

/** 429 on an authenticated route: past the caller's quota (a problem), or, in AWS, the API's throttle. */
export const quotaOrThrottle = {
  429: {
    description: `${PROBLEM_DESCRIPTIONS[429]} In AWS the API's throttle also answers 429, with its own small JSON body.`,
    content: { 'application/problem+json': { schema: problem }, ...throttled[429].content },
  },
};

/** A request body of this schema, under each of these media types. */
export const jsonBody = (schema: z.ZodType, types = ['application/json']) => ({
  content: Object.fromEntries(types.map((t) => [t, { schema }])),
});

/**
 * The 200 answer of every paged list: its items under `key`, what the list adds beside them
 * (`more`), then `nextCursor`. Unless the list says otherwise, `nextCursor` is absent on the last
 * page, and the description says so; the change feed's is always there, the actions list's
 * carries its own words, so they pass their own.
 */
export const pageResponse = (
  description: string,
  key: string,
  item: z.ZodType,
  { more = {}, nextCursor }: { more?: z.ZodRawShape; nextCursor?: z.ZodType } = {},
) => ({
  description: nextCursor ? description : `${description}; nextCursor is absent on the last page`,
  content: {
    'application/json': {
      schema: z.object({ [key]: z.array(item), ...more, nextCursor: nextCursor ?? z.string().optional() }),
    },
  },
});

/** Paging through one thread: comments, history, deliveries. */
export const threadParameters = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(threadLimits.maxLimit)
    .default(threadLimits.defaultLimit)
    .optional()
    .openapi({ description: `Entries per page (default ${threadLimits.defaultLimit})` }),
  cursor: z.string().optional().openapi({
    description:
      'The `nextCursor` of the previous page; opaque (sealed), valid for this action and the caller it was given to only',
  }),
});
