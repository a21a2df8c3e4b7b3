import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pages whose ```sh blocks run as one shell session (test/integration/readme-shell.test.ts)
 * and whose `"$API?..."` filter examples must find something (readme-examples.test.ts), in the
 * order a newcomer reads them: a block may use the variables of the blocks before it ($TOKEN,
 * $API, $H, $ID...). A docs page with a ```sh block must be listed (a test says so).
 */
export const DOC_PAGES = [
  'README.md',
  'docs/api.md',
  'docs/webhooks.md',
  'docs/due-dates.md',
  'docs/notifications.md',
  'docs/sync.md',
  'docs/access.md',
] as const;

const ROOT = join(import.meta.dirname, '..', '..');

/** A page's text, by its path from the repository root. */
export const readPage = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/** Every page of docs/ (and the README), as paths from the repository root. */
export const allPages = (): string[] => [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
