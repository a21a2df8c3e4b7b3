import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as sesStandIn from 'aws-ses-v2-local';

type StartSesStandIn = typeof sesStandIn.default;
/**
 * The package is CommonJS compiled from ESM (`exports.default`): under Node's own ESM loader
 * (`npm start`) its default import is the whole `exports` object, under vitest's the function.
 */
const startSesStandIn: StartSesStandIn =
  typeof sesStandIn.default === 'function'
    ? sesStandIn.default
    : (sesStandIn.default as unknown as { default: StartSesStandIn }).default;

/**
 * The local stand-in for Amazon SES (contract section 16): `aws-ses-v2-local` from the npm
 * registry, serving the SES v2 API the notifier calls in AWS, so one code path sends both.
 * `GET <url>/store` lists every email sent (its own JSON, headers included) and `<url>/` shows
 * them to a person. It keeps what was sent in memory, for the life of the stack.
 */

export interface LocalMail {
  url: string;
  /** What the handlers read to send through it (`lib/config.ts`). */
  environment: Record<string, string>;
  close(): Promise<void>;
}

/** The sender of local email. */
const LOCAL_FROM = 'Action tracking <actions@example.com>';

export async function startMail(): Promise<LocalMail> {
  const server: Server = await startSesStandIn({ host: '127.0.0.1', port: 0 });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    environment: { SES_ENDPOINT: url, NOTIFICATIONS_FROM: LOCAL_FROM },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
