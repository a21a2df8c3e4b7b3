import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { API_TYPES_FILE, apiTypesSource, writeConsole } from '../console/build';
import { commandLine } from '../infra/command-line';

/**
 * `npm run build:console`: regenerates the console's API types from openapi.json, then writes
 * the built console to console/dist/ (what the construct's bucket serves) and prints each file's
 * size, raw and gzipped. `npm start` and the tests build it in memory themselves.
 */

const { values } = commandLine(
  `usage: npm run build:console [-- --assets-only]

Regenerates console/src/api-types.ts from openapi.json and writes the built console (index.html
and hashed assets) to console/dist/, printing each file's size raw and gzipped.
--assets-only: only the built console (cdk synth runs this: it must not rewrite a source file).`,
  { 'assets-only': { type: 'boolean', default: false } },
);

if (!values['assets-only']) writeFileSync(API_TYPES_FILE, await apiTypesSource());
const files = await writeConsole();
let scripts = 0;
for (const file of files) {
  const gzipped = gzipSync(file.body, { level: 9 }).length;
  if (file.path.endsWith('.js')) scripts += gzipped;
  console.log(
    `${file.path.padEnd(40)} ${String(file.body.length).padStart(8)} B  ${String(gzipped).padStart(7)} B gzipped`,
  );
}
console.log(`JavaScript in all, gzipped: ${(scripts / 1024).toFixed(1)} KB (budget 60 KB)`);
