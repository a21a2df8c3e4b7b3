import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One helper per mechanism (../shared/style.md, habit 18; issue 40): retries go through
 * `lib/flow/retry.ts`, worker pools through `inPool` in `lib/flow/fan-out.ts`. This reads the service's
 * source for the shapes a hand-written one takes, so a new one fails here instead of in a review.
 * `pending` names the files still to convert (others are changing them); take a file off once
 * it is converted: the test fails while a listed file no longer has the shape.
 */

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = ['lib', 'functions', 'infra/local'].flatMap(sources).map((path) => ({
  path,
  text: readFileSync(path, 'utf8'),
}));

const mechanisms = [
  {
    name: 'a retry loop of its own',
    shapes: [
      // A loop counting attempts, or rounds that pause before all but the first.
      /for \(let attempt\b/,
      /for \(let round\b[^\n]*\n\s*if \(round > 0\) await/,
      // A pause written out in place.
      /await new Promise(<void>)?\(\((r|resolve)\) => setTimeout\(/,
    ],
    home: 'lib/flow/retry.ts',
    pending: [
      // Not retries: the poll interval of an idle reader, and the pause before restarting it.
      'infra/local/stream-reader.ts',
    ],
  },
  {
    name: 'a key condition of its own',
    shapes: [/KeyConditionExpression:/],
    home: 'lib/store/query/key-query.ts',
    pending: [],
  },
  {
    name: 'a Query sent by hand (and its own page loop)',
    shapes: [/new QueryCommand\(/],
    home: 'lib/store/query/pager.ts',
    pending: [],
  },
  {
    name: 'a time parsed in place',
    shapes: [/Date\.parse\(/],
    home: 'lib/dates.ts',
    // Being changed by others now (issue 52 item 1); the lead moves them onto lib/dates.ts.
    pending: [],
  },
  {
    name: 'a worker pool of its own',
    shapes: [/Array\.from\(\{ length: [^}]+\}, async/],
    home: 'lib/flow/fan-out.ts',
    pending: [],
  },
];

describe('one way', () => {
  for (const mechanism of mechanisms) {
    it(`no file but ${mechanism.home} writes ${mechanism.name}`, () => {
      const found = files
        .filter((file) => mechanism.shapes.some((shape) => shape.test(file.text)))
        .map((file) => file.path)
        .filter((path) => path !== mechanism.home);
      expect(found.filter((path) => !mechanism.pending.includes(path))).toEqual([]);
      expect(mechanism.pending.filter((path) => !found.includes(path))).toEqual([]);
    });
  }
});
