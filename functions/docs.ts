import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from '../lib/docs-assets';
import { clip, NotFoundError, toProblem } from '../lib/errors';

/**
 * GET /docs and /docs/{file} (public): Swagger UI over /api/openapi.json. The UI's files come
 * from the swagger-ui-dist package: copied beside the bundle in AWS, from node_modules locally.
 */

const here = dirname(fileURLToPath(import.meta.url));
const bundled = join(here, docsAssetsDirectory);
const assets = existsSync(bundled)
  ? bundled
  : dirname(createRequire(import.meta.url).resolve(`${docsAssetsPackage}/package.json`));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Action tracking service API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>`;

const start = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
});`;

/** Only these files are served, so no path can reach anything else. */
const files = docsAssets;

const cache = new Map<string, string>();
const readAsset = (name: string, binary: boolean) => {
  let content = cache.get(name);
  if (content === undefined) {
    content = readFileSync(join(assets, name)).toString(binary ? 'base64' : 'utf8');
    cache.set(name, content);
  }
  return content;
};

const reply = (contentType: string, body: string, isBase64Encoded = false): APIGatewayProxyStructuredResultV2 => ({
  statusCode: 200,
  headers: { 'content-type': contentType, 'cache-control': 'public, max-age=300' },
  body,
  isBase64Encoded,
});

export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(async (event) => {
  const file = event.pathParameters?.file;
  if (file === undefined) return reply('text/html; charset=utf-8', page);
  if (file === 'start.js') return reply('text/javascript; charset=utf-8', start);
  // Own properties only: `constructor` or `__proto__` must not find Object.prototype's.
  const type = Object.hasOwn(files, file) ? files[file] : undefined;
  if (type === undefined) {
    const problem = toProblem(new NotFoundError(`No documentation file is called '${clip(file)}'.`));
    return {
      statusCode: problem.status,
      headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
      body: JSON.stringify(problem),
    };
  }
  const binary = type.startsWith('image/');
  return reply(type, readAsset(file, binary), binary);
});
