import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * Builds the console with the project's esbuild: one minified entry script (`main-<hash>.js`)
 * and one stylesheet, named by content hash under `assets/` (served `immutable`), and
 * `index.html` pointing at them (never cached). A screen imported with `import()` (the Overview
 * and its charts) is split into a chunk of its own that only that screen loads; chunks shared
 * by it and the entry go into a chunk too. `npm start` builds it in memory at start; `npm run build:console` writes it to
 * `console/dist/` for the construct's bucket.
 */

const HERE = import.meta.dirname;

/** One file of the built console: its path on the site, its content and its type. */
export interface ConsoleFile {
  path: string;
  body: Uint8Array;
  contentType: string;
  /** Hashed names never change content, so they may be cached for good. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};
const typeOf = (path: string) => TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';

/** Builds every file of the console, in memory. */
export async function buildConsole(): Promise<ConsoleFile[]> {
  const outdir = join(HERE, 'dist');
  const result = await build({
    entryPoints: [join(HERE, 'src', 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/[name]-[hash]',
    splitting: true,
    outdir,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = result.outputFiles.map((file) => ({
    path: `/${relative(outdir, file.path).split('\\').join('/')}`,
    body: file.contents,
    contentType: typeOf(file.path),
    immutable: true,
  }));
  const script = assets.find((a) => /^\/assets\/main-\w+\.js$/.test(a.path))?.path;
  const style = assets.find((a) => a.path.endsWith('.css'))?.path;
  if (!script || !style) throw new Error('console build: esbuild made no script or no stylesheet');
  const html = readFileSync(join(HERE, 'index.html'), 'utf8').replace('/main.js', script).replace('/styles.css', style);
  return [...assets, { path: '/index.html', body: Buffer.from(html), contentType: typeOf('.html'), immutable: false }];
}

/** The console's API types, generated from the committed `openapi.json`, so the page calls only documented routes. */
export const API_TYPES_FILE = join(HERE, 'src', 'api-types.ts');

export async function apiTypesSource(): Promise<string> {
  const document = JSON.parse(readFileSync(join(HERE, '..', 'openapi.json'), 'utf8'));
  return `// Generated from openapi.json by \`npm run build:console\` (openapi-typescript); do not edit.\n${astToString(await openapiTS(document))}`;
}

/** Writes the built console to `outDir` (emptied first). */
export async function writeConsole(outDir = join(HERE, 'dist')): Promise<ConsoleFile[]> {
  const files = await buildConsole();
  rmSync(outDir, { recursive: true, force: true });
  for (const file of files) {
    const target = join(outDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.body);
  }
  return files;
}
