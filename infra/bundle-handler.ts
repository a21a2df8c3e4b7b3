import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeMetafile, build } from 'esbuild';
import { handlerBuild } from './bundling';

/**
 * `tsx infra/bundle-handler.ts <entry> <output folder> [--analyze]`: bundles one handler into
 * `<output folder>/index.mjs` (and its source map). The CDK construct runs it when it stages a
 * function (infra/cdk/service-function.ts): CDK's own esbuild step takes no plugins, and the
 * bundle needs one (`literalSchemaKeys`). `--analyze` also prints what the bundle carries, input
 * by input, and writes esbuild's metafile beside it, `meta.json`: who imports whom (docs/bundles.md).
 */

const [entry, output] = process.argv.slice(2).filter((arg) => arg !== '--analyze');
if (!entry || !output) {
  console.error('usage: tsx infra/bundle-handler.ts <entry> <output folder> [--analyze]');
  process.exit(2);
}
const analyze = process.argv.includes('--analyze');
const result = await build({ ...handlerBuild(entry, join(output, 'index.mjs')), metafile: analyze });
if (analyze) {
  writeFileSync(join(output, 'meta.json'), JSON.stringify(result.metafile));
  console.log(await analyzeMetafile(result.metafile!));
}
