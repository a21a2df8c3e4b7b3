/**
 * The one way the service runs reads side by side (../shared/style.md, habit 18): `settleAll` for
 * a fixed set of them, `inPool` for a queue of work a few at a time. Both settle everything they
 * started before they answer, so a request whose first read fails never leaves the others running
 * on after it. At the top of lib/ so the store and the use cases above it share them.
 */

/**
 * Like `Promise.all`, but settles every read before it fails: a request whose first read fails
 * answers only when its other reads are done, so none of them runs on after the request.
 */
export async function settleAll<T extends readonly unknown[]>(reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * Runs `work` on each element `next()` gives until it gives `undefined`, at most `width` at a
 * time: the one worker pool (bulk loads, batch requests, the search postings, the segments of
 * the one table scan, the partitions of a list, the due-date sweep).
 */
export async function inPool<T>(width: number, next: () => T | undefined, work: (element: T) => Promise<unknown>) {
  await settleAll(
    Array.from({ length: width }, async () => {
      for (let element = next(); element !== undefined; element = next()) await work(element);
    }),
  );
}
