import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idTokenClaims, issueToken, signJwt } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { actionBody, call, uniqueProducer } from '../support/client';
import {
  expectAccessible,
  expectNoSidewaysScroll,
  hasChromium,
  launchChromium,
  type Person,
  signIn,
} from '../support/console-browser';

/**
 * Issues 37-39 in the console, as people use it, on a stack of its own with ACCESS=scoped:
 * an admin grants a person a site in People and access, that person sees that site's actions
 * only, and revoking takes them away (section 14); a phone takes a photo, which is shrunk, sent
 * to storage and shown on the action (section 15); the Notifications screen saves preferences,
 * and times show in the person's zone, named (section 16). axe-core and a 390 px phone on every
 * new screen.
 */

if (!hasChromium) console.log('console sections 14-16 browser test skipped: no Chromium at /usr/bin/chromium');

const ADMIN: Person = { sub: 'u-access-ann', name: 'Ann Admin', email: 'ann.admin@example.com' };
const CARL: Person = { sub: 'u-access-carl', name: 'Carl Contractor', email: 'carl@example.com' };
const REPORTER: Person = { sub: 'u-access-rita', name: 'Rita Reporter', email: 'rita@example.com' };
const PHONE: Person = { sub: 'u-evidence-pia', name: 'Pia Phone', email: 'pia@example.com' };

let stack: LocalStack;
let dataDir: string;
let browser: Browser;
const saved = { ...process.env };
const producer = uniqueProducer('Sections');

const eventually = <T>(read: () => T | Promise<T>, timeout = 15_000) => expect.poll(read, { timeout });
const tokenOf = (user: Person) => issueToken(stack.issuer, user);
const api = <T = any>(method: string, path: string, user: Person | string, body?: unknown) =>
  call<T>(method, path, { token: typeof user === 'string' ? user : tokenOf(user), body, baseUrl: stack.url });

/** A fresh browser context (a person of their own) at a width, signed in. */
async function personAt(user: Person, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  await page.goto(`${stack.url}/all`);
  await signIn(page, user);
  return { context, page };
}

beforeAll(async () => {
  if (!hasChromium) return;
  dataDir = mkdtempSync(join(tmpdir(), 'actions-console-sections-'));
  // Roles are not cached here (ACCESS_CACHE_SECONDS=0): the page must show a grant at its next
  // load, not within the cache's 30 s; the cache itself is tested in access.test.ts.
  Object.assign(process.env, { LOG_LEVEL: 'silent', ACCESS: 'scoped', ACCESS_CACHE_SECONDS: '0' });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.env = saved;
});

