import type { MiddlewareObj } from '@middy/core';

/**
 * Headers every API response carries, success or error: a browser must never guess a media type
 * (a problem+json body or an echoed id rendered as HTML), so every answer says `nosniff`.
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' };

type WithHeaders = { headers?: Record<string, string | number | boolean> };

/**
 * Puts `headers` on whatever response the handler (or the error middleware) produced. Register it
 * first: middy runs `after` and `onError` in reverse order, so it sees the final response.
 */
export function responseHeaders<Event, Result>(
  headers: Readonly<Record<string, string>> = API_RESPONSE_HEADERS,
): MiddlewareObj<Event, Result> {
  const add = (request: { response: Result | null | undefined }) => {
    const response = request.response as WithHeaders | null | undefined;
    if (response) response.headers = { ...response.headers, ...headers };
  };
  return { after: add, onError: add };
}
