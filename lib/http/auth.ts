import { readFileSync } from 'node:fs';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import {
  FetchError,
  JwksNotAvailableInCacheError,
  JwtExpiredError,
  WaitPeriodNotYetEndedJwkError,
} from 'aws-jwt-verify/error';
import { SimpleFetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache, SimplePenaltyBox } from 'aws-jwt-verify/jwk';
import { getConfig } from '../config';
import { ServiceUnavailableError, UnauthorizedError, type UnauthorizedReason } from '../errors';
import { type Person, UNASSIGNED } from '../model/action';
import { toOneLine } from '../text';

/**
 * Bearer tokens are Cognito ID tokens: they carry the caller's name and email, which the
 * service records as owner and initiator. Access tokens are refused (their `token_use` is
 * `access` and they carry no name). Locally the issuer's keys are loaded from a file and the
 * verifier never reaches for the network.
 */

/** Clock-skew leeway for exp and iat. */
const LEEWAY_SECONDS = 5;

/** After a failed key fetch, wait this long before the next try (and say so in Retry-After). */
const KEY_FETCH_BACKOFF_SECONDS = 5;

interface Verification {
  /** Locally the keys come from JWKS_FILE, and no fetch is ever made. */
  local: boolean;
  verifier: ReturnType<typeof CognitoJwtVerifier.create>;
  /** Where a client gets a token, told in every 401. */
  howToGetAToken: string;
}

let verification: Verification | undefined;

/**
 * The verifier, created on first use and kept for the life of the process with its key cache.
 * Keys are fetched from Cognito's JWKS URI, or JWKS_URI when set (a proxy or VPC endpoint; the
 * tests point it at a server that fails). Locally, nowhere: keys come from JWKS_FILE. The
 * fetcher's own timeouts (1.5 s idle, 3 s response) bound a slow key server.
 */
function getVerification(): Verification {
  if (verification) return verification;
  const config = getConfig();
  const local = config.jwksFile !== undefined;
  const fetcher = new SimpleFetcher();
  const jwksCache = new SimpleJwksCache({
    penaltyBox: new SimplePenaltyBox({ waitSeconds: KEY_FETCH_BACKOFF_SECONDS }),
    fetcher: local
      ? { fetch: () => Promise.reject(new Error('the local issuer publishes its keys only through JWKS_FILE')) }
      : { fetch: (uri, options, data) => fetcher.fetch(config.jwksUri ?? uri, options, data) },
  });
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: config.userPoolId, clientId: config.userPoolClientIds, tokenUse: 'id', graceSeconds: LEEWAY_SECONDS },
    { jwksCache },
  );
  if (config.jwksFile) verifier.cacheJwks(JSON.parse(readFileSync(config.jwksFile, 'utf8')));
  verification = {
    local,
    verifier,
    howToGetAToken: local
      ? 'Locally, get one with `npm run --silent token -- --sub <id> --name <name> --email <email>` (run with the same DATA_DIR as the server) and send it as `Authorization: Bearer <token>`.'
      : "Sign in to the service's Cognito user pool and send the ID token it gives you as `Authorization: Bearer <token>`.",
  };
  return verification;
}

const unauthorized = (reason: UnauthorizedReason) => new UnauthorizedError(reason, getVerification().howToGetAToken);

/** The scheme name is case-insensitive (RFC 9110 section 11.1); a JWS compact token follows it. */
const BEARER_SCHEME = /^bearer(?: +(.*))?$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A token far past its `exp` still passes every other check with this much grace. */
const ANY_AGE_SECONDS = 100 * 365 * 24 * 3600;

/** Who a valid token names: the caller, their Cognito groups, and when they signed in. */
export interface Authenticated {
  caller: Person;
  /** The `cognito:groups` claim: its strings, or none when it is anything but an array. */
  groups: string[];
  /** When the caller signed in (epoch seconds): the token's `auth_time`, else its `iat`. */
  signedInAt: number;
}

/**
 * The caller a valid `Authorization` header names; `UnauthorizedError` for anything else. No
 * bearer credential at all is "missing"; a token that is valid in every way but its age is
 * "expired"; every other failure is "invalid", whichever check it failed.
 */