describe.skipIf(!hasChromium)('People and access (section 14)', { timeout: 180_000 }, () => {
  const titles = {
    north1: `Guard missing at the north crusher ${producer}`,
    north2: `North haul road berm low ${producer}`,
    south: `South pit lighting out ${producer}`,
    coal: `Coal stockpile hot spot ${producer}`,
  };

  it('an admin grants a person a site; they see that site’s actions only; revoking removes them', async () => {
    const at = (businessUnit: string, site: string) => ({
      businessUnit,
      site,
      department: '',
      workGroup: '',
      productiveUnit: '',
      team: '',
      crew: '',
    });
    for (const [title, location] of [
      [titles.north1, at('Iron Ore', 'North Pit')],
      [titles.north2, at('Iron Ore', 'North Pit')],
      [titles.south, at('Iron Ore', 'South Pit')],
      [titles.coal, at('Coal', 'East')],
    ] as const) {
      const created = await api('POST', '/api/actions', REPORTER, actionBody(producer, { title, location }));
      expect(created.status, title).toBe(201);
    }
    // The deployment's ADMIN_GROUP (action-admins) bootstraps Ann as admin of everything.
    const bootstrap = signJwt(stack.issuer, {
      ...idTokenClaims({ sub: 'u-access-root', name: 'Root' }),
      'cognito:groups': ['action-admins'],
    });
    const made = await api('POST', '/api/grants', bootstrap, {
      principal: { type: 'person', id: ADMIN.sub },
      role: 'admin',
      scope: {},
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    // Before any grant, Carl sees none of them.
    const carl = await personAt(CARL);
    await carl.page.goto(`${stack.url}/all?q=${encodeURIComponent(producer)}`);
    await eventually(() => carl.page.locator('.count').textContent()).toBe('0 actions');
    await expect(carl.page.getByRole('link', { name: 'People and access' }).count()).resolves.toBe(0);

    // Ann grants Carl North Pit, picking the place from those that exist.
    const ann = await personAt(ADMIN);
    await ann.page.getByRole('link', { name: 'People and access' }).click();
    await ann.page.getByRole('heading', { level: 1, name: 'People and access' }).waitFor();
    await expectAccessible(ann.page, 'People and access');
    // The people offered are those the service knows (the reporter named on the actions); Carl
    // has no action yet, so Ann gives his user id.
    await eventually(() => ann.page.getByLabel('Person', { exact: true }).locator('option').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(REPORTER.name)]),
    );
    await ann.page.getByLabel('Person', { exact: true }).selectOption({ label: 'Someone else, by user id' });
    await ann.page.getByLabel("Person's user id").fill(CARL.sub);
    await ann.page.getByLabel('Role').selectOption('viewer');
    // The places offered arrive after the page (their own request): wait for them, not a moment.
    await eventually(() => ann.page.getByLabel('Business unit').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Coal', 'Iron Ore']),
    );
    await ann.page.getByLabel('Business unit').selectOption('Iron Ore');
    await expect(ann.page.getByLabel('Site').locator('option').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['All of Iron Ore', 'North Pit', 'South Pit']),
    );
    await ann.page.getByLabel('Site').selectOption('North Pit');
    await ann.page.getByRole('button', { name: 'Grant access' }).click();
    const row = ann.page.getByRole('row').filter({ hasText: CARL.sub });
    await eventually(() => row.textContent()).toContain('Iron Ore › North Pit');
    await expect(row.textContent()).resolves.toContain('Viewer');
    await expectAccessible(ann.page, 'People and access with a grant');

    // Carl now sees North Pit's two actions, and nothing of South Pit or Coal.
    await carl.page.reload();
    await eventually(() => carl.page.locator('.count').textContent()).toBe('2 actions');
    const listed = await carl.page.locator('tbody a').allTextContents();
    expect(listed.sort()).toEqual([titles.north1, titles.north2].sort());
    // The site picker offers the site he can see.
    await carl.page.getByText('Filters', { exact: true }).click();
    const sites = await carl.page
      .locator('#known-sites option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(sites).toContain('North Pit');
    expect(sites).not.toContain('South Pit');

    // Ann revokes; within the API's 60 s, Carl's list is empty again.
    await ann.page.getByRole('button', { name: `Revoke Viewer of Iron Ore › North Pit for ${CARL.sub}` }).click();
    await eventually(() => ann.page.getByRole('row').filter({ hasText: CARL.sub }).count()).toBe(0);
    await eventually(async () => {
      await carl.page.reload();
      await carl.page
        .locator('.count')
        .filter({ hasText: /actions?$/ })
        .waitFor();
      return carl.page.locator('.count').textContent();
    }, 75_000).toBe('0 actions');

    // People and access at phone width.
    await ann.page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(ann.page, 'People and access at 390 px');
    await expectAccessible(ann.page, 'People and access at 390 px');
    await carl.context.close();
    await ann.context.close();
  });
});

/** A camera-sized JPEG (4032 x 3024), drawn by Chromium itself, so no image library is needed. */
async function cameraPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate<string>(`(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 4032;
    canvas.height = 3024;
    const g = canvas.getContext('2d');
    const gradient = g.createLinearGradient(0, 0, 4032, 3024);
    gradient.addColorStop(0, '#8a5a2b');
    gradient.addColorStop(1, '#2b5a8a');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 4032, 3024);
    // Grain, as a camera's sensor gives, so the file is the size of a real photo.
    const noise = g.getImageData(0, 0, 4032, 3024);
    let seed = 7;
    for (let i = 0; i < noise.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = (seed % 48) - 24;
      noise.data[i] += n; noise.data[i + 1] += n; noise.data[i + 2] += n;
    }
    g.putImageData(noise, 0, 0);
    return canvas.toDataURL('image/jpeg', 0.92).split(',')[1];
  })()`);
  return Buffer.from(base64, 'base64');
}

