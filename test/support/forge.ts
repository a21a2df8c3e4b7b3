import { createHmac, createPublicKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IssuerFiles, idTokenClaims, type LocalUser, signJwt } from '../../infra/local/issuer';

/**
 * Near-miss bearer tokens for the authentication matrix: each differs from a token the local
 * issuer would hand out in exactly one way. Everything is signed here, with no network.
 */

const base64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

export const issuerFilesIn = (dataDir: string): IssuerFiles => ({
  privateKeyFile: join(dataDir, 'issuer-key.json'),
  jwksFile: join(dataDir, 'jwks.json'),
});

/** The kid the service trusts (the one in the published JWKS). */
export const trustedKid = (files: IssuerFiles): string =>
  (JSON.parse(readFileSync(files.jwksFile, 'utf8')) as { keys: Array<{ kid: string }> }).keys[0]?.kid as string;

export class Forge {
  constructor(readonly files: IssuerFiles) {}

  /** Valid Cognito ID token claims for `user`, with `changes` applied (`undefined` deletes a claim). */
  claims(user: LocalUser, changes: Record<string, unknown> = {}): Record<string, unknown> {
    const claims: Record<string, unknown> = { ...idTokenClaims(user), ...changes };
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete claims[key];
    return claims;
  }

  /** Signed by the trusted key, so only the changed claims or header can make it fail. */
  signed(user: LocalUser, changes: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
    return signJwt(this.files, this.claims(user, changes), header);
  }

  /** `alg: none` with an empty signature (and, since some parsers differ, with the original one). */
  unsigned(user: LocalUser, keepSignature = false): string {
    const genuine = this.signed(user);
    const head = base64url({ alg: 'none', typ: 'JWT', kid: trustedKid(this.files) });
    const [, body, signature] = genuine.split('.') as [string, string, string];
    return `${head}.${body}.${keepSignature ? signature : ''}`;
  }

  /**
   * The classic key-confusion attack: HS256 whose HMAC secret is the issuer's public key, in
   * each form a verifier might feed to HMAC (the JWK JSON, PEM, DER, the modulus).
   */
  hmacWithPublicKey(user: LocalUser): Record<string, string> {
    const jwks = JSON.parse(readFileSync(this.files.jwksFile, 'utf8')) as { keys: Array<Record<string, string>> };
    const jwk = jwks.keys[0] as Record<string, string>;
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const secrets: Record<string, Buffer> = {
      'JWK JSON': Buffer.from(JSON.stringify(jwk)),
      'PEM (spki)': Buffer.from(key.export({ type: 'spki', format: 'pem' }) as string),
      'PEM (pkcs1)': Buffer.from(key.export({ type: 'pkcs1', format: 'pem' }) as string),
      'DER (spki)': key.export({ type: 'spki', format: 'der' }) as Buffer,
      modulus: Buffer.from(jwk.n as string, 'base64url'),
    };
    const tokens: Record<string, string> = {};
    for (const [form, secret] of Object.entries(secrets)) {
      const head = base64url({ alg: 'HS256', typ: 'JWT', kid: jwk.kid });
      const body = base64url(this.claims(user));
      const mac = createHmac('sha256', secret).update(`${head}.${body}`).digest();
      tokens[form] = `${head}.${body}.${base64url(mac)}`;
    }
    return tokens;
  }

  /** Signed with a freshly made RSA key the service has never seen, claiming `kid`. */
  otherKey(user: LocalUser, kid: string = randomUUID(), changes: Record<string, unknown> = {}): string {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const head = base64url({ alg: 'RS256', typ: 'JWT', kid });
    const body = base64url(this.claims(user, changes));
    const signature = sign('RSA-SHA256', Buffer.from(`${head}.${body}`), privateKey);
    return `${head}.${body}.${base64url(signature)}`;
  }

  /** A genuine token with its claims swapped after signing (the signature no longer matches). */
  tampered(user: LocalUser, changes: Record<string, unknown>): string {
    const [head, , signature] = this.signed(user).split('.') as [string, string, string];
    return `${head}.${base64url(this.claims(user, changes))}.${signature}`;
  }
}
