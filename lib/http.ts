import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Person } from './action';
import { authenticate } from './auth';
import {
  HttpError,
  internalProblem,
  PayloadTooLargeError,
  toProblem,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors';
import { MAX_BODY_BYTES } from './limits';
import { appendLogKeys, enterLogContext, errorFields, logger, logKey } from './logger';

/**
 * The HTTP edge shared by every API handler: correlation ids and access logs, authentication,
 * body limits and parsing, and one place that turns any error into problem+json.
 */

export interface ApiEvent extends Omit<APIGatewayProxyEventV2, 'body'> {
  /** The authenticated caller (absent only on public routes). */
  caller: Person;
  /** The parsed JSON body, on routes that take one. */
  body: unknown;
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

/** Correlation id and the access log line. */
const correlation = (): Middleware => ({
  before: (request) => {
    const event = request.event;
    const correlationId = event.headers?.['x-correlation-id'] ?? event.requestContext?.requestId;
    // Synchronous on purpose: entering the context here carries it through the rest of this request.
    enterLogContext({
      correlationId,
      method: event.requestContext?.http?.method,
      path: event.rawPath,
      startedAt: Date.now(),
    });
  },
  after: (request) => logAccess(request.response?.statusCode ?? 200),
  onError: (request) => logAccess(request.response?.statusCode ?? 500),
});

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
    request.event.caller = await authenticate(headers.authorization);
    appendLogKeys({ callerId: request.event.caller.id });
  },
});

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;

/** Size and media type checks before any parsing: 413, 415, and 400 for a missing body. */
const bodyLimits = (): Middleware => ({
  before: (request) => {
    const { body, isBase64Encoded, headers } = request.event as unknown as APIGatewayProxyEventV2;
    if (body === undefined || body === '') {
      throw new ValidationError([{ field: 'body', message: 'a JSON body is required' }]);
    }
    const bytes = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
    if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    if (!JSON_TYPE.test(headers?.['content-type'] ?? '')) {
      throw new UnsupportedMediaTypeError(
        'The body must be JSON: send Content-Type application/json (or application/merge-patch+json).',
      );
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

/** Everything an API route needs, in order. Public routes skip authentication. */
export function httpApi(options: { body?: boolean; public?: boolean } = {}): Middleware[] {
  return [
    correlation(),
    problemJson(),
    ...(options.public ? [] : [authentication()]),
    ...(options.body ? [bodyLimits(), jsonBodyParser] : []),
  ];
}

/** A middy handler with the API edge in place; the function file adds only its own logic. */
export const api = (options: { body?: boolean; public?: boolean } = {}) =>
  middy<ApiEvent, ApiResponse, Error, Context>().use(httpApi(options));
