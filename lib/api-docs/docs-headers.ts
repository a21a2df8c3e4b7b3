import { API_RESPONSE_HEADERS } from '../http/response-headers';

/**
 * What every `/docs` response is served with, by the docs handler (locally and in AWS) and again by
 * CloudFront's `/docs*` behaviour on the console's origin (infra/cdk/console.ts): the console's
 * strict headers (console/headers.ts; an infra test keeps the two the same). Swagger UI runs
 * under the console's own policy, no inline script and no `eval`; the page's one script of its own
 * is a file (`start.js`), and its styles are set through the DOM, which `style-src 'self'` allows.
 * The docs share the console's origin, so no token may be kept in storage there
 * (`persistAuthorization: false`, docs-page.ts).
 */
export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...API_RESPONSE_HEADERS,
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "manifest-src 'self'",
  ].join('; '),
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};
