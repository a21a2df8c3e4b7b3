import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { actionBody, call, uniqueProducer } from '../support/client';
import {
  expectAccessible,
  expectNoSidewaysScroll,
  hasChromium,
  launchChromium,
  signIn,
} from '../support/console-browser';

/**
 * Issues 50 and 51 in Chromium: the Overview (section 17) at 1280 and 390 px, axe-clean, where a
 * bar's number and the list it opens show the same count; Export from a list and its download;
 * Import of a file with bad rows: the report, then "Create N actions". A stack of its own (the
 * sweep on, for overdue), so every count is this file's actions.
 */

const ANN = { sub: 'u-overview-ann', name: 'Ann Lee', email: 'ann@example.com' };
const producer = uniqueProducer('Overview');
const DAY = 86_400_000;

let stack: LocalStack;
let dataDir: string;
let browser: Browser;
const saved = { ...process.env };

const eventually = <T>(read: () => T | Promise<T>, timeout = 20_000) => expect.poll(read, { timeout });
const api = <T = any>(method: string, path: string, body?: unknown) =>
  call<T>(method, path, { token: issueToken(stack.issuer, ANN), body, baseUrl: stack.url });
const totalOf = async (query: string) =>
  (await api<{ totalCount: number }>('GET', `/api/actions?${query}&limit=0`)).body.totalCount;

const at = (businessUnit: string, site: string, department = 'Maintenance') => ({
  businessUnit,
  site,
  department,
  workGroup: '',
  productiveUnit: '',
  team: '',
  crew: '',
});

