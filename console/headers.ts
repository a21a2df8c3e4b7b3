/**
 * What the console (contract section 13) is served with, locally by `npm start` and in AWS by
 * CloudFront, so the two cannot drift: its security headers, with a strict Content-Security-Policy
 * (no inline script, no `eval`), and the runtime settings file it reads at start.
 */

/** Where the console's runtime settings are served, beside `index.html`. */
export const CONSOLE_CONFIG_PATH = '/console-config.json';

/** The console's runtime settings: where to sign in, with which public app client, the API's base path, and where files live. */
export interface ConsoleConfig {
  /**
   * The origin (and path prefix, if any) that serves `/oauth2/authorize`, `/oauth2/token`,
   * `/oauth2/revoke` and `/logout`: the Cognito managed-login domain in AWS, the local token issuer (same origin) locally.
   */
  authority: string;
  /** The public (secret-less) app client the console signs in with. */
  clientId: string;
  /** The API's base path on the console's own origin. */
  apiBase: string;
  /**
   * The origin of the attachment storage (contract section 15): uploads are posted there and
   * files read from there by presigned URLs, so the CSP's `connect-src` and `img-src` name it.
   * The local S3 stand-in's address (`s3` in stack.json) locally, the bucket's URL in AWS;
   * absent where no storage is set up.
   */
  storageOrigin?: string;
}

/**
 * The security headers of every console response. `authOrigin` is the sign-in origin when it is
 * not the console's own (Cognito's domain in AWS): the token call goes there, so `connect-src`
 * and `form-action` must name it. `storageOrigin` is where attachments are uploaded to and read
 * from (presigned POSTs and GETs, contract section 15), so `connect-src` and `img-src` name it;
 * `blob:` images are the thumbnails the console makes of files it has read.
 */
export function consoleSecurityHeaders(authOrigin?: string, storageOrigin?: string): Record<string, string> {
  const auth = authOrigin ? ` ${authOrigin}` : '';
  const storage = storageOrigin ? ` ${storageOrigin}` : '';
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${storage}`,
    "font-src 'self'",
    `connect-src 'self'${auth}${storage}`,
    `form-action 'self'${auth}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "manifest-src 'self'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'strict-transport-security': 'max-age=63072000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}
