import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { viewerOf } from '../access/viewer';
import { getConfig } from '../config';
import {
  HttpError,
  internalProblem,
  PayloadTooLargeError,
  toProblem,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors';
import { settleAll } from '../flow/fan-out';
import { appendLogKeys, enterLogContext, errorFields, logger, logKey } from '../logger';
import type { Viewer } from '../model/access';
import type { Person } from '../model/action';
import { loadCursorKey } from '../store/cursor-key';
import { rememberCaller } from '../store/people';
import { BudgetSpent, readsForPage } from '../store/query/budget';
import { newUsage, type Usage } from '../usage';
import { authenticate } from './auth';
import { MAX_BODY_BYTES } from './limits';
import { type BodyKind, mediaTypeProblem } from './media-type';
import { admit, charge, type QuotaState, quotaHeaders, readsSpent, reserveMore } from './quotas';
import { responseHeaders } from './response-headers';

/**
 * The HTTP edge shared by every API handler: correlation ids and access logs, authentication,
 * per-caller quotas, body limits and parsing, and one place that turns any error into problem+json.
 */

export interface ApiEvent extends Omit<APIGatewayProxyEventV2, 'body'> {
  /** The authenticated caller (absent only on public routes). */
  caller: Person;
  /** The caller's Cognito groups (the token's `cognito:groups`); absent only on public routes. */
  groups: readonly string[];
  /** The caller as the access decision sees them (`rightsOver`, lib/model/access.ts); absent only on public routes. */
  viewer: Viewer;
  /** The parsed JSON body, on routes that take one. */
  body: unknown;
  /**
   * What the request may read and has read, for the caller's read quota: the use cases that read
   * lists make each list's budget from it (`requestBudget`), and the quota charges it at the end.
   */
  usage: Usage;
}

/** What a handler returns: `body` is serialized as JSON. */
export interface ApiResponse {
  statusCode: number;
  headers?: Record<string, string>;
  body?: unknown;
}

type Middleware = MiddlewareObj<ApiEvent, ApiResponse, Error, Context>;

export const json = (statusCode: number, body?: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  statusCode,
  headers,
  body,
});

/**
 * A client's correlation id is kept only when it is short and plain: it goes into every log line,
 * so anything else (8,000 characters, line breaks, JSON) is replaced by a fresh id.
 */
const PLAIN_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const correlationIdOf = (event: ApiEvent): string => {
  const sent = event.headers?.['x-correlation-id'];
  return sent !== undefined && PLAIN_CORRELATION_ID.test(sent)
    ? sent
    : (event.requestContext?.requestId ?? randomUUID());
};

/** Where a request's quota state waits for the end of the request. */
interface Metered {
  state?: QuotaState;
}
const metered = (request: { internal: Record<string, unknown> }): Metered => {
  request.internal.quota ??= {};
  return request.internal.quota as Metered;
};

/** Correlation id (echoed in the response, so a client can quote it) and the access log line. */
const correlation = (): Middleware => ({
  before: (request) => {
    const event = request.event;
    // Synchronous on purpose: entering the context here carries it through the rest of this request.
    enterLogContext({
      correlationId: correlationIdOf(event),
      method: event.requestContext?.http?.method,
      path: event.rawPath,
      startedAt: Date.now(),
    });
    // What the request reads, for the read quota (the quota's hook sets its allowance).
    event.usage = newUsage();
  },
  after: (request) => finish(request.response, 200),
  onError: (request) => finish(request.response, 500),
});

function finish(response: ApiResponse | null | undefined, fallbackStatus: number) {
  if (response) response.headers = { ...response.headers, 'x-correlation-id': String(logKey('correlationId')) };
  logAccess(response?.statusCode ?? fallbackStatus);
}

function logAccess(status: number) {
  const began = logKey('startedAt');
  logger.info('request completed', { status, durationMs: typeof began === 'number' ? Date.now() - began : undefined });
}

/** Serializes responses and turns every error into application/problem+json. */
const problemJson = (): Middleware => ({
  after: (request) => {
    const response = request.response as ApiResponse;
    const hasBody = response.body !== undefined;
    // From here on the response is what API Gateway expects: a string body.
    request.response = {
      statusCode: response.statusCode,
      headers: {
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        'cache-control': 'no-store',
        ...response.headers,
      },
      body: hasBody ? JSON.stringify(response.body) : '',
    };
  },
  onError: (request) => {
    const error = fromMiddy(request.error);
    if (error instanceof HttpError) {
      if (error.status >= 500) logger.warn('request failed', { status: error.status, ...errorFields(error) });
      request.response = problemResponse(error.status, toProblem(error), error.headers);
    } else {
      logger.error('unhandled error', errorFields(request.error));
      request.response = problemResponse(500, internalProblem);
    }
  },
});

const problemResponse = (status: number, body: object, headers: Record<string, string> = {}) => ({
  statusCode: status,
  headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
  body: JSON.stringify(body),
});

/** Middy's body parser reports malformed JSON as 415; the contract calls that a 400. */
function fromMiddy(error: unknown): unknown {
  const e = error as { statusCode?: number; message?: string; cause?: { package?: string } } | undefined;
  if (e?.cause?.package === '@middy/http-json-body-parser') {
    return e.message === 'Unsupported Media Type'
      ? new UnsupportedMediaTypeError('The body must be JSON (Content-Type: application/json).')
      : new ValidationError([{ field: 'body', message: 'is not well-formed JSON' }]);
  }
  return error;
}