/** A JPEG's width and height, from its start-of-frame marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  for (let i = 2; i < bytes.length; ) {
    const marker = bytes[i + 1] ?? 0;
    const length = ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0);
    if (marker >= 0xc0 && marker <= 0xc3)
      return {
        height: ((bytes[i + 5] ?? 0) << 8) | (bytes[i + 6] ?? 0),
        width: ((bytes[i + 7] ?? 0) << 8) | (bytes[i + 8] ?? 0),
      };
    i += 2 + length;
  }
  throw new Error('no start-of-frame marker');
}

describe.skipIf(!hasChromium)('Photos and files (section 15)', { timeout: 180_000 }, () => {
  it('takes a photo at phone width: shrunk in the browser, sent with progress, shown on the action', async () => {
    const created = await api<{ id: string }>(
      'POST',
      '/api/actions',
      PHONE,
      actionBody(producer, { title: `Broken guard on conveyor 4 ${producer}` }),
    );
    expect(created.status).toBe(201);
    const { context, page } = await personAt(PHONE, 390);
    await page.goto(`${stack.url}/actions/${created.body.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const photo = await cameraPhoto(page);

    // A comment half typed stays through a failed upload: storage is unreachable for the first try.
    await page.getByLabel('Comment', { exact: true }).fill('Guard photographed before the fix');
    const settings = (await (await fetch(`${stack.url}/console-config.json`)).json()) as { storageOrigin?: string };
    expect(settings.storageOrigin, 'the console is told where storage is').toBeDefined();
    const storage = new URL(settings.storageOrigin ?? '');
    await page.route(`${storage.origin}/**`, (route) => route.abort('connectionfailed'));
    const camera = page.getByLabel('Take a photo');
    await expect(camera.getAttribute('capture')).resolves.toBe('environment');
    await camera.setInputFiles({ name: 'guard.jpg', mimeType: 'image/jpeg', buffer: photo });
    await eventually(() => page.getByRole('alert').textContent()).toContain('guard.jpg was not added');
    await expect(page.getByLabel('Comment', { exact: true }).inputValue()).resolves.toBe(
      'Guard photographed before the fix',
    );

    // Try again, with storage back: progress, then the photo on the page.
    await page.unroute(`${storage.origin}/**`);
    const sawProgress = page
      .locator('progress')
      .waitFor({ timeout: 20_000 })
      .then(() => true)
      .catch(() => false);
    await page.getByRole('button', { name: 'Try again' }).click();
    const thumbnail = page.getByRole('img', { name: 'guard.jpg' });
    await thumbnail.waitFor({ timeout: 30_000 });
    await eventually(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(
      2560,
    );
    expect(await sawProgress).toBe(true);
    await eventually(() => page.locator('.notice').textContent()).toMatch(/Added guard\.jpg \(made smaller: /);
    await expect(page.getByLabel('Comment', { exact: true }).inputValue()).resolves.toBe(
      'Guard photographed before the fix',
    );
    await expectNoSidewaysScroll(page, 'action with a photo at 390 px');
    await expectAccessible(page, 'action with a photo');

    // What was stored is the shrunk JPEG, 2560 px on its long side.
    const action = await api<{ attachments: { id: string; name: string; size: number; contentType: string }[] }>(
      'GET',
      `/api/actions/${created.body.id}`,
      PHONE,
    );
    const stored = action.body.attachments.find((a) => a.name === 'guard.jpg');
    expect(stored?.contentType).toBe('image/jpeg');
    expect(stored?.size).toBeLessThan(photo.length);
    const file = await fetch(`${stack.url}/api/actions/${created.body.id}/attachments/${stored?.id}`, {
      headers: { authorization: `Bearer ${tokenOf(PHONE)}` },
    });
    expect(file.status).toBe(200);
    expect(jpegSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: 2560, height: 1920 });

    const shrink = JSON.parse((await page.evaluate<string | undefined>('document.body.dataset.lastShrink')) ?? '{}');
    console.log(
      `photo shrink in Chromium: ${shrink.bytesIn} bytes in (4032x3024 JPEG), ${shrink.bytesOut} bytes out (2560x1920 JPEG), ${shrink.ms} ms`,
    );
    expect(shrink.bytesIn).toBe(photo.length);
    expect(shrink.bytesOut).toBe(stored?.size);
    await context.close();
  });
});

describe.skipIf(!hasChromium)('Notifications (section 16)', { timeout: 120_000 }, () => {
  const NORA: Person = { sub: 'u-notify-nora', name: 'Nora Perth', email: 'nora@example.com' };

  it('saves preferences, and shows every time in the chosen zone, named', async () => {
    const created = await api<{ id: string }>(
      'POST',
      '/api/actions',
      NORA,
      actionBody(producer, { title: `Perth workshop hoist check ${producer}`, dueAt: '2036-12-01T10:00:00Z' }),
    );
    expect(created.status).toBe(201);
    const { context, page } = await personAt(NORA);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByLabel('Time zone').waitFor();
    await expectAccessible(page, 'Notifications');
    await page.getByLabel('One email a day, at the hour below').check();
    await page.getByLabel('Someone comments on an action of mine').uncheck();
    await page.getByLabel('Time zone').selectOption('Australia/Perth');
    await page.getByLabel('Daily email at').selectOption('18');
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.locator('.notice').textContent()).toBe('Saved.');

    const preferences = await api('GET', '/api/me/notifications', NORA);
    expect(preferences.body).toMatchObject({
      email: 'daily',
      timeZone: 'Australia/Perth',
      digestHour: 18,
      events: { assigned: true, dueSoon: true, overdue: true, escalated: true, comments: false, status: true },
    });

    // 10:00 UTC reads 18:00 AWST, on the action and in its history.
    await page.goto(`${stack.url}/actions/${created.body.id}`);
    await eventually(() => page.locator('.status-line').textContent()).toContain('due 1 Dec 2036, 18:00 AWST');
    // After a reload the form shows what was saved.
    await page.goto(`${stack.url}/notifications`);
    await eventually(() => page.getByLabel('Time zone').inputValue()).toBe('Australia/Perth');
    await expect(page.getByLabel('Daily email at').inputValue()).resolves.toBe('18');
    await expect(page.getByLabel('Someone comments on an action of mine').isChecked()).resolves.toBe(false);

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page, 'Notifications at 390 px');
    await expectAccessible(page, 'Notifications at 390 px');
    await context.close();
  });
});
