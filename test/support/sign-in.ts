import { createHash, randomBytes } from 'node:crypto';
import { LOCAL_CLIENT_ID } from '../../infra/local/issuer';

/** The local sign-in (Cognito's endpoints) by HTTP, as a browser and the console use it. */

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ client_id: LOCAL_CLIENT_ID, ...fields }),
  redirect: 'manual' as const,
});

/** Calls `/oauth2/token` with these form fields (the client id added). */
export const tokenCall = (origin: string, fields: Record<string, string>) =>
  fetch(`${origin}/oauth2/token`, form(fields));

/** Calls `/oauth2/revoke` (RFC 7009) with these form fields (the client id added unless given). */
export const revokeCall = (origin: string, fields: Record<string, string>) =>
  fetch(`${origin}/oauth2/revoke`, form(fields));

/** Signs `user` in through the form and trades the code: the token endpoint's answer. */
export async function signedIn(origin: string, user = 'u-signed-in'): Promise<Record<string, string>> {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${origin}/`;
  const reply = await fetch(
    `${origin}/oauth2/authorize`,
    form({
      response_type: 'code',
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      user_id: user,
    }),
  );
  const code = new URL(reply.headers.get('location') ?? 'http://none/').searchParams.get('code') ?? '';
  const tokens = await tokenCall(origin, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  });
  if (tokens.status !== 200) throw new Error(`sign-in failed: ${tokens.status} ${await tokens.text()}`);
  return (await tokens.json()) as Record<string, string>;
}