const authentication = (): Middleware => ({
  before: async (request) => {
    const headers = request.event.headers ?? {};
    const { caller, groups, signedInAt } = await authenticate(headers.authorization);
    request.event.caller = caller;
    request.event.groups = groups;
    appendLogKeys({ callerId: caller.id });
    const remembering = rememberCaller(caller, groups, signedInAt).catch((error: unknown) => {
      // Remembering people serves fan-out later; a request is not refused because it failed now.
      logger.warn('could not remember the caller', errorFields(error));
    });
    [request.event.viewer] = await settleAll([viewerOf(caller, groups), remembering]);
  },
});

/** Cursors are signed with the table's key: read once per process, before the first handler that may make or open one. */
const cursorKey = (): Middleware => ({ before: () => loadCursorKey() });

/** What a list's page reads, about (`readsForPage`), from its query as sent (0 where a number is not). */
function pageNeed(event: { queryStringParameters?: Record<string, string | undefined> | null }): number {
  const number = (name: string) => {
    const value = Number(event.queryStringParameters?.[name] ?? 0);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  };
  return readsForPage(number('skip') + number('limit') + 1);
}

/**
 * Counts each authenticated request against its caller's quotas before it does anything (a
 * request past a quota is a 429 and writes nothing). A route that reads reserves its read
 * allowance here, and its list reads within it.
 */
const quotaCheck = (reads: boolean): Middleware => ({
  before: async (request) => {
    const meter = metered(request);
    const state = await admit(
      request.event.caller.id,
      reads ? getConfig().listReadBudget : 0,
      reads ? pageNeed(request.event) : 0,
    );
    meter.state = state;
    const usage = request.event.usage;
    if (reads) {
      usage.allowance = state.allowance;
      usage.quota = {
        get covered() {
          return state.reserved;
        },
        get exhausted() {
          return state.cut;
        },
        step: Math.max(1, state.reserved),
        promised: 0,
        more: (want) => reserveMore(state, want),
      };
    }
  },
  // A read the quota's allowance stopped before it had anything to answer is a 429, never a 500.
  onError: (request) => {
    const state = metered(request).state;
    if (state && request.error instanceof BudgetSpent) request.error = readsSpent(state);
  },
});

/**
 * Charges what the request's lists read, then puts the RateLimit fields on the response, error
 * or not. It runs after problemJson has built the response (middy runs `after` and `onError`
 * in reverse order), so it is registered before it.
 */
const quotaFields = (): Middleware => {
  const finish = async (request: Parameters<NonNullable<Middleware['after']>>[0]) => {
    const meter = metered(request);
    if (!meter.state) return;
    let state = meter.state;
    try {
      state = await charge(state, request.event.usage?.indexEntries ?? 0);
    } catch (error) {
      // The answer is ready; a charge the store could not take is logged, not turned into a 503.
      logger.warn('read quota charge failed', errorFields(error));
    }
    if (request.response) request.response.headers = { ...request.response.headers, ...quotaHeaders(state) };
  };
  return { after: finish, onError: finish };
};

/** Size and media type checks before any parsing: 413, 415, and 400 for a missing body. */
const bodyLimits = (kind: BodyKind): Middleware => ({
  before: (request) => {
    const { body, isBase64Encoded, headers } = request.event as unknown as APIGatewayProxyEventV2;
    if (body === undefined || body === '') {
      throw new ValidationError([{ field: 'body', message: 'a JSON body is required' }]);
    }
    const bytes = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
    if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    const problem = mediaTypeProblem(headers?.['content-type'], kind);
    if (problem) throw new UnsupportedMediaTypeError(problem);
    // A body that is not UTF-8 reaches the function base64-encoded; decoding it as text would
    // silently replace what it holds with U+FFFD, so it is refused instead.
    if (isBase64Encoded && !isUtf8(Buffer.from(body, 'base64'))) {
      throw new ValidationError([{ field: 'body', message: 'is not valid UTF-8' }]);
    }
  },
});

/**
 * Parses the body only: `bodyLimits` has already checked the media type, case-insensitively as
 * RFC 9110 says, while middy's own check is case-sensitive and refuses `Application/JSON`.
 * (`disableContentTypeCheck` is a real option of the middleware; its typings omit it.)
 */
const jsonBodyParser = httpJsonBodyParser({
  disableContentTypeCheck: true,
} as Parameters<typeof httpJsonBodyParser>[0]) as unknown as Middleware;

export interface ApiOptions {
  /** The route takes a body of this kind. */
  body?: BodyKind;
  /** No token needed. */
  public?: boolean;
  /** The route reads a list (actions, the change feed): it reserves its read allowance at admission. */
  reads?: boolean;
}

/** Everything an API route needs, in order. Public routes skip authentication and quotas. */
export function httpApi(options: ApiOptions = {}): Middleware[] {
  return [
    responseHeaders<ApiEvent, ApiResponse>() as Middleware,
    correlation(),
    ...(options.public ? [] : [quotaFields()]),
    problemJson(),
    ...(options.public ? [] : [authentication(), quotaCheck(options.reads ?? false), cursorKey()]),
    ...(options.body ? [bodyLimits(options.body), jsonBodyParser] : []),
  ];
}

/** A middy handler with the API edge in place; the function file adds only its own logic. */
export const api = (options: ApiOptions = {}) => middy<ApiEvent, ApiResponse, Error, Context>().use(httpApi(options));
