import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/layout.md is where a newcomer learns where things are (issue 33): every folder of `lib/`,
 * at any depth, must be named in its tree, so a new folder cannot land unexplained.
 */

const layout = (() => {
  const page = readFileSync('docs/layout.md', 'utf8');
  const start = page.indexOf('```');
  return page.slice(start, page.indexOf('```\n', start + 3));
})();

function foldersBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...foldersBelow(join(dir, entry.name))]);
}

/** A folder is named when its last segment stands at the start of a line of the block, as `name/`. */
const named = (folder: string) => new RegExp(`^\\s*${folder.split('/').at(-1)}/\\s`, 'm').test(layout);

describe('the layout page', () => {
  it('names every folder of lib/', () => {
    const folders = foldersBelow('lib');
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((folder) => !named(folder))).toEqual([]);
  });

  it('fails for a folder it does not name', () => {
    expect(named('lib/no-such-capability')).toBe(false);
    expect(named('lib/store/list')).toBe(true);
  });
});
