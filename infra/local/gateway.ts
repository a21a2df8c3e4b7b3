import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { PayloadTooLargeError, toProblem } from '../../lib/errors';
import { MAX_BODY_BYTES } from '../../lib/http/limits';
import { API_RESPONSE_HEADERS } from '../../lib/http/response-headers';
import { fallbackRoute, matchPath, routes } from '../../lib/http/routes';

/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): it turns each HTTP request
 * into the event Lambda would receive and calls the very handler module AWS runs.
 */

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses larger payloads before any function runs. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

const handlers = new Map<string, Promise<Handler>>();
const load = (name: string): Promise<Handler> => {
  let handler = handlers.get(name);
  if (!handler) {
    handler = import(`../../functions/${name}.ts`).then((m: { handler: Handler }) => m.handler);
    handlers.set(name, handler);
  }
  return handler;
};

/** Loads every handler now, so the first request does not pay for it. */
export const preloadHandlers = () =>
  Promise.all([...new Set([...routes.map((r) => r.handler), fallbackRoute.handler])].map(load));

function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** What the gateway needs of an HTTP request to build its event. */
export interface HttpRequest {
  method: string;
  /** The path and query string, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
  sourceIp?: string;
  httpVersion?: string;
}

/** The route that serves `method path`: its handler, route key and path parameters. */
export function routeFor(
  method: string,
  path: string,
): { handler: string; routeKey: string; params?: Record<string, string> } {
  for (const candidate of routes) {
    const params = candidate.method === method ? matchPath(candidate.path, path) : undefined;
    if (params) {
      return {
        handler: candidate.handler,
        routeKey: `${method} ${candidate.path}`,
        ...(Object.keys(params).length > 0 ? { params } : {}),
      };
    }
  }
  return { handler: fallbackRoute.handler, routeKey: '$default' };
}

/** The payload 2.0 event for a request, as API Gateway builds it for the route that serves it. */
export function toEvent(
  request: HttpRequest,
  route = routeFor(request.method, new URL(request.url || '/', 'http://localhost').pathname),
): APIGatewayProxyEventV2 {
  const raw = request.url || '/';
  const url = new URL(raw, 'http://localhost');
  const rawQueryString = raw.includes('?') ? raw.slice(raw.indexOf('?') + 1) : '';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name.toLowerCase() !== 'cookie')
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookie = request.headers.cookie;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  const requestId = randomUUID();
  const body = request.body ?? Buffer.alloc(0);
  const text = body.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(body);
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString,
    ...(typeof cookie === 'string' ? { cookies: cookie.split(/;\s*/) } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(route.params ? { pathParameters: route.params } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion ?? '1.1'}`,
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0
      ? { body: isText ? text : body.toString('base64'), isBase64Encoded: !isText }
      : { isBase64Encoded: false }),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  if (body === undefined) {
    // API Gateway answers this itself; locally it is told in the service's own error format.
    response
      .writeHead(413, { ...API_RESPONSE_HEADERS, 'content-type': 'application/problem+json', connection: 'close' })
      .end(JSON.stringify(toProblem(new PayloadTooLargeError(MAX_BODY_BYTES))));
    return;
  }
  const method = request.method ?? 'GET';
  const route = routeFor(method, new URL(request.url ?? '/', 'http://localhost').pathname);
  const event = toEvent(
    {
      method,
      url: request.url ?? '/',
      headers: request.headers,
      body,
      sourceIp: request.socket.remoteAddress,
      httpVersion: request.httpVersion,
    },
    route,
  );
  const handler = await load(route.handler);
  const result = await handler(event, lambdaContext(route.handler, event.requestContext.requestId));
  const headers: Record<string, string> = { 'apigw-requestid': event.requestContext.requestId };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  const payload = result.isBase64Encoded
    ? Buffer.from(result.body ?? '', 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(payload);
}

/**
 * What the local server answers before the API: the console and the sign-in endpoints, which
 * CloudFront and Cognito serve in AWS. True when it answered the request.
 */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;

export function createGateway(front?: FrontDoor): Server {
  return createServer((request, response) => {
    Promise.resolve(front?.(request, response) ?? false)
      .then((served) => (served ? undefined : handle(request, response)))
      .catch((error: unknown) => {
        // API Gateway's answer when the function itself fails.
        console.error('local gateway: handler crashed', error);
        if (!response.headersSent)
          response.writeHead(500, { ...API_RESPONSE_HEADERS, 'content-type': 'application/json' });
        response.end('{"message":"Internal Server Error"}');
      });
  });
}
