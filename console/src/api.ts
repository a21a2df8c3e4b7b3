import { signal } from '@preact/signals';
import createClient from 'openapi-fetch';
import type { ConsoleConfig } from '../headers';
import type { PendingPaths } from './api-pending';
import type { paths } from './api-types';
import { currentToken } from './auth';
import type { Action } from './types';

/**
 * The console's one way to the API: a client typed from `openapi.json` (api-types.ts is
 * generated from it by `npm run build:console`), so it cannot call a route or send a field the
 * document lacks. Every call carries the ID token; a refused token is refreshed (or signs in
 * again) once; a 429 or 503 says when it retries, then retries.
 */

/** What the person is told while a busy service is waited for. */
export const retryNotice = signal<string | undefined>(undefined);

const RETRIES = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function authorizedFetch(request: Request): Promise<Response> {
  let stale = false;
  for (let attempt = 0; ; attempt++) {
    const retry = request.clone();
    retry.headers.set('authorization', `Bearer ${await currentToken(stale)}`);
    const response = await fetch(retry);
    if (response.status === 401 && !stale) {
      stale = true;
      continue;
    }
    if ((response.status === 429 || response.status === 503) && attempt < RETRIES) {
      const seconds = Math.min(60, Math.max(1, Number(response.headers.get('retry-after')) || 2 ** attempt));
      retryNotice.value = `The service is busy. Trying again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
      await sleep(seconds * 1000);
      retryNotice.value = undefined;
      continue;
    }
    return response;
  }
}

/** The client, once the settings are read. */
export let api: ReturnType<typeof createClient<paths & PendingPaths>>;

export function connect(config: ConsoleConfig): void {
  // The document's paths already start with /api; a base that repeats it is taken as the origin.
  const base = config.apiBase.replace(/\/api\/?$/, '').replace(/\/$/, '');
  api = createClient<paths & PendingPaths>({ baseUrl: `${location.origin}${base}`, fetch: authorizedFetch });
}

/** The version an action's ETag quotes, for If-Match. */
export const etagOf = (action: Action) => `"${action.version}"`;
