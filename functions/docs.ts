import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DOCS_SECURITY_HEADERS } from '../lib/api-docs/docs-headers';
import { docsFile } from '../lib/api-docs/docs-page';
import { clip, NotFoundError, toProblem } from '../lib/errors';
import { responseHeaders } from '../lib/http/response-headers';

/** GET /docs and /docs/{file} (public): Swagger UI, with the console's strict headers; every other file name is a 404. */
export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
  .use(responseHeaders(DOCS_SECURITY_HEADERS))
  .handler(async (event) => {
    const name = event.pathParameters?.file;
    const file = docsFile(name);
    if (!file) {
      const problem = toProblem(new NotFoundError(`No documentation file is called '${clip(name ?? '')}'.`));
      return {
        statusCode: problem.status,
        headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
        body: JSON.stringify(problem),
      };
    }
    return {
      statusCode: 200,
      headers: { 'content-type': file.contentType, 'cache-control': 'public, max-age=300' },
      body: file.body,
      isBase64Encoded: file.base64,
    };
  });
