import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { commandLine } from '../infra/command-line';
import { idTokenClaims, issueToken, signJwt } from '../infra/local/issuer';
import { startLocalStack } from '../infra/local/stack';

/**
 * `npm run screenshots`: starts a seeded local stack of its own (in memory, a temporary
 * DATA_DIR, the due-date sweep on), signs in to the console as Ann Lee (`u-ann`, the seed's
 * first person; or another person with open actions assigned) in Debian's Chromium, and saves the main screens at desktop (1280 px) and phone
 * (390 px) width to docs/screenshots/. It also measures, and prints: the time to the first usable
 * list (median of 5 loads) and the list calls each screen makes.
 */

/** A small photo of a guard-coloured scene, drawn by Chromium, for the photo screenshot. */
const photo = async (page: Page) =>
  Buffer.from(
    await page.evaluate<string>(`(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1600;
      canvas.height = 1200;
      const g = canvas.getContext('2d');
      g.fillStyle = '#f2c200';
      g.fillRect(0, 0, 1600, 1200);
      g.fillStyle = '#222';
      for (let x = -1200; x < 1600; x += 160) { g.beginPath(); g.moveTo(x, 1200); g.lineTo(x + 80, 1200); g.lineTo(x + 1280, 0); g.lineTo(x + 1200, 0); g.fill(); }
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1];
    })()`),
    'base64',
  );

commandLine(
  `usage: npm run screenshots

Saves the console's main screens, desktop and phone, to docs/screenshots/*.png from a seeded
local stack of its own, and prints the time to the first usable list (median of 5 loads) and the
API list calls per screen. Needs Chromium at /usr/bin/chromium (apt-get install -y chromium).`,
  {},
);

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ACTIONS = 300;

