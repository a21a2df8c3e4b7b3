/**
 * The service's error vocabulary. Each error carries its HTTP status and a message that is safe
 * to show a client; `lib/http/edge.ts` turns them into application/problem+json (RFC 9457).
 */

/** One thing wrong with a request: a query `parameter` or a body `field`. */
export interface Problem {
  parameter?: string;
  field?: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly slug: string,
    readonly errors?: Problem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** A problem body lists at most this many errors, so an error never outgrows the request. */
export const MAX_LISTED_ERRORS = 20;

/** 400: the request names what is wrong in `errors` (the first 20; `detail` counts the rest). */
export class ValidationError extends HttpError {
  constructor(errors: Problem[], detail?: string) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    const more = errors.length - listed.length;
    super(
      400,
      'Bad Request',
      (detail ?? listed.map((e) => `${e.parameter ?? e.field ?? 'request'}: ${e.message}`).join('; ')) +
        (more > 0 ? `; and ${more} more ${more === 1 ? 'error' : 'errors'} not listed` : ''),
      'validation-error',
      listed,
    );
  }
}

/**
 * Why a request is not authenticated, and all a client is told: no bearer token was sent, it
 * has expired (and is otherwise valid), or it is not valid for this service. Never which check failed.
 */
export type UnauthorizedReason = 'missing' | 'expired' | 'invalid';

const AUTH_REALM = 'action-tracking';

const unauthorizedDescriptions: Record<UnauthorizedReason, string> = {
  missing: 'No bearer token was sent',
  expired: 'The bearer token has expired',
  invalid: 'The bearer token is not valid for this service',
};

/**
 * 401 with `WWW-Authenticate` as RFC 6750 section 3 spells it: a request without a bearer token
 * gets no error code; a token that was sent gets `error="invalid_token"` and the reason.
 * `howToGetOne` says where tokens come from (the local issuer or the user pool).
 */
export class UnauthorizedError extends HttpError {
  constructor(reason: UnauthorizedReason, howToGetOne: string) {
    const description = unauthorizedDescriptions[reason];
    super(401, 'Unauthorized', `${description}. ${howToGetOne}`, 'unauthorized', undefined, {
      'www-authenticate':
        reason === 'missing'
          ? `Bearer realm="${AUTH_REALM}"`
          : `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="${description}"`,
    });
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail: string) {
    super(403, 'Forbidden', detail, 'forbidden');
  }
}

export class NotFoundError extends HttpError {
  constructor(detail: string) {
    super(404, 'Not Found', detail, 'not-found');
  }
}

/** Client text echoed in a message, cut short so a client cannot make us echo megabytes. */
export const clip = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}…` : text);

/** The 404 for an id that names no action (or only a deleted one). */
export const noSuchAction = (id: string) => new NotFoundError(`No action has the id '${clip(id)}'.`);

/** 405: the path exists, the method does not; `Allow` lists the methods that do. */
export class MethodNotAllowedError extends HttpError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'Method Not Allowed', `${clip(method)} is not supported here.`, 'method-not-allowed', undefined, {
      allow: allowed.join(', '),
    });
  }
}

export class ConflictError extends HttpError {
  constructor(detail: string) {
    super(409, 'Conflict', detail, 'conflict');
  }
}

/** 412: the `If-Match` names another version; `ETag` carries the current one. */
export class PreconditionFailedError extends HttpError {
  constructor(detail: string, currentEtag: string) {
    super(412, 'Precondition Failed', detail, 'precondition-failed', undefined, { etag: currentEtag });
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'Payload Too Large', `The request body must be at most ${limitBytes} bytes.`, 'payload-too-large');
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail: string) {
    super(415, 'Unsupported Media Type', detail, 'unsupported-media-type');
  }
}

/**
 * 429: the caller did this too often; `Retry-After` says in how many seconds it may again.
 * `headers` adds fields of its own (a quota's RateLimit fields).
 */
export class TooManyRequestsError extends HttpError {
  constructor(detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, 'Too Many Requests', detail, 'too-many-requests', undefined, {
      ...headers,
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** What a 503 waited on: the table, the user pool's signing keys, or the queue of background jobs. */
export type Dependency = 'store' | 'identity keys' | 'job queue';

const unavailableDetail: Record<Dependency, string> = {
  store: 'The store is busy or unreachable; retry shortly.',
  'identity keys':
    "The identity provider's signing keys are unavailable, so the token cannot be checked now; retry shortly.",
  'job queue': 'The queue of background jobs is busy or unreachable; retry shortly.',
};

/** 503: a dependency failed; `cause` keeps what it said, for the log, never for the client. */
export class ServiceUnavailableError extends HttpError {
  constructor(
    readonly dependency: Dependency,
    retryAfterSeconds = 1,
    options: { cause?: unknown } = {},
  ) {
    super(503, 'Service Unavailable', unavailableDetail[dependency], 'service-unavailable', undefined, {
      'retry-after': String(retryAfterSeconds),
    });
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Problem[];
}

export const problemTypeBase = 'https://action-tracking.dev/problems/';

export const toProblem = (error: HttpError): ProblemDocument => ({
  type: problemTypeBase + error.slug,
  title: error.title,
  status: error.status,
  detail: error.detail,
  ...(error.errors ? { errors: error.errors } : {}),
});

/** What a client sees for any failure we did not anticipate: no message, no stack. */
export const internalProblem: ProblemDocument = {
  type: `${problemTypeBase}internal-error`,
  title: 'Internal Server Error',
  status: 500,
  detail: 'The service failed to handle the request. It has been logged.',
};
