/**
 * The console's settings contract, owned by the console: the runtime settings file it reads at
 * start (served beside `index.html`, locally by `npm start` and in AWS from the bucket), which
 * `infra/` writes and serves. The console never imports `infra/`.
 */

/** Where the console's runtime settings are served, beside `index.html`. */
export const CONSOLE_CONFIG_PATH = '/console-config.json';

/** The console's runtime settings: where to sign in, with which public app client, the API's base path, and where files live. */
export interface ConsoleConfig {
  /**
   * The origin (and path prefix, if any) that serves `/oauth2/authorize`, `/oauth2/token` and
   * `/logout`: the Cognito managed-login domain in AWS, the local token issuer (same origin) locally.
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
