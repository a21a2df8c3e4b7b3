import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the request being served has read, for the caller's read quota (`lib/http/quotas.ts`): the
 * index entries its lists read, kept per request in async context (the local server serves many
 * requests in one process), so a list that is refused after reading is charged too.
 */
export interface Usage {
  indexEntries: number;
}

const current = new AsyncLocalStorage<Usage>();

/** Starts counting for the rest of the current request; called synchronously at its start. */
export function enterUsage(): Usage {
  const usage: Usage = { indexEntries: 0 };
  current.enterWith(usage);
  return usage;
}

/** Adds index entries read to the current request's usage (none outside a request). */
export function recordIndexEntries(entries: number): void {
  const usage = current.getStore();
  if (usage) usage.indexEntries += entries;
}
