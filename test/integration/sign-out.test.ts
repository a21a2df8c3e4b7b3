import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignIn } from '../../infra/local/sign-in';
import { apiUrl, call, issuerFiles } from '../support/client';
import { revokeCall, signedIn, tokenCall } from '../support/sign-in';

/**
 * Issue 42: signing out ends the refresh token. The local stand-in keeps refresh tokens as
 * Cognito does for the console's app client (infra/cdk/console.ts): they expire (12 hours), rotate
 * (every refresh answers a new one; the used one ends after a 10 s grace period) and are revoked by
 * `POST /oauth2/revoke` (RFC 7009), which the console's "Sign out" calls before `/logout`.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.log(`sign-out browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const refresh = (origin: string, refreshToken: string) =>
  tokenCall(origin, { grant_type: 'refresh_token', refresh_token: refreshToken });

async function expectRefused(reply: Response, error = 'invalid_grant') {
  expect(reply.status).toBe(400);
  expect(await reply.json()).toEqual({ error });
}

describe('revoking a refresh token (/oauth2/revoke)', () => {
  it('ends every refresh token of that sign-in, rotated ones and the one in its grace period too', async () => {
    const origin = apiUrl();
    const first = await signedIn(origin, 'u-revoke');
    const renewed = await refresh(origin, first.refresh_token ?? '');
    expect(renewed.status).toBe(200);
    const second = (await renewed.json()) as Record<string, string>;
    // Rotation: a new refresh token, and its ID token works.
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await call('GET', '/api/actions?limit=0', { token: second.id_token })).status).toBe(200);

    const revoked = await revokeCall(origin, { token: second.refresh_token ?? '' });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toBe('');
    await expectRefused(await refresh(origin, second.refresh_token ?? ''));
    // The first was rotated a moment ago (still within its grace period): revoked with its sign-in.
    await expectRefused(await refresh(origin, first.refresh_token ?? ''));
  });

  it('answers as RFC 7009 and Cognito do: 200 for an unknown token, 400 for the rest', async () => {
    const origin = apiUrl();
    const tokens = await signedIn(origin, 'u-revoke-errors');
    expect((await revokeCall(origin, { token: 'never-issued' })).status).toBe(200);
    await expectRefused(await revokeCall(origin, {}), 'invalid_request');
    await expectRefused(await revokeCall(origin, { token: tokens.id_token ?? '' }), 'unsupported_token_type');
    await expectRefused(
      await revokeCall(origin, { token: tokens.refresh_token ?? '', client_id: 'someone-else' }),
      'invalid_client',
    );
    // None of those revoked it.
    expect((await refresh(origin, tokens.refresh_token ?? '')).status).toBe(200);
    expect((await fetch(`${origin}/oauth2/revoke`)).status).toBe(405);
  });
});

describe('refresh tokens expire and rotate', () => {
  let server: Server;
  let origin: string;
  let clock = Date.parse('2026-11-24T08:00:00Z');

  beforeAll(async () => {
    const signIn = createSignIn(issuerFiles(), 3600, {
      validitySeconds: 12 * 3600,
      rotationGraceSeconds: 10,
      now: () => clock,
    });
    server = createServer((request, response) => {
      void signIn.handle(request, response).then((served) => served || response.writeHead(404).end());
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('lets a used refresh token work for its grace period, then never again', async () => {
    const first = await signedIn(origin, 'u-rotate');
    const second = (await (await refresh(origin, first.refresh_token ?? '')).json()) as Record<string, string>;
    clock += 9_000;
    // A retry within the grace period still works (and rotates again).
    expect((await refresh(origin, first.refresh_token ?? '')).status).toBe(200);
    clock += 2_000;
    await expectRefused(await refresh(origin, first.refresh_token ?? ''));
    expect((await refresh(origin, second.refresh_token ?? '')).status).toBe(200);
  });

  it('ends a sign-in 12 hours after it began, however often it was refreshed', async () => {
    const began = clock;
    let current = (await signedIn(origin, 'u-expire')).refresh_token ?? '';
    for (const hours of [4, 8, 11.99]) {
      clock = began + hours * 3600_000;
      const reply = await refresh(origin, current);
      expect(reply.status, `after ${hours} h`).toBe(200);
      current = ((await reply.json()) as Record<string, string>).refresh_token ?? '';
    }
    clock = began + 12 * 3600_000;
    await expectRefused(await refresh(origin, current));
  });
});

describe("the console's Sign out", () => {
  it.skipIf(!hasChromium)(
    'revokes the refresh token it held: refreshing with it afterwards is invalid_grant',
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
      });
      try {
        const page = await browser.newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`${apiUrl()}/`);
        await page.waitForURL(/\/oauth2\/authorize\?/);
        await page.getByLabel('User id').fill('u-sign-out');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        const held = await page.evaluate<string | null>("sessionStorage.getItem('console.refresh')");
        expect(held).toEqual(expect.any(String));

        await page.getByRole('button', { name: 'Sign out' }).click();
        // Back at the sign-in form: the session ended here and at the authority.
        await page.waitForURL(/\/oauth2\/authorize\?/);
        await expectRefused(await refresh(apiUrl(), held ?? ''));
      } finally {
        await browser.close();
      }
    },
  );
});
