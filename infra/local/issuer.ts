import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stand-in for Cognito: an RSA key pair kept under DATA_DIR, and tokens shaped like
 * Cognito ID tokens for a local user pool. The service verifies them with the same
 * `CognitoJwtVerifier` it uses in AWS, fed the public key through JWKS_FILE.
 */

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_USER_POOL_ID = 'us-east-1_LocalPool';
export const LOCAL_CLIENT_ID = 'local-client';
export const LOCAL_ISSUER = `https://cognito-idp.${LOCAL_REGION}.amazonaws.com/${LOCAL_USER_POOL_ID}`;

export interface IssuerFiles {
  privateKeyFile: string;
  jwksFile: string;
}

export interface LocalUser {
  sub: string;
  name?: string;
  email?: string;
}

/** Creates the key pair on first use; later runs (and `npm run token`) reuse it. */
export function ensureIssuer(dataDir: string): IssuerFiles {
  mkdirSync(dataDir, { recursive: true });
  const files = { privateKeyFile: join(dataDir, 'issuer-key.json'), jwksFile: join(dataDir, 'jwks.json') };
  if (!existsSync(files.privateKeyFile) || !existsSync(files.jwksFile)) {
    const kid = randomUUID();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
    writeFileSync(files.privateKeyFile, JSON.stringify({ kid, key: privateKey.export({ format: 'jwk' }) }), {
      mode: 0o600,
    });
    writeFileSync(files.jwksFile, JSON.stringify({ keys: [publicJwk] }, null, 2));
  }
  return files;
}

const base64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

/** Signs any header and claims with the issuer's key: tests use it to forge near-miss tokens too. */
export function signJwt(
  files: IssuerFiles,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const { kid, key } = JSON.parse(readFileSync(files.privateKeyFile, 'utf8'));
  const head = base64url({ alg: 'RS256', typ: 'JWT', kid, ...header });
  const body = base64url(claims);
  const signature = sign('RSA-SHA256', Buffer.from(`${head}.${body}`), createPrivateKey({ key, format: 'jwk' }));
  return `${head}.${body}.${base64url(signature)}`;
}

/** The claims of a Cognito ID token for this user, valid for `expiresInSeconds`. */
export function idTokenClaims(user: LocalUser, expiresInSeconds = 3600): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: user.sub,
    'cognito:username': user.sub,
    ...(user.name !== undefined ? { name: user.name } : {}),
    ...(user.email !== undefined ? { email: user.email, email_verified: true } : {}),
    iss: LOCAL_ISSUER,
    aud: LOCAL_CLIENT_ID,
    token_use: 'id',
    auth_time: now,
    iat: now,
    exp: now + expiresInSeconds,
    jti: randomUUID(),
  };
}

export const issueToken = (files: IssuerFiles, user: LocalUser, expiresInSeconds = 3600): string =>
  signJwt(files, idTokenClaims(user, expiresInSeconds));
