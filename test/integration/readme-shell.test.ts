import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, DOC_PAGES, readPage } from '../support/doc-pages';

/**
 * Issue 28: the README and the docs run top to bottom as a newcomer's shell session. Against a
 * fresh `npm start` (memory store, its own DATA_DIR, a free port), every ```sh block of the pages
 * `DOC_PAGES` lists (README.md, then docs/ in reading order), read from the pages themselves (so
 * they cannot drift), runs as one bash script.
 *
 * The convention every page's author follows:
 * - Only ```sh blocks run; ```console, ```text, ```js, ```ts and bare ``` fences do not. Commands
 *   meant for another terminal or machine (`npm ci && npm start`, `cdk deploy`) are ```console.
 * - A ```sh block runs after the ones before it, with their variables ($TOKEN, $API, $H, $ID,
 *   $COMMENT), and with PORT and DATA_DIR set as the reader's `npm start` had them.
 * - The session fails on a failing command (`set -euo pipefail`) and on any `curl` answered with
 *   a status outside 2xx, unless that `curl` line ends in a comment naming the status
 *   (`curl -si -H "$H" $API/$ID   # 404 now`).
 */

const ROOT = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'actions-readme-shell-'));
const work = mkdtempSync(join(tmpdir(), 'actions-readme-run-'));
/** Files the pages write into the directory it runs in (the repository). */
const WRITTEN = ['requested.ndjson'].map((f) => join(ROOT, f));
const foundBefore = WRITTEN.filter((f) => existsSync(f));
let server: ChildProcess | undefined;
let port = 0;

/** A page's ```sh blocks, each with the page and the line its first command is on. */
function shellBlocks(page: string): Array<{ page: string; line: number; text: string }> {
  const markdown = readPage(page);
  const blocks: Array<{ page: string; line: number; text: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```sh\s*$/.test(lines[i] as string)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    blocks.push({ page, line: start + 1, text: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** `curl ... # 404 ...` runs with EXPECT=404, which the curl wrapper below accepts. */
const withExpectations = (text: string) =>
  text.replace(/^(curl .*#\s*([1-5]\d\d)\b.*)$/gm, (_all, command: string, status: string) =>
    /^2/.test(status) ? command : `EXPECT=${status} ${command}`,
  );

const PRELUDE = `set -euo pipefail
# Every curl records its status; one outside 2xx that the page did not announce fails the run.
curl() {
  local headers status
  headers=$(mktemp)
  command curl -D "$headers" "$@" || { echo "curl failed: $*" >> "$STATUS_LOG"; rm -f "$headers"; return 1; }
  status=$(awk 'toupper($1) ~ /^HTTP\\// { s = $2 } END { print s }' "$headers")
  rm -f "$headers"
  case "$status" in
    2??) ;;
    "\${EXPECT:-none}") ;;
    *) echo "curl answered \${status:-nothing} (expected 2xx\${EXPECT:+ or $EXPECT}): $*" >> "$STATUS_LOG" ;;
  esac
}
`;

beforeAll(async () => {
  server = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, STORE: 'memory', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  let output = '';
  server.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const found = /Action tracking service on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
    if (found && output.includes('curl')) {
      port = Number(found);
      return;
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  for (const file of WRITTEN) if (!foundBefore.includes(file)) rmSync(file, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Every block of the pages, in their reading order. */
const sessionBlocks = () => DOC_PAGES.flatMap(shellBlocks);

describe('the README and the docs as a shell session', () => {
  it('has runnable blocks, and fences what must not run otherwise', () => {
    const blocks = sessionBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const all = blocks.map((b) => b.text).join('\n');
    expect(all).not.toMatch(/npm ci|npm start|cdk (deploy|bootstrap)/);
    for (const page of allPages()) expect(readPage(page), page).not.toContain('../shared/');
  });

  it('runs every page that has a ```sh block', () => {
    const unlisted = allPages().filter(
      (page) => shellBlocks(page).length > 0 && !(DOC_PAGES as readonly string[]).includes(page),
    );
    expect(unlisted).toEqual([]);
    for (const page of DOC_PAGES) expect(shellBlocks(page).length, page).toBeGreaterThan(0);
  });

  it('runs top to bottom against a fresh npm start: every command succeeds, every curl is 2xx or announced', () => {
    const blocks = sessionBlocks();
    const script = join(work, 'readme.sh');
    const statusLog = join(work, 'status.log');
    writeFileSync(statusLog, '');
    writeFileSync(
      script,
      PRELUDE + blocks.map((b) => `# ${b.page} line ${b.line}\n${withExpectations(b.text)}\n`).join('\n'),
    );
    const run = spawnSync('bash', [script], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, STATUS_LOG: statusLog, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 280_000,
    });
    const said = `exit ${run.status}\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`;
    expect(readFileSync(statusLog, 'utf8'), said).toBe('');
    expect(run.status, said).toBe(0);
    // The session did what the pages say: an id captured, the same event twice made one action.
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}$/m);
    expect(run.stdout).toMatch(/line 1: \S+ created|line 1: \S+ already existed/);
    expect(run.stdout).toMatch(/line 1: \S+ already existed/);
  }, 300_000);
});
