import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeConsole } from '../console/build';
import { handlerBuild } from '../infra/bundling';
import { commandLine } from '../infra/command-line';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from '../lib/api-docs/docs-assets';
import { functionHandlers } from '../lib/http/routes';

/**
 * `npm pack` runs this (`prepack`): it builds what the package `action-tracking-service/cdk`
 * ships, so a team's `cdk synth` needs no esbuild, no TypeScript and none of these sources:
 * - `dist/functions/<handler>/index.mjs`: every handler, bundled with the settings the CDK
 *   construct uses when it bundles from source (infra/bundling.ts, infra/cdk/service-function.ts);
 * - `dist/cdk/index.js`: the construct, compiled to CommonJS, with aws-cdk-lib and constructs
 *   left to the consumer (peer dependencies);
 * - `dist/types/`: its type declarations;
 * - `dist/console/`: the built console the construct deploys (from `console/dist`).
 */

commandLine(
  `usage: npm run build:package   (npm pack runs it first)

Builds dist/: the prebuilt function bundles, the construct in JavaScript and its types.`,
  {},
);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const handlers = functionHandlers;
await Promise.all(
  handlers.map((handler) =>
    build(handlerBuild(join(root, 'functions', `${handler}.ts`), join(dist, 'functions', handler, 'index.mjs'))),
  ),
);
// The docs handler serves Swagger UI's files from beside its bundle.
const docsTarget = join(dist, 'functions', 'docs', docsAssetsDirectory);
mkdirSync(docsTarget, { recursive: true });
for (const file of Object.keys(docsAssets)) {
  copyFileSync(join(root, 'node_modules', docsAssetsPackage, file), join(docsTarget, file));
}

// The console the construct deploys by default, built afresh (infra/cdk/console.ts looks for it here in the package).
const consoleBuild = join(root, 'console', 'dist');
await writeConsole();
cpSync(consoleBuild, join(dist, 'console'), { recursive: true });

// The construct: CommonJS, so it loads from ESM and CommonJS apps alike; `import.meta.url` (which
// locates the prebuilt bundles) becomes the bundle's own file URL.
await build({
  entryPoints: [join(root, 'infra', 'cdk', 'index.ts')],
  outfile: join(dist, 'cdk', 'index.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Only the peer dependencies stay outside: the package has no dependencies of its own, so what
  // else the construct imports (unicode-case-folding, through the text rules) is bundled in.
  external: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.package.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(`built ${handlers.length} function bundles, the construct and its types into dist/`);
