import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { openApiDocument } from '../lib/openapi';

/** GET /api/openapi.json (public): the OpenAPI 3.1 document, built once per cold start. */
const body = JSON.stringify(openApiDocument());

export const handler = middy().handler(
  async (): Promise<APIGatewayProxyStructuredResultV2> => ({
    statusCode: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
    body,
  }),
);
