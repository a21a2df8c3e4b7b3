import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README's Layout section is where a newcomer learns where things are (issue 33): every folder
 * of `lib/`, at any depth, must be named there, so a new folder cannot land unexplained.
 */

const layout = (() => {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Layout');
  const block = readme.slice(start, readme.indexOf('```\n', readme.indexOf('```', start) + 3));
  return block;
})();

function foldersBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...foldersBelow(join(dir, entry.name))]);
}

/** A folder is named when its last segment stands at the start of a line of the block, as `name/`. */
const named = (folder: string) => new RegExp(`^\\s*${folder.split('/').at(-1)}/\\s`, 'm').test(layout);

describe('the README layout', () => {
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
