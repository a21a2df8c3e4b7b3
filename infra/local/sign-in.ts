import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consoleSecurityHeaders } from '../../console/headers';
import { type IssuerFiles, issueToken, LOCAL_CLIENT_ID, type LocalUser, signJwt } from './issuer';
import { CONSOLE_REFRESH_TOKEN_RULES, createRefreshTokens, type RefreshTokenRules } from './refresh-tokens';

/**
 * The local stand-in for Cognito managed login (contract section 13): `/oauth2/authorize` shows a
 * plain sign-in form (any user id, name and email, as `npm run token` takes them) and sends the
 * browser back with a one-use code; `/oauth2/token` trades the code for tokens after the PKCE
 * (S256) check, and a refresh token for a new ID token and a new refresh token (rotation);
 * `/oauth2/revoke` revokes a refresh token (RFC 7009); `/logout` returns to the console. Like
 * Cognito it is strict: `redirect_uri` and `logout_uri` must equal a registered URL exactly, and
 * the code verifier must be one (RFC 7636: 43-128 unreserved characters). The console runs the
 * same code against Cognito in AWS.
 */

/** Codes are short-lived and used once, as Cognito's are. */
const CODE_SECONDS = 300;

/** A PKCE code verifier (RFC 7636 section 4.1); an empty or short one is refused, whatever its digest. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface PendingCode {
  user: LocalUser;
  redirectUri: string;
  challenge: string;
  expiresAt: number;
}

const html = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body><main>${body}</main></body></html>`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The sign-in endpoints of the local stack; `handle` answers true for a request it served. */
export function createSignIn(
  issuer: IssuerFiles,
  idTokenSeconds = 3600,
  refreshRules: RefreshTokenRules = CONSOLE_REFRESH_TOKEN_RULES,
) {
  const codes = new Map<string, PendingCode>();
  const refreshTokens = createRefreshTokens(refreshRules);

  const sendForm = (response: ServerResponse, status: number, document: string) =>
    response
      .writeHead(status, {
        ...consoleSecurityHeaders(),
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      })
      .end(document);
  const page = (response: ServerResponse, status: number, title: string, body: string) =>
    sendForm(response, status, html(title, body));

  const json = (response: ServerResponse, status: number, body: object) =>
    response
      .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' })
      .end(JSON.stringify(body));

  /**
   * Cognito accepts only the app client's registered callback and sign-out URLs, compared
   * exactly. The console's client registers the console's address (`<origin>/`); locally that is
   * the root of this server under each name it answers on: the loopback names and the address
   * the request came in on (its port included).
   */
  const registered = (request: IncomingMessage, uri: string | null) => {
    const { localAddress, localPort } = request.socket;
    const hosts = ['127.0.0.1', 'localhost', '[::1]'];
    if (localAddress) hosts.push(localAddress.includes(':') ? `[${localAddress}]` : localAddress);
    return !!uri && hosts.some((host) => uri === `http://${host}:${localPort}/`);
  };

  /** What is wrong with an authorization request, in words, or undefined. */
  const authorizeProblem = (request: IncomingMessage, query: URLSearchParams) => {
    if (query.get('client_id') !== LOCAL_CLIENT_ID) return `client_id must be ${LOCAL_CLIENT_ID}.`;
    if (query.get('response_type') !== 'code') return 'response_type must be code.';
    if (!registered(request, query.get('redirect_uri')))
      return "redirect_uri must be the console's address on this server, exactly (http://127.0.0.1:<port>/).";
    if (query.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(query.get('code_challenge') ?? ''))
      return 'PKCE is required: code_challenge (S256, base64url) and code_challenge_method=S256.';
    return undefined;
  };

  const signInForm = (query: URLSearchParams, error?: string) => {
    const carried = [
      'client_id',
      'response_type',
      'redirect_uri',
      'state',
      'scope',
      'code_challenge',
      'code_challenge_method',
    ]
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query.get(name) ?? '')}">`)
      .join('');
    const field = (name: string, label: string, type: string, extra = '') =>
      `<p><label for="${name}">${label}</label><br><input id="${name}" name="${name}" type="${type}" value="${escapeHtml(query.get(name) ?? '')}"${extra}></p>`;
    return html(
      'Sign in',
      `<h1>Sign in</h1>
<p>The local stand-in for the user pool's sign-in page: any user id signs in, as <code>npm run token</code> does.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth2/authorize">${carried}
${field('user_id', 'User id', 'text', ' required autocomplete="username"')}
${field('name', 'Name', 'text', ' autocomplete="name"')}
${field('email', 'Email', 'email', ' autocomplete="email"')}
<p><button type="submit">Sign in</button></p>
</form>`,
    );
  };

  async function authorize(request: IncomingMessage, response: ServerResponse, url: URL) {
    const query = request.method === 'POST' ? await formBody(request) : url.searchParams;
    const problem = authorizeProblem(request, query);
    if (problem) return page(response, 400, 'Sign-in refused', `<h1>Sign-in refused</h1><p>${escapeHtml(problem)}</p>`);
    if (request.method !== 'POST') return sendForm(response, 200, signInForm(query));
    const sub = query.get('user_id')?.trim();
    if (!sub) return sendForm(response, 400, signInForm(query, 'User id is required.'));
    const name = query.get('name')?.trim();
    const email = query.get('email')?.trim();
    const code = randomBytes(32).toString('base64url');
    codes.set(code, {
      user: { sub, ...(name ? { name } : {}), ...(email ? { email } : {}) },
      redirectUri: query.get('redirect_uri') ?? '',
      challenge: query.get('code_challenge') ?? '',
      expiresAt: Date.now() + CODE_SECONDS * 1000,
    });
    const back = new URL(query.get('redirect_uri') ?? '');
    back.searchParams.set('code', code);
    if (query.get('state')) back.searchParams.set('state', query.get('state') ?? '');
    response.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' }).end();
  }

  const tokensFor = (user: LocalUser) => ({
    id_token: issueToken(issuer, user, idTokenSeconds),
    // The API refuses access tokens; the console never sends this one. Cognito returns one too.
    access_token: signJwt(issuer, {
      sub: user.sub,
      token_use: 'access',
      client_id: LOCAL_CLIENT_ID,
      exp: Math.floor(Date.now() / 1000) + idTokenSeconds,
    }),
    token_type: 'Bearer',
    expires_in: idTokenSeconds,
  });

  async function token(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'POST') return json(response, 405, { error: 'invalid_request' });
    const form = await formBody(request);
    if (form.get('client_id') !== LOCAL_CLIENT_ID) return json(response, 400, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = codes.get(code);
      codes.delete(code);
      const verifier = form.get('code_verifier') ?? '';
      if (
        !pending ||
        pending.expiresAt < Date.now() ||
        pending.redirectUri !== form.get('redirect_uri') ||
        !CODE_VERIFIER.test(verifier) ||
        createHash('sha256').update(verifier).digest('base64url') !== pending.challenge
      )
        return json(response, 400, { error: 'invalid_grant' });
      return json(response, 200, { ...tokensFor(pending.user), refresh_token: refreshTokens.issue(pending.user) });
    }
    if (form.get('grant_type') === 'refresh_token') {
      const rotated = refreshTokens.rotate(form.get('refresh_token') ?? '');
      if (!rotated) return json(response, 400, { error: 'invalid_grant' });
      return json(response, 200, { ...tokensFor(rotated.user), refresh_token: rotated.refreshToken });
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  }

  /**
   * RFC 7009 revocation, as Cognito's `/oauth2/revoke`: form fields `token` and `client_id`;
   * `200` with an empty body whether or not the token was known (section 2.2); only refresh
   * tokens can be revoked (an ID or access token, a JWT, is `unsupported_token_type`).
   */
  async function revoke(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'POST') return json(response, 405, { error: 'invalid_request' });
    const form = await formBody(request);
    const token = form.get('token');
    if (!token) return json(response, 400, { error: 'invalid_request' });
    if (form.get('client_id') !== LOCAL_CLIENT_ID) return json(response, 400, { error: 'invalid_client' });
    if (token.split('.').length === 3) return json(response, 400, { error: 'unsupported_token_type' });
    refreshTokens.revoke(token);
    response.writeHead(200, { 'cache-control': 'no-store', pragma: 'no-cache' }).end();
  }

  function logout(request: IncomingMessage, response: ServerResponse, url: URL) {
    const back = url.searchParams.get('logout_uri');
    if (url.searchParams.get('client_id') !== LOCAL_CLIENT_ID || !registered(request, back))
      return page(
        response,
        400,
        'Sign-out refused',
        "<h1>Sign-out refused</h1><p>client_id and a logout_uri that is the console's address on this server are required.</p>",
      );
    response.writeHead(302, { location: back ?? '/', 'cache-control': 'no-store' }).end();
  }

  return {
    async handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/oauth2/authorize') await authorize(request, response, url);
      else if (url.pathname === '/oauth2/token') await token(request, response);
      else if (url.pathname === '/oauth2/revoke') await revoke(request, response);
      else if (url.pathname === '/logout') logout(request, response, url);
      else return false;
      return true;
    },
  };
}
