import { AsyncLocalStorage } from 'node:async_hooks';
import { getLogLevel, type LogLevel } from './config';

/**
 * Structured JSON logs, one object a line, as CloudWatch reads them. Every line written while a
 * request is handled carries that request's correlation id, kept per request in async context
 * (the local server runs many requests in one process, so module-level keys would mix them up).
 * Never log a token or personal data: callers are logged by id only.
 */

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with `keys` added to every log line written inside it. */
export const withLogContext = <T>(keys: Record<string, unknown>, fn: () => T): T => context.run({ ...keys }, fn);

/**
 * Enters a fresh log context for the rest of the current request. Called synchronously at the
 * start of a request, it carries through every await that follows.
 */
export const enterLogContext = (keys: Record<string, unknown>): void => context.enterWith({ ...keys });

/** Adds keys to the current request's log lines (e.g. the caller id once it is known). */
export const appendLogKeys = (keys: Record<string, unknown>): void => {
  Object.assign(context.getStore() ?? {}, keys);
};

/** One key of the current request's log context. */
export const logKey = (key: string): unknown => context.getStore()?.[key];

/** Where lines go; tests swap it to capture them. */
export const logSink: { write: (line: string) => void } = {
  write: (line) => {
    process.stdout.write(`${line}\n`);
  },
};

function write(level: Exclude<LogLevel, 'silent'>, message: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < order[getLogLevel()]) return;
  logSink.write(
    JSON.stringify({
      level,
      message,
      timestamp: new Date().toISOString(),
      service: 'action-tracking',
      ...context.getStore(),
      ...fields,
    }),
  );
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};

/** An error as loggable fields: name, message and stack, and its causes in turn; never request data. */
export const errorFields = (error: unknown): Record<string, unknown> => ({ error: describe(error, 0) });

function describe(error: unknown, depth: number): unknown {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause !== undefined && depth < 3 ? { cause: describe(error.cause, depth + 1) } : {};
  return { name: error.name, message: error.message, stack: error.stack, ...cause };
}
