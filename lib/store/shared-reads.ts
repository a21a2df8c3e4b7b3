/**
 * Reads that many lists made at once may share: a read named by the same key is made once and
 * every list after the first gets its answer (the first list's stats and budget are charged for
 * it, the others nothing, which is what was read). A list begins with one (`listVisible`,
 * `listActions`), which its steps and a scoped list's parts share through the list's stats
 * (`ReadStats.shared`): the strategies that decline a list and the one that serves it read the
 * total's counter once. `GET /api/actions/counts` runs one count-only list a group
 * (`lib/actions/counts.ts`) and gives them all one: every one of them reads the same counters (the
 * total, the locations' counters, a registry) and, for a scoped caller, the same two partitions
 * of their own actions; shared, a count reads each once, not once a group. Without one nothing is
 * shared: a read is made every time it is asked for.
 *
 * Only for reads that cannot differ between the lists of one request but by the writes made
 * meanwhile (a counter, a person's partition); the lists of one request then see one snapshot
 * of them, which is what a client comparing the groups expects.
 */
export class SharedReads {
  readonly #made = new Map<string, Promise<unknown>>();

  /** `read()` the first time `key` is asked for; every later time, its answer. */
  read<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.#made.get(key) as Promise<T> | undefined;
    if (found === undefined) {
      found = read();
      this.#made.set(key, found);
    }
    return found;
  }
}

/** `read()` once per `shared` for `key` (every time without one). */
export const sharedRead = <T>(shared: SharedReads | undefined, key: string, read: () => Promise<T>): Promise<T> =>
  shared ? shared.read(key, read) : read();
