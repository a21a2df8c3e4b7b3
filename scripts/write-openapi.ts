import { writeFileSync } from 'node:fs';
import { commandLine } from '../infra/command-line';
import { openApiDocument } from '../lib/api-docs/openapi';

/** `npm run openapi`: writes openapi.json from the schemas (a test keeps the committed copy current). */
commandLine(
  `usage: npm run openapi

Writes openapi.json (the API document) from the schemas the service validates with.`,
  {},
);
writeFileSync('openapi.json', `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('wrote openapi.json');
