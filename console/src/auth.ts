import { signal } from '@preact/signals';
import type { ConsoleConfig } from '../headers';

/**
 * Sign-in by OAuth 2.0 authorization code with PKCE (S256), against Cognito managed login in AWS
 * and the local token issuer alike (same endpoints). The ID token, which the API accepts, lives
 * in memory only; the refresh token in sessionStorage (this tab, gone when it closes); neither
 * ever in localStorage or an address. Tokens are refreshed a minute before they expire.
 */

/** The signed-in person, from the ID token's claims. */
export interface Person {
  id: string;
  name: string;
}

const REFRESH_KEY = 'console.refresh';
const PENDING_KEY = 'console.sign-in';
/** Refresh this long before the ID token expires. */
const REFRESH_AHEAD_MS = 60_000;

let config: ConsoleConfig;
let idToken: string | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

export const person = signal<Person | undefined>(undefined);

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

const redirectUri = () => `${location.origin}/`;

function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
}

function useTokens(tokens: { id_token: string; refresh_token?: string }) {
  idToken = tokens.id_token;
  if (tokens.refresh_token) sessionStorage.setItem(REFRESH_KEY, tokens.refresh_token);
  const claims = claimsOf(idToken);
  const id = String(claims.sub);
  person.value = { id, name: String(claims.name ?? claims['cognito:username'] ?? id) };
  clearTimeout(refreshTimer);
  const expiresInMs = Number(claims.exp) * 1000 - Date.now();
  refreshTimer = setTimeout(() => void refresh(), Math.max(0, expiresInMs - REFRESH_AHEAD_MS));
}

async function tokenCall(form: Record<string, string>): Promise<boolean> {
  const response = await fetch(`${config.authority}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: config.clientId, ...form }),
  }).catch(() => undefined);
  if (!response?.ok) return false;
  useTokens(await response.json());
  return true;
}

/** Trades the refresh token for a new ID token; false when there is none or it is refused. */
async function refresh(): Promise<boolean> {
  const token = sessionStorage.getItem(REFRESH_KEY);
  if (!token) return false;
  if (await tokenCall({ grant_type: 'refresh_token', refresh_token: token })) return true;
  sessionStorage.removeItem(REFRESH_KEY);
  return false;
}

/** Leaves for the sign-in page; after it, the console returns to `returnTo` (this screen by default). */
export async function signIn(returnTo = location.pathname + location.search): Promise<never> {
  const verifier = randomString();
  const state = randomString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ state, verifier, returnTo }));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid email profile',
    state,
    code_challenge: base64url(digest),
    code_challenge_method: 'S256',
  });
  location.assign(`${config.authority}/oauth2/authorize?${query}`);
  return new Promise<never>(() => undefined);
}

/**
 * Signs in at start: finishes a sign-in the authority sent back here, or refreshes a session of
 * this tab, or leaves to sign in. Resolves once there is an ID token.
 */
export async function startSession(settings: ConsoleConfig): Promise<void> {
  config = settings;
  const query = new URLSearchParams(location.search);
  const code = query.get('code');
  const pending = sessionStorage.getItem(PENDING_KEY);
  if (code && pending) {
    sessionStorage.removeItem(PENDING_KEY);
    const { state, verifier, returnTo } = JSON.parse(pending) as { state: string; verifier: string; returnTo: string };
    // The code leaves the address at once, used or not.
    history.replaceState(null, '', returnTo);
    if (
      query.get('state') === state &&
      (await tokenCall({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri(),
      }))
    )
      return;
    await signIn(returnTo);
  }
  if (await refresh()) return;
  await signIn();
}

/**
 * The ID token for the next API call; after a refused one (`stale`), a fresh one, or a new
 * sign-in that returns to this screen.
 */
export async function currentToken(stale = false): Promise<string> {
  if (stale || !idToken) {
    idToken = undefined;
    if (!(await refresh())) await signIn();
  }
  return idToken as string;
}

/**
 * Ends the session here and at the authority: revokes the refresh token (`/oauth2/revoke`, RFC
 * 7009; the app client has token revocation enabled), so a copy of it refreshes nothing, then
 * leaves through `/logout` (which needs the client id and where to return), which ends the
 * managed-login session but not the refresh token. The revocation is a simple form POST: it
 * reaches the authority even if its answer carries no CORS headers (`no-cors`), and a failure
 * does not keep anyone signed in here.
 */
export async function signOut(): Promise<void> {
  const refreshToken = sessionStorage.getItem(REFRESH_KEY);
  sessionStorage.removeItem(REFRESH_KEY);
  idToken = undefined;
  clearTimeout(refreshTimer);
  if (refreshToken)
    await fetch(`${config.authority}/oauth2/revoke`, {
      method: 'POST',
      mode: 'no-cors',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshToken, client_id: config.clientId }),
    }).catch(() => undefined);
  const query = new URLSearchParams({ client_id: config.clientId, logout_uri: redirectUri() });
  location.assign(`${config.authority}/logout?${query}`);
}
