/**
 * The Swagger UI files the docs page serves, by name, with their media types. The docs handler
 * serves only these; the CDK construct copies exactly these beside the docs bundle.
 */
export const docsAssets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Where the files come from (the swagger-ui-dist package) and where they sit beside the bundle. */
export const docsAssetsPackage = 'swagger-ui-dist';
export const docsAssetsDirectory = 'swagger-ui';
