import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from './docs-assets';

/**
 * The docs page (public): Swagger UI over /api/openapi.json. The UI's files come from the
 * swagger-ui-dist package: copied beside the bundle in AWS, from node_modules locally.
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
  // The docs share the console's origin: a token typed here lives in this page's memory only.
  persistAuthorization: false,
  tryItOutEnabled: true,
  // No badge fetched from validator.swagger.io: the page talks to its own origin only.
  validatorUrl: null,
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

/** A docs file by name (`undefined` is the page itself); `undefined` for any other name. */
export function docsFile(name: string | undefined): { contentType: string; body: string; base64: boolean } | undefined {
  if (name === undefined) return { contentType: 'text/html; charset=utf-8', body: page, base64: false };
  if (name === 'start.js') return { contentType: 'text/javascript; charset=utf-8', body: start, base64: false };
  // Own properties only: `constructor` or `__proto__` must not find Object.prototype's.
  const type = Object.hasOwn(files, name) ? files[name] : undefined;
  if (type === undefined) return undefined;
  const binary = type.startsWith('image/');
  return { contentType: type, body: readAsset(name, binary), base64: binary };
}