beforeAll(async () => {
  if (!hasChromium) return;
  dataDir = mkdtempSync(join(tmpdir(), 'actions-overview-'));
  Object.assign(process.env, { LOG_LEVEL: 'silent' });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0, sweepEverySeconds: 1 });
  browser = await launchChromium();
  const now = Date.now();
  // Two business units; North Pit with open, overdue (2, 12, 40 and 120 days) and closed actions.
  const plan: [ReturnType<typeof at>, number, string][] = [
    [at('Iron Ore', 'North Pit'), 3, '1'],
    [at('Iron Ore', 'North Pit'), -2, '1'],
    [at('Iron Ore', 'North Pit'), -12, '2'],
    [at('Iron Ore', 'North Pit', 'Fixed plant'), -40, '1'],
    [at('Iron Ore', 'North Pit', 'Fixed plant'), -120, '5'],
    [at('Iron Ore', 'North Pit'), 20, '3'],
    [at('Iron Ore', 'South Pit'), 5, '1'],
    [at('Iron Ore', 'South Pit'), 30, '2'],
    [at('Coal', 'East'), -3, '1'],
    [at('Coal', 'East'), 60, '4'],
  ];
  for (const [i, [location, days, status]] of plan.entries()) {
    const created = await api(
      'POST',
      '/api/actions',
      actionBody(producer, {
        title: `Overview check ${i} ${producer}`,
        location,
        dueAt: new Date(now + days * DAY).toISOString(),
        status,
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  // The sweep marks the past-due ones overdue.
  for (let waited = 0; (await totalOf('overdue=true')) < 5 && waited < 20_000; waited += 250)
    await new Promise((resolve) => setTimeout(resolve, 250));
  // Trends are kept from the change stream and may lag the writes by up to 60 s (section 17).
  const today = new Date().toISOString().slice(0, 10);
  const raised = async () =>
    (await api<{ buckets: { created: number }[] }>('GET', `/api/actions/trends?interval=day&from=${today}&to=${today}`))
      .body.buckets?.[0]?.created;
  for (let waited = 0; (await raised()) !== plan.length && waited < 90_000; waited += 500)
    await new Promise((resolve) => setTimeout(resolve, 500));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.env = saved;
});

async function signedIn(width: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  await page.goto(`${stack.url}/overview`);
  await signIn(page, ANN);
  return page;
}

/** The number a list shows: "7 actions" is 7. */
const listCount = async (page: Page) => {
  await eventually(() => page.locator('.count').textContent()).toMatch(/^\d+\+? actions?$/);
  return Number.parseInt((await page.locator('.count').textContent()) ?? '', 10);
};

describe.skipIf(!hasChromium)('the Overview, Export and Import', { timeout: 180_000 }, () => {
  it('has marked the past-due actions overdue, and counted their creation in the trend', async () => {
    await expect(totalOf('overdue=true')).resolves.toBe(5);
    const today = new Date().toISOString().slice(0, 10);
    const trend = await api('GET', `/api/actions/trends?interval=day&from=${today}&to=${today}`);
    expect(trend.body.buckets[0].created).toBe(10);
  });

  for (const width of [1280, 390]) {
    it(`shows the tiles and the weekly trend at ${width} px, a tile's number the count of the list it opens`, async () => {
      const page = await signedIn(width);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // Tiles: open and overdue equal the API's lists, and overdue's share of open.
      const open = await totalOf('status=~1,2,5');
      expect(open).toBe(8);
      await eventually(() => page.getByRole('link', { name: `${open} open`, exact: true }).count()).toBe(1);
      await eventually(() => page.getByRole('link', { name: '5 overdue', exact: true }).count()).toBe(1);
      await expect(page.locator('.tiles').textContent()).resolves.toContain('63% of open');
      await expect(page.getByRole('link', { name: '2 due in the next 7 days', exact: true }).count()).resolves.toBe(1);

      // The weekly trend's numbers are one toggle away: 13 weeks, this week's 10 raised (the trend may lag the writes by up to a minute).
      await page.getByText('The numbers as a table').click();
      await expect(page.locator('table.weeks tbody tr').count()).resolves.toBe(13);
      await eventually(
        () => page.locator('table.weeks tbody tr').last().locator('td').first().textContent(),
        90_000,
      ).toBe('10');
      await expectAccessible(page, `the Overview at ${width} px`);
      if (width < 600) await expectNoSidewaysScroll(page, 'the Overview at 390 px');

      // A tile's number opens the list it counts, which shows the same number.
      await page.getByRole('link', { name: '2 due in the next 7 days', exact: true }).click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('All actions');
      await expect(listCount(page)).resolves.toBe(2);
      await page.context().close();
    });

    it(`drills into a business unit at ${width} px, a bar's number the count of the list it opens`, async () => {
      const page = await signedIn(width);
      await page.getByRole('heading', { name: 'Open and overdue by business unit' }).waitFor();
      await eventually(() => page.getByRole('link', { name: '7 open at Iron Ore', exact: true }).count()).toBe(1);
      await expectAccessible(page, `the Overview's bars at ${width} px`);

      // Drill from the business unit to its sites; North Pit's bar says 5 open, 4 overdue.
      await page.getByRole('link', { name: 'Iron Ore', exact: true }).click();
      await page.getByRole('heading', { name: 'Open and overdue by site' }).waitFor();
      const northOpen = page.getByRole('link', { name: /^\d+ open at North Pit$/ });
      await eventually(() => northOpen.textContent()).toBe('5');
      await expect(page.getByRole('link', { name: /^\d+ overdue at North Pit$/ }).textContent()).resolves.toBe('4');
      await expect(page.getByRole('navigation', { name: 'Scope' }).textContent()).resolves.toContain('Iron Ore');

      // Overdue by age: 2 days, 12 days, 40 days, 120 days, one each at North Pit.
      for (const name of ['1 to 7 days', '8 to 30 days', '31 to 90 days', 'more than 90 days'])
        await expect(page.getByRole('link', { name: `1 overdue ${name}`, exact: true }).count(), name).resolves.toBe(1);
      await expectAccessible(page, `the Overview of Iron Ore at ${width} px`);
      if (width < 600) await expectNoSidewaysScroll(page, 'the Overview of Iron Ore at 390 px');

      // A bar's number opens the list it counts, which shows the same number.
      await northOpen.click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('All actions');
      await expect(listCount(page)).resolves.toBe(5);
      await page.goBack();
      await page.getByRole('link', { name: /^\d+ overdue 31 to 90 days$/ }).click();
      await expect(listCount(page)).resolves.toBe(1);
      await page.context().close();
    });
  }

  it('exports a list and downloads the file: its rows are the list’s', async () => {
    const page = await signedIn(1280);
    await page.goto(`${stack.url}/all?site=North%20Pit&sort=dueAt`);
    const count = await listCount(page);
    expect(count).toBe(6);
    await page.locator('summary', { hasText: 'Export' }).click();
    await page.getByLabel('CSV').check();
    await page.getByRole('button', { name: /^Export as / }).click();
    await eventually(() => page.locator('.export-status').textContent(), 60_000).toBe(`Export ready: ${count} rows.`);
    await expectAccessible(page, 'a list with its export ready');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the CSV file' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^actions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]?.startsWith('id,title,description,status,priority,dueAt')).toBe(true);
    expect(lines.length).toBe(count + 1);
    // In the list's order: soonest due first.
    const titles = await page.locator('tbody tr td:first-child').allTextContents();
    expect(lines.slice(1).map((line) => titles.findIndex((t) => line.includes(t)))).toEqual(titles.map((_, i) => i));
    await page.context().close();
  });

  it('imports a file with bad rows: reads the report, then creates the valid ones', async () => {
    const page = await signedIn(1280);
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Import actions' }).waitFor();
    await expectAccessible(page, 'the Import screen');
    const imported = uniqueProducer('Imported');
    const due = new Date(Date.now() + 30 * DAY).toISOString();
    const file = join(dataDir, 'actions.csv');
    writeFileSync(
      file,
      [
        'title,actionProducer.name,dueAt,priority,status,location.businessUnit,location.site',
        `Fix the gate latch,${imported},${due},2,1,Iron Ore,North Pit`,
        `Paint the walkway,${imported},${due},not a number,1,Iron Ore,North Pit`,
        `Replace the guard,${imported},${due},1,1,Iron Ore,South Pit`,
        `,${imported},${due},1,1,Iron Ore,South Pit`,
        `Check the lights,${imported},${due},3,2,Coal,East`,
      ].join('\r\n'),
    );
    await page.getByLabel('Spreadsheet (CSV or Excel)').setInputFiles(file);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const report = page.getByRole('region', { name: "The check's report" });
    await eventually(() => report.textContent(), 60_000).toContain('5 rows: 3 valid, 2 with problems');
    const rows = await page
      .locator('table.problems tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...(tr as unknown as { cells: { textContent: string }[] }).cells].map((c) => c.textContent)),
      );
    expect(rows.map(([row, column]) => `${row} ${column}`)).toEqual(['3 priority', '5 title']);
    expect(await totalOf(`actionProducer.name=${encodeURIComponent(imported)}`)).toBe(0);
    await expectAccessible(page, 'the import report');

    await page.getByRole('button', { name: 'Create 3 actions' }).click();
    await eventually(() => page.locator('.import-status').textContent(), 60_000).toBe('Created 3 actions.');
    expect(await totalOf(`actionProducer.name=${encodeURIComponent(imported)}`)).toBe(3);
    await page.context().close();
  });
});
