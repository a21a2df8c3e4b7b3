import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource, buildConsole } from '../../console/build';
import { STATUSES } from '../../console/src/statuses';
import { LOCAL_CLIENT_ID } from '../../infra/local/issuer';
import { apiUrl, call } from '../support/client';

/**
 * Issue 32: the local stand-in for Cognito managed login, by HTTP as the console uses it
 * (authorization code + PKCE S256, one-use codes, refresh, logout), and the console's build:
 * its JavaScript budget, its API types current with openapi.json, its status catalogue the README's.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const redirectUri = () => `${apiUrl()}/`;
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
  redirect: 'manual' as const,
});

/** Signs in through the form as a browser would; returns the code and the verifier. */
async function authorize(user = 'u-sign-in', overrides: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const fields = {
    client_id: LOCAL_CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirectUri(),
    state: 'st4te',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    user_id: user,
    name: 'Sign In',
    email: 'sign-in@example.com',
    ...overrides,
  };
  const reply = await fetch(`${apiUrl()}/oauth2/authorize`, form(fields));
  const location = new URL(reply.headers.get('location') ?? 'http://none/');
  return { reply, verifier, code: location.searchParams.get('code') ?? '', location };
}

const token = (fields: Record<string, string>) =>
  fetch(`${apiUrl()}/oauth2/token`, form({ client_id: LOCAL_CLIENT_ID, ...fields }));

describe('the local sign-in', () => {
  it('shows a labelled sign-in form with the strict CSP and no script', async () => {
    const query = new URLSearchParams({
      client_id: LOCAL_CLIENT_ID,
      response_type: 'code',
      redirect_uri: redirectUri(),
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: '"><script>alert(1)</script>',
    });
    const reply = await fetch(`${apiUrl()}/oauth2/authorize?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await reply.text();
    for (const label of ['User id', 'Name', 'Email']) expect(html).toContain(`>${label}</label>`);
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toContain('<script');
  });

  it('refuses a request without PKCE, for another client, or back to another origin', async () => {
    for (const overrides of <Record<string, string>[]>[
      { code_challenge_method: 'plain' },
      { code_challenge: '' },
      { client_id: 'someone-else' },
      { redirect_uri: 'https://evil.example.com/' },
    ]) {
      const { reply } = await authorize('u-x', overrides);
      expect(reply.status, JSON.stringify(overrides)).toBe(400);
    }
    const logout = await fetch(`${apiUrl()}/logout?client_id=${LOCAL_CLIENT_ID}&logout_uri=https://evil.example.com/`, {
      redirect: 'manual',
    });
    expect(logout.status).toBe(400);
  });

  it('is as strict as Cognito: an exact redirect_uri and logout_uri, and a real code verifier (issue 42)', async () => {
    const origin = apiUrl();
    for (const redirect_uri of [`${origin}/evil`, `${origin}/?next=/x`, `${origin}/#x`, origin, `${origin}//`]) {
      const { reply } = await authorize('u-strict', { redirect_uri });
      expect(reply.status, redirect_uri).toBe(400);
    }
    for (const logoutUri of [`${origin}/evil`, `${origin}/?next=/x`, origin]) {
      const logout = await fetch(
        `${origin}/logout?${new URLSearchParams({ client_id: LOCAL_CLIENT_ID, logout_uri: logoutUri })}`,
        { redirect: 'manual' },
      );
      expect(logout.status, logoutUri).toBe(400);
    }
    // The console's address under the other loopback name is registered too.
    const port = new URL(origin).port;
    const other = await authorize('u-strict', { redirect_uri: `http://localhost:${port}/` });
    expect(other.reply.status).toBe(302);

    // A challenge made from an empty (or short) verifier is refused at the exchange.
    for (const verifier of ['', 'short', 'a'.repeat(129)]) {
      const { code } = await authorize('u-strict', {
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      });
      const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: verifier };
      const refused = await token(exchange);
      expect(refused.status, `verifier of ${verifier.length}`).toBe(400);
      expect(await refused.json()).toEqual({ error: 'invalid_grant' });
    }
  });

  it('trades a code once, only with its verifier, for an ID token the API accepts, and refreshes it', async () => {
    const wrong = await authorize();
    expect(wrong.location.searchParams.get('state')).toBe('st4te');
    const refused = await token({
      grant_type: 'authorization_code',
      code: wrong.code,
      code_verifier: randomBytes(32).toString('base64url'),
      redirect_uri: redirectUri(),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'invalid_grant' });

    const { code, verifier } = await authorize();
    const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri() };
    const granted = await token(exchange);
    expect(granted.status).toBe(200);
    const tokens = (await granted.json()) as Record<string, string>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const me = await call('GET', '/api/actions?assignee=me&limit=0', { token: tokens.id_token });
    expect(me.status).toBe(200);
    // The API takes ID tokens only.
    expect((await call('GET', '/api/actions?limit=0', { token: tokens.access_token })).status).toBe(401);
    // A code is used once.
    expect((await token(exchange)).status).toBe(400);

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' });
    expect(refreshed.status).toBe(200);
    const again = (await refreshed.json()) as Record<string, string>;
    expect((await call('GET', '/api/actions?limit=0', { token: again.id_token })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'forged' })).status).toBe(400);

    const logout = await fetch(`${apiUrl()}/logout?client_id=${LOCAL_CLIENT_ID}&logout_uri=${redirectUri()}`, {
      redirect: 'manual',
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe(redirectUri());
  });
});

describe('the console build', () => {
  it('keeps all its JavaScript within 60 KB gzipped, and index.html free of inline script', async () => {
    const files = await buildConsole();
    const scripts = files.filter((f) => f.path.endsWith('.js'));
    const gzipped = scripts.reduce((sum, f) => sum + gzipSync(f.body, { level: 9 }).length, 0);
    expect(gzipped).toBeGreaterThan(5_000);
    expect(gzipped).toBeLessThanOrEqual(60 * 1024);
    const html = Buffer.from(files.find((f) => f.path === '/index.html')?.body ?? []).toString();
    expect(html).toMatch(/<script type="module" src="\/assets\/main-\w+\.js"><\/script>/);
    expect(html).not.toMatch(/<script>|\sstyle=|\son\w+=/);
  });

  it('types its API calls from the committed openapi.json (npm run build:console regenerates them)', async () => {
    expect(readFileSync(API_TYPES_FILE, 'utf8')).toBe(await apiTypesSource());
  });

  it("names statuses as the README's catalogue does", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const catalogue = STATUSES.map((s) => `\`${s.value}\` ${s.name.toLowerCase()}`).join(', ');
    expect(readme).toContain(catalogue);
    const closing = STATUSES.filter((s) => s.closes).map((s) => `\`${s.value}\``);
    expect(readme).toContain(`Statuses ${closing.join(' and ')} close an action`);
  });
});
