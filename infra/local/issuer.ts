import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  /** Cognito groups, carried as the `cognito:groups` claim (omitted when there are none). */
  groups?: readonly string[];
}

/** Files in DATA_DIR are for their owner alone: the directory 0700, each file 0600. */
const PRIVATE_DIRECTORY_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates DATA_DIR for its owner only, or makes an existing one so: it holds the issuer's
 * private key, which signs tokens for any user, and the store with everyone's email addresses.
 */
export function ensurePrivateDirectory(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dataDir, PRIVATE_DIRECTORY_MODE);
}

/** Writes a file only its owner can read; `mode` applies only when creating, so chmod too. */
export function writePrivateFile(file: string, content: string): void {
  writeFileSync(file, content, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Creates the key pair on first use; later runs (and `npm run token`) reuse it. */
export function ensureIssuer(dataDir: string): IssuerFiles {
  ensurePrivateDirectory(dataDir);
  const files = { privateKeyFile: join(dataDir, 'issuer-key.json'), jwksFile: join(dataDir, 'jwks.json') };
  if (!existsSync(files.privateKeyFile) || !existsSync(files.jwksFile)) {
    const kid = randomUUID();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
    writePrivateFile(files.privateKeyFile, JSON.stringify({ kid, key: privateKey.export({ format: 'jwk' }) }));
    writePrivateFile(files.jwksFile, JSON.stringify({ keys: [publicJwk] }, null, 2));
  } else {
    // Key files made before this rule were world-readable.
    for (const file of Object.values(files)) chmodSync(file, PRIVATE_FILE_MODE);
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
    ...(user.groups?.length ? { 'cognito:groups': [...user.groups] } : {}),
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
