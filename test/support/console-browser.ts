import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the console's browser tests share: Debian's Chromium, signing in through the local form,
 * axe-core's WCAG 2.2 AA rules, and the phone-width check. One helper per mechanism, so each
 * browser test file says only what a person does.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Person {
  sub: string;
  name: string;
  email: string;
}

/** Chromium, headless, with nothing of its own on the network. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/** Signs in through the local form the console sent the page to, and waits for the console. */
export async function signIn(target: Page, user: Person): Promise<void> {
  await target.waitForURL(/\/oauth2\/authorize\?/);
  await target.getByLabel('User id').fill(user.sub);
  await target.getByLabel('Name').fill(user.name);
  await target.getByLabel('Email').fill(user.email);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** axe-core's WCAG 2.2 AA rules on the page as it is now; injected through the DevTools protocol, which the CSP does not govern. */
export async function expectAccessible(target: Page, what: string): Promise<void> {
  if (!(await target.evaluate("'axe' in window"))) await target.evaluate(AXE);
  const violations = await target.evaluate(async (tags) => {
    const { axe } = globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: unknown[] }> } };
    const result = await axe.run({ runOnly: { type: 'tag', values: tags } });
    return (result.violations as { id: string; nodes: { target: string[] }[] }[]).map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  }, WCAG);
  expect(violations, what).toEqual([]);
}

/** The page is no wider than the window (a 390 px phone scrolls only down). */
export async function expectNoSidewaysScroll(target: Page, what: string): Promise<void> {
  // Strings run in the page (this file is type-checked without the DOM's types).
  const widths = await target.evaluate<{ scroll: number; client: number }>(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  );
  expect(widths.scroll, what).toBeLessThanOrEqual(widths.client);
}
