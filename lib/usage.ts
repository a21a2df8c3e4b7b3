import { AsyncLocalStorage } from 'node:async_hooks';
import { getConfig } from './config';

/**
 * What the request being served may read and has read, for the caller's read quota
 * (`lib/http/quotas.ts`): the allowance reserved when it was admitted, and the index entries (and
 * items) its reads took, kept per request in async context (the local server serves many
 * requests in one process), so a list that is refused after reading is charged too.
 */
export interface Usage {
  indexEntries: number;
  /** Entries reserved for this request's list at admission; none outside the API (scripts, sweeps). */
  allowance?: number;
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

/**
 * The read budget of the list the current request makes: the allowance it reserved, or, where no
 * quota applies (a script, a sweep), `LIST_READ_BUDGET`.
 */
export function listReadAllowance(): number {
  return current.getStore()?.allowance ?? getConfig().listReadBudget;
}
