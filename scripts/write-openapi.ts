import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../lib/api-docs/openapi';

/** `npm run openapi`: writes openapi.json from the schemas (a test keeps the committed copy current). */
writeFileSync('openapi.json', `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('wrote openapi.json');
