/**
 * The service's error vocabulary. Each error carries its HTTP status and a message that is safe
 * to show a client; `lib/http.ts` turns them into application/problem+json (RFC 9457).
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

/** 400: the request names what is wrong in `errors`. */
export class ValidationError extends HttpError {
  constructor(errors: Problem[], detail?: string) {
    super(
      400,
      'Bad Request',
      detail ?? errors.map((e) => `${e.parameter ?? e.field ?? 'request'}: ${e.message}`).join('; '),
      'validation-error',
      errors,
    );
  }
}

/** 401: deliberately silent about which check failed. */
export class UnauthorizedError extends HttpError {
  constructor() {
    super(401, 'Unauthorized', 'A valid bearer token is required.', 'unauthorized', undefined, {
      'www-authenticate': 'Bearer',
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
  constructor(detail: string, currentEtag?: string) {
    super(
      412,
      'Precondition Failed',
      detail,
      'precondition-failed',
      undefined,
      currentEtag ? { etag: currentEtag } : {},
    );
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

/** What a 503 waited on: the table, or the user pool's signing keys. */
export type Dependency = 'store' | 'identity keys';

const unavailableDetail: Record<Dependency, string> = {
  store: 'The store is busy or unreachable; retry shortly.',
  'identity keys':
    "The identity provider's signing keys are unavailable, so the token cannot be checked now; retry shortly.",
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
