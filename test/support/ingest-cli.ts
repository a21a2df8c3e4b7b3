import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir } from './client';

/**
 * `npm run ingest -- <file.ndjson>`, exactly as a developer types it, against the running test
 * stack: DATA_DIR is the stack's data directory, where it left stack.json for the CLI to find.
 */
export async function runIngest(
  lines: unknown[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const directory = mkdtempSync(join(tmpdir(), 'ingest-cli-'));
  const file = join(directory, 'events.ndjson');
  writeFileSync(file, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
  try {
    return await new Promise((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'ingest', '--', file],
        { env: { ...process.env, DATA_DIR: dataDir(), ...env }, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
