import { readFileSync } from 'node:fs';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { FetchError, JwksNotAvailableInCacheError, WaitPeriodNotYetEndedJwkError } from 'aws-jwt-verify/error';
import { SimpleFetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache, SimplePenaltyBox } from 'aws-jwt-verify/jwk';
import { type Person, UNASSIGNED } from './action';
import { config } from './config';
import { ServiceUnavailableError, UnauthorizedError } from './errors';

/**
 * Bearer tokens are Cognito ID tokens: they carry the caller's name and email, which the
 * service records as owner and initiator. Access tokens are refused (their `token_use` is
 * `access` and they carry no name). Locally the issuer's keys are loaded from a file and the
 * verifier never reaches for the network.
 */

const local = config.jwksFile !== undefined;

/** Clock-skew leeway for exp and iat. */
const LEEWAY_SECONDS = 5;

/**
 * Where the pool's keys are fetched from: Cognito's JWKS URI, or JWKS_URI when set (a proxy or
 * VPC endpoint; the tests point it at a server that fails). Locally, nowhere: keys come from
 * JWKS_FILE. The fetcher's own timeouts (1.5 s idle, 3 s response) bound a slow key server.
 */
const fetcher = new SimpleFetcher();
/** After a failed key fetch, wait this long before the next try (and say so in Retry-After). */
const KEY_FETCH_BACKOFF_SECONDS = 5;
const jwksCache = new SimpleJwksCache({
  penaltyBox: new SimplePenaltyBox({ waitSeconds: KEY_FETCH_BACKOFF_SECONDS }),
  fetcher: local
    ? { fetch: () => Promise.reject(new Error('the local issuer publishes its keys only through JWKS_FILE')) }
    : { fetch: (uri, options, data) => fetcher.fetch(config.jwksUri ?? uri, options, data) },
});

const verifier = CognitoJwtVerifier.create(
  {
    userPoolId: config.userPoolId,
    clientId: config.userPoolClientId,
    tokenUse: 'id',
    graceSeconds: LEEWAY_SECONDS,
  },
  { jwksCache },
);

if (config.jwksFile) verifier.cacheJwks(JSON.parse(readFileSync(config.jwksFile, 'utf8')));

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/** The caller a valid `Authorization` header names; `UnauthorizedError` for anything else. */
export async function authenticate(header: string | undefined): Promise<Person> {
  const token = header ? BEARER.exec(header.trim())?.[1] : undefined;
  if (!token) throw new UnauthorizedError();
  let claims: Record<string, unknown>;
  try {
    claims = (await verifier.verify(token)) as Record<string, unknown>;
  } catch (error) {
    // Cognito's keys could not be fetched: the token may be fine, we just cannot tell now.
    if (
      !local &&
      (error instanceof FetchError ||
        error instanceof JwksNotAvailableInCacheError ||
        error instanceof WaitPeriodNotYetEndedJwkError)
    ) {
      throw new ServiceUnavailableError('identity keys', KEY_FETCH_BACKOFF_SECONDS, { cause: error });
    }
    throw new UnauthorizedError();
  }
  // aws-jwt-verify checks exp only when present and never iat; Cognito always sets both.
  const now = Date.now() / 1000;
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.iat > now + LEEWAY_SECONDS) {
    throw new UnauthorizedError();
  }
  return callerFrom(claims);
}

/** Longer ids cannot be index keys; Cognito's are 36-character UUIDs. */
const MAX_SUBJECT_LENGTH = 200;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The caller: `{ id: sub, name: name, else cognito:username / username, else sub, email or null }`. */
export function callerFrom(claims: Record<string, unknown>): Person {
  const id = text(claims.sub);
  // 'undefined' is how the API shows "nobody assigned"; no real subject may take it.
  if (!id || id.length > MAX_SUBJECT_LENGTH || id === UNASSIGNED.id) throw new UnauthorizedError();
  return {
    id,
    name: text(claims.name) ?? text(claims['cognito:username']) ?? text(claims.username) ?? id,
    email: text(claims.email) ?? null,
  };
}
