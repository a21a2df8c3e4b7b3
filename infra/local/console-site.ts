import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleFile } from '../../console/build';
import { CONSOLE_CONFIG_PATH, type ConsoleConfig, consoleSecurityHeaders } from '../../console/headers';
import { screenOf } from '../../console/routes';
import { LOCAL_CLIENT_ID } from './issuer';

/** Where the local stack's attachment storage listens, once it does (it starts after the site is built). */
export interface ConsoleSiteOptions {
  storageOrigin?: () => string | undefined;
}

/**
 * The console as `npm start` serves it, as CloudFront does in AWS: the built files with the
 * shared security headers, `index.html` never cached and hashed assets cached for good,
 * `index.html` at every screen's address (client routing), and the runtime settings pointing at
 * the local token issuer on the same origin and at the local storage. `/api` and `/docs` stay
 * the gateway's.
 */
export function createConsoleSite(files: ConsoleFile[], options: ConsoleSiteOptions = {}) {
  const storageOrigin = () => {
    const address = options.storageOrigin?.();
    return address ? new URL(address).origin : undefined;
  };
  const byPath = new Map(files.map((file) => [file.path, file]));
  const index = byPath.get('/index.html');
  if (!index) throw new Error('console site: the build has no index.html');

  const send = (
    response: ServerResponse,
    file: Pick<ConsoleFile, 'body' | 'contentType' | 'immutable'>,
    head: boolean,
  ) => {
    response.writeHead(200, {
      ...consoleSecurityHeaders(undefined, storageOrigin()),
      'content-type': file.contentType,
      'content-length': String(file.body.length),
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    response.end(head ? undefined : file.body);
  };

  return {
    /** Serves a console request; false for anything else (the API, the docs, unknown paths). */
    handle(request: IncomingMessage, response: ServerResponse): boolean {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const head = request.method === 'HEAD';
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      if (pathname === CONSOLE_CONFIG_PATH) {
        const config: ConsoleConfig = {
          authority: `http://${request.headers.host}`,
          clientId: LOCAL_CLIENT_ID,
          apiBase: '/api',
          storageOrigin: storageOrigin(),
        };
        send(
          response,
          { body: Buffer.from(JSON.stringify(config)), contentType: 'application/json', immutable: false },
          head,
        );
        return true;
      }
      const file = byPath.get(pathname) ?? (screenOf(pathname) ? index : undefined);
      if (!file) return false;
      send(response, file, head);
      return true;
    },
  };
}