export async function authenticate(header: string | undefined): Promise<Authenticated> {
  const credential = header === undefined ? undefined : BEARER_SCHEME.exec(header.trim());
  const token = credential?.[1]?.trim();
  if (!token) throw unauthorized('missing');
  if (!JWT_SHAPE.test(token) || hasCriticalExtensions(token)) throw unauthorized('invalid');
  let claims: Record<string, unknown>;
  try {
    claims = await verified(token);
  } catch (error) {
    if (!(error instanceof JwtExpiredError)) throw error;
    // Say "expired" only for a token that is otherwise good, so the word reveals nothing else.
    await verified(token, ANY_AGE_SECONDS);
    throw unauthorized('expired');
  }
  return { caller: callerFrom(claims), groups: groupsFrom(claims), signedInAt: signedInAt(claims) };
}

/** A group name longer than this cannot be a Cognito group (their names are at most 128 characters). */
const MAX_GROUP_LENGTH = 128;

/** The `cognito:groups` claim's strings; anything but an array of strings is no groups. */
export function groupsFrom(claims: Record<string, unknown>): string[] {
  const groups = claims['cognito:groups'];
  if (!Array.isArray(groups)) return [];
  return [
    ...new Set(groups.filter((g): g is string => typeof g === 'string' && g !== '' && g.length <= MAX_GROUP_LENGTH)),
  ];
}

/** `auth_time` when it is a sensible number, else `iat` (which `verified` has checked). */
const signedInAt = (claims: Record<string, unknown>): number =>
  typeof claims.auth_time === 'number' && Number.isFinite(claims.auth_time) && claims.auth_time > 0
    ? Math.floor(claims.auth_time)
    : Math.floor(claims.iat as number);

/**
 * Whether the token's header names critical extensions (`crit`, RFC 7515 section 4.1.11). This
 * service understands none, so such a token must be refused; the verifier does not look.
 */
function hasCriticalExtensions(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    return header === null || typeof header !== 'object' || Object.hasOwn(header, 'crit');
  } catch {
    return true;
  }
}

/** The token's claims when it passes every check, with `graceSeconds` of leeway on its age. */
async function verified(token: string, graceSeconds = LEEWAY_SECONDS): Promise<Record<string, unknown>> {
  let claims: Record<string, unknown>;
  try {
    claims = (await getVerification().verifier.verify(token, { graceSeconds })) as Record<string, unknown>;
  } catch (error) {
    // Cognito's keys could not be fetched: the token may be fine, we just cannot tell now.
    if (
      !getVerification().local &&
      (error instanceof FetchError ||
        error instanceof JwksNotAvailableInCacheError ||
        error instanceof WaitPeriodNotYetEndedJwkError)
    ) {
      throw new ServiceUnavailableError('identity keys', KEY_FETCH_BACKOFF_SECONDS, { cause: error });
    }
    if (error instanceof JwtExpiredError && graceSeconds === LEEWAY_SECONDS) throw error;
    throw unauthorized('invalid');
  }
  // aws-jwt-verify checks exp only when present and never iat; Cognito always sets both.
  const now = Date.now() / 1000;
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.iat > now + LEEWAY_SECONDS) {
    throw unauthorized('invalid');
  }
  return claims;
}

/** Longer ids cannot be index keys; Cognito's are 36-character UUIDs. */
const MAX_SUBJECT_LENGTH = 200;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Cognito writes `email_verified` as a boolean in ID tokens; some pools have carried the string. */
const isVerified = (value: unknown) => value === true || value === 'true';

/**
 * The caller: `{ id: sub, name: name, else cognito:username / username, else sub, email }`, where
 * `email` is the email claim only when `email_verified` says so (anyone can type an unverified
 * address into a sign-up form), else null.
 */
export function callerFrom(claims: Record<string, unknown>): Person {
  const id = text(claims.sub);
  // 'undefined' is how the API shows "nobody assigned"; no real subject may take it.
  if (!id || id.length > MAX_SUBJECT_LENGTH || id === UNASSIGNED.id) throw unauthorized('invalid');
  return {
    id,
    // A name is shown as one line wherever the caller appears, so it follows the one-line rules
    // a body's names follow; a token cannot be refused for it, so what breaks them becomes U+FFFD.
    name: toOneLine(text(claims.name) ?? text(claims['cognito:username']) ?? text(claims.username) ?? id),
    email: isVerified(claims.email_verified) ? (text(claims.email) ?? null) : null,
  };
}
