import type { Problem } from './types';

/**
 * The one place an API error becomes a Problem: the typed client's error is the body the API
 * sent (problem+json); a response with no such body (a network failure, a proxy's page) is named
 * by its status, so every screen reads `detail` and `errors` the same way.
 */
export function problemOf(error: unknown, response?: Response): Problem {
  if (error && typeof error === 'object' && 'status' in error && 'title' in error) return error as Problem;
  const status = response?.status ?? 0;
  const title = status ? `The service answered ${status}` : 'The service could not be reached';
  return { type: 'about:blank', title, status, detail: title };
}

/** A problem's messages: one per error it names, or its detail. */
export const messagesOf = (problem: Problem): string[] =>
  problem.errors?.length ? problem.errors.map((e) => e.message) : [problem.detail || problem.title];
