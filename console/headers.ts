/**
 * What the console (contract section 13) is served with, locally by `npm start` and in AWS by
 * CloudFront, so the two cannot drift: its security headers, with a strict Content-Security-Policy
 * (no inline script, no `eval`). The settings file it reads at start is the console's own
 * contract (`console/settings.ts`).
 */

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