const dataDir = mkdtempSync(join(tmpdir(), 'actions-screenshots-'));
process.env.LOG_LEVEL ??= 'silent';
const stack = await startLocalStack({ dataDir, store: 'memory', port: 0, sweepEverySeconds: 1 });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
});
try {
  execFileSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'seed.ts'), '--actions', String(ACTIONS)],
    {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  // The sweep marks the seed's past-due actions overdue within a few runs.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  mkdirSync(OUT, { recursive: true });
  // Signs in as someone with open actions assigned, so My actions has rows (Ann Lee when she does).
  const token = issueToken(stack.issuer, { sub: 'screenshots' });
  const openAssigned = async (query: string) =>
    (await (
      await fetch(`${stack.url}/api/actions?${query}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      actions: { assignee: { id: string; name: string; email: string | null } }[];
    };
  const ann = await openAssigned('assignee=u-ann&status=~1,2,5&limit=1');
  const who = (ann.actions[0] ?? (await openAssigned('assignee=!undefined&status=~1,2,5&limit=1')).actions[0])
    ?.assignee;
  if (!who) throw new Error('screenshots: the seed assigned no open action');

  const listCalls: Record<string, number> = {};
  const countListCalls = (page: Page, screen: string) =>
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/actions')
        listCalls[screen] = (listCalls[screen] ?? 0) + 1;
    });

  for (const [width, height, suffix] of [
    [1280, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${stack.url}/`);
    await page.getByLabel('User id').fill(who.id);
    await page.getByLabel('Name').fill(who.name);
    await page.getByLabel('Email').fill(who.email ?? '');
    if (suffix === 'desktop') await page.screenshot({ path: join(OUT, 'sign-in-desktop.png') });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tbody a').first().waitFor();
    await page.screenshot({ path: join(OUT, `my-actions-${suffix}.png`) });

    const screen = async (name: string, open: () => Promise<void>) => {
      listCalls[`${name} (${suffix})`] = 0;
      countListCalls(page, `${name} (${suffix})`);
      await open();
      await page.waitForLoadState('networkidle');
      page.removeAllListeners('request');
    };
    await screen('Overdue', async () => {
      await page.getByRole('link', { name: 'Overdue', exact: true }).click();
      await page.locator('tbody a').first().waitFor();
    });
    await page.screenshot({ path: join(OUT, `overdue-${suffix}.png`) });
    await screen('One action', async () => {
      await page.locator('tbody a').first().click();
      await page.getByRole('heading', { name: 'History' }).waitFor();
    });
    await page.screenshot({ path: join(OUT, `action-${suffix}.png`), fullPage: suffix === 'desktop' });
    await screen('New action', async () => {
      await page.getByRole('button', { name: 'New action' }).click();
      await page.getByRole('heading', { name: 'New action' }).waitFor();
    });
    await page.screenshot({ path: join(OUT, `new-action-${suffix}.png`) });
    // Sections 14-16: Notifications, People and access (the person made admin through the
    // deployment's ADMIN_GROUP) and a photo on an action, each where the API serves it.
    await page.goto(`${stack.url}/notifications`);
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(OUT, `notifications-${suffix}.png`), fullPage: suffix === 'desktop' });
    const admin = signJwt(stack.issuer, {
      ...idTokenClaims({ sub: 'screenshots-root' }),
      'cognito:groups': ['action-admins'],
    });
    const granted = await fetch(`${stack.url}/api/grants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ principal: { type: 'person', id: who.id }, role: 'admin', scope: {} }),
    });
    if (granted.ok) {
      await page.goto(`${stack.url}/access`);
      await page.getByRole('heading', { level: 1, name: 'People and access' }).waitFor();
      await page
        .waitForLoadState('networkidle', { timeout: 60_000 })
        .catch(() => console.log('People and access: still loading after 60 s'));
      await page.screenshot({ path: join(OUT, `access-${suffix}.png`), fullPage: suffix === 'desktop' });
    } else console.log(`People and access: no screenshot, POST /api/grants answered ${granted.status}`);
    const settings = (await (await fetch(`${stack.url}/console-config.json`)).json()) as { storageOrigin?: string };
    if (settings.storageOrigin) {
      await page.goto(`${stack.url}/all`);
      await page.locator('tbody a').first().click();
      await page.getByRole('heading', { name: 'History' }).waitFor();
      await page
        .getByLabel('Take a photo')
        .setInputFiles({ name: 'guard.jpg', mimeType: 'image/jpeg', buffer: await photo(page) });
      await page.getByRole('img', { name: 'guard.jpg' }).waitFor({ timeout: 60_000 });
      await page.getByRole('heading', { name: /^Photos and files/ }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `action-photo-${suffix}.png`) });
    } else console.log('Photos: no screenshot, the stack gives the console no storage');
    // Sections 17-18: the Overview (and one level down), a list's Export, and the Import screen.
    await screen('Overview', async () => {
      await page.goto(`${stack.url}/overview`);
      await page.getByRole('heading', { level: 2, name: /^Raised and closed per week/ }).waitFor();
    });
    await page.screenshot({ path: join(OUT, `overview-${suffix}.png`), fullPage: true });
    const unit = page.locator('table.chart tbody th a').first();
    if (await unit.count()) {
      await unit.click();
      await page.getByRole('heading', { level: 2, name: 'Open and overdue by site' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.getByText('The numbers as a table').click();
      await page.screenshot({ path: join(OUT, `overview-business-unit-${suffix}.png`), fullPage: true });
    } else console.log('Overview: no drill-down screenshot, no counts by business unit');
    await page.goto(`${stack.url}/overdue`);
    await page.locator('tbody a').first().waitFor();
    await page.locator('summary', { hasText: 'Export' }).click();
    await page.getByLabel('Excel').check();
    await page.getByRole('button', { name: /^Export as / }).click();
    await page
      .getByRole('link', { name: /^Download/ })
      .or(page.getByRole('alert'))
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(() => console.log('Export: not ready within 60 s'));
    await page.screenshot({ path: join(OUT, `export-${suffix}.png`) });
    await page.goto(`${stack.url}/import`);
    await page.getByRole('heading', { level: 1, name: 'Import actions' }).waitFor();
    const sheet = [
      'title,actionProducer.name,dueAt,priority,status,location.businessUnit,location.site',
      'Fix the gate latch,Spreadsheet,2036-12-01T10:00:00Z,2,1,Iron Ore,North Pit',
      'Paint the walkway,Spreadsheet,2036-12-01T10:00:00Z,high,1,Iron Ore,North Pit',
      'Replace the guard,Spreadsheet,next week,1,1,Iron Ore,South Pit',
      ',Spreadsheet,2036-12-01T10:00:00Z,1,1,Iron Ore,South Pit',
      'Check the lights,Spreadsheet,2036-12-01T10:00:00Z,3,9,Coal,East',
    ].join('\r\n');
    await page
      .getByLabel('Spreadsheet (CSV or Excel)')
      .setInputFiles({ name: 'actions.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await page
      .locator('#report-heading, [role="alert"]')
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(() => console.log('Import: no report within 60 s'));
    await page.screenshot({ path: join(OUT, `import-${suffix}.png`), fullPage: suffix === 'desktop' });
    await screen('All actions, filtered', async () => {
      await page.goto(`${stack.url}/all?status=1&sort=-priority`);
      await page.locator('tbody a').first().waitFor();
    });
    if (suffix === 'desktop') {
      // The first usable list: from opening the address to the list's first link, in a signed-in tab.
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        await page.goto(`${stack.url}/`);
        await page.locator('tbody a').first().waitFor();
        times.push(Date.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        `First usable list (My actions, ${ACTIONS} seeded actions): median ${times[2]} ms of ${times.join(', ')} ms`,
      );
    }
    await context.close();
  }
  for (const [screen, calls] of Object.entries(listCalls))
    console.log(`${screen}: ${calls} list call${calls === 1 ? '' : 's'}`);
  console.log(`Screenshots in ${OUT}`);
} finally {
  await browser.close();
  await stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
