import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { toEvent } from '../../infra/local/gateway';

/**
 * The API Gateway (payload 2.0) event for a request, built by the local gateway's own `toEvent`
 * for the route that serves it: for tests that call a handler module directly (to see its logs,
 * or to put a fault proxy between it and the store).
 */
export function apiEvent(
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  return toEvent({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { body: Buffer.from(JSON.stringify(options.body)) } : {}),
  });
}
