import { readFileSync } from 'node:fs';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { FetchError, JwksNotAvailableInCacheError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { Person } from './action';
import { config } from './config';
import { ServiceUnavailableError, UnauthorizedError } from './errors';

/**
 * Bearer tokens are Cognito ID tokens: they carry the caller's name and email, which the
 * service records as owner and initiator. Access tokens are refused (their `token_use` is
 * `access` and they carry no name). Locally the issuer's keys are loaded from a file and the
 * verifier never reaches for the network.
 */

const local = config.jwksFile !== undefined;

const verifier = CognitoJwtVerifier.create(
  {
    userPoolId: config.userPoolId,
    clientId: config.userPoolClientId,
    tokenUse: 'id',
    graceSeconds: 5,
  },
  local
    ? {
        jwksCache: new SimpleJwksCache({
          fetcher: {
            fetch: () => Promise.reject(new Error('the local issuer publishes its keys only through JWKS_FILE')),
          },
        }),
      }
    : undefined,
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
    if (!local && (error instanceof FetchError || error instanceof JwksNotAvailableInCacheError)) {
      throw new ServiceUnavailableError(5);
    }
    throw new UnauthorizedError();
  }
  return callerFrom(claims);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The caller: `{ id: sub, name: name, else cognito:username / username, else sub, email or null }`. */
export function callerFrom(claims: Record<string, unknown>): Person {
  const id = text(claims.sub);
  if (!id) throw new UnauthorizedError();
  return {
    id,
    name: text(claims.name) ?? text(claims['cognito:username']) ?? text(claims.username) ?? id,
    email: text(claims.email) ?? null,
  };
}
