/**
 * Polls a background job (an export or an import, contract section 18) until it leaves
 * `queued`/`running`: each reading goes to `onRead` (the screen shows its progress), waits
 * lengthen from half a second to two, and `cancelled()` (the screen closed) stops it.
 */
const WORKING = new Set(['queued', 'running']);

export async function pollJob<T extends { status: string }>(
  read: () => Promise<T>,
  onRead: (job: T) => void,
  cancelled: () => boolean,
): Promise<T | undefined> {
  let wait = 500;
  for (;;) {
    const job = await read();
    if (cancelled()) return undefined;
    onRead(job);
    if (!WORKING.has(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(2000, wait * 1.5);
    if (cancelled()) return undefined;
  }
}
