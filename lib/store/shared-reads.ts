import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Reads that many lists made at once may share: under `sharingReads`, a read named by the same
 * key is made once and every list after the first gets its answer (the first list's stats and
 * budget are charged for it, the others nothing, which is what was read). `GET
 * /api/actions/counts` runs one count-only list a group (`lib/actions/counts.ts`): every one of
 * them reads the same counters (the total, the locations' counters, a registry) and, for a scoped
 * caller, the same two partitions of their own actions; shared, a count reads each once, not once
 * a group. Outside `sharingReads` nothing is shared: a list reads what it reads.
 *
 * Only for reads that cannot differ between the lists of one request but by the writes made
 * meanwhile (a counter, a person's partition); the lists of one request then see one snapshot
 * of them, which is what a client comparing the groups expects.
 */

const shared = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `run` with reads shared (see above); nested calls share the outer run's. */
export const sharingReads = <T>(run: () => Promise<T>): Promise<T> =>
  shared.getStore() ? run() : shared.run(new Map(), run);

/** `read()` once per `sharingReads` run for `key` (every time outside one). */
export function sharedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  const memo = shared.getStore();
  if (memo === undefined) return read();
  let found = memo.get(key) as Promise<T> | undefined;
  if (found === undefined) {
    found = read();
    memo.set(key, found);
  }
  return found;
}
