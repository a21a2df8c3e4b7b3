import { notifyPeople } from '../../lib/notifications/notifier';
import { notifyImportsLocally, runImportsLocally } from '../../lib/transfer/import/queue';
import { runImport } from '../../lib/transfer/import/worker';

/**
 * The import worker as `npm start` runs it, in the stack's own process: what the imports queue
 * and its Lambda function do in AWS (infra/cdk/imports.ts). Each queued import runs in slices of
 * `sliceSeconds`, as invocations do there, and one that is not finished (or failed on a busy
 * store) goes to the back of the queue and resumes from its last saved row. The events an
 * import publishes for its assignees go to the notifier here, as the rule on the bus sends them
 * to the notifier's queue there; a failed notice fails the worker's step, which runs again.
 */
export function startImportWorker(options: { sliceSeconds?: number; concurrency?: number } = {}): {
  stop(): Promise<void>;
} {
  const sliceMs = (options.sliceSeconds ?? 60) * 1000;
  const concurrency = options.concurrency ?? 2;
  const queue: string[] = [];
  const running = new Set<Promise<void>>();
  const retries = new Set<NodeJS.Timeout>();
  let stopped = false;

  const runOne = async (id: string) => {
    const deadline = Date.now() + sliceMs;
    try {
      const outcome = await runImport(id, () => (stopped ? 0 : deadline - Date.now()));
      if (outcome === 'more' && !stopped) queue.push(id);
    } catch (error) {
      console.error(`local import worker (${id}):`, error instanceof Error ? error.message : error);
      if (!stopped) {
        // As the queue's redelivery: again after a pause.
        const timer = setTimeout(() => {
          retries.delete(timer);
          queue.push(id);
          kick();
        }, 2_000);
        retries.add(timer);
      }
    }
  };
  const kick = () => {
    while (!stopped && running.size < concurrency && queue.length > 0) {
      const id = queue.shift() as string;
      const run: Promise<void> = runOne(id).finally(() => {
        running.delete(run);
        kick();
      });
      running.add(run);
    }
  };
  runImportsLocally((id) => {
    queue.push(id);
    kick();
  });
  notifyImportsLocally(async (events) => {
    if ((await notifyPeople(events)).failed.length > 0) throw new Error('some import notices failed; they come again');
  });
  return {
    stop: async () => {
      stopped = true;
      runImportsLocally(undefined);
      notifyImportsLocally(undefined);
      for (const timer of retries) clearTimeout(timer);
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
