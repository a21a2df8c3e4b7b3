import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { responseHeaders } from '../lib/http/response-headers';
import document from '../openapi.json';

/**
 * GET /api/openapi.json (public): the OpenAPI 3.1 document `npm run openapi` generates from the
 * schemas (a test fails when the committed copy is stale). Serving the file keeps the generator
 * out of the bundle.
 */
const body = JSON.stringify(document);

export const handler = middy()
  .use(responseHeaders())
  .handler(
    async (): Promise<APIGatewayProxyStructuredResultV2> => ({
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
      body,
    }),
  );
