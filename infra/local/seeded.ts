import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Action } from '../../lib/model/action';
import { type BulkOptions, writeInBulk } from '../../lib/store/bulk/bulk';
import { type LocalStack, type StackOptions, startLocalStack } from './stack';

/**
 * A stack of its own, with data, for a script or a test that measures what it serves
 * (`budget-read`, `fairness`, the quota tests): the local stack with its store in memory, on a
 * free port and a fresh DATA_DIR that `close()` removes, holding `actions` as their owners
 * created them. They go in through the store's bulk load (`lib/store/bulk/bulk.ts`: the items a
 * create writes, in batches): the write path is not what such a run measures, and one
 * transaction an action on a busy machine takes minutes and times out. `postings: false` leaves
 * out the search postings, for data no query searches (see `BulkOptions`). It has no stream
 * reader unless `events: true`: its callers list and count what was loaded, and the reader would
 * count the trends of every loaded action beside the load (2,594 s to seed 100,000 for
 * `bench:export`, where the load alone takes a fraction of it).
 */
export async function startSeededStack(
  name: string,
  actions: Iterable<Action>,
  options: BulkOptions & Pick<StackOptions, 'events'> = {},
): Promise<LocalStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `actions-${name}-`));
  const stack = await startLocalStack({ dataDir, store: 'memory', port: 0, events: options.events ?? false });
  const close = async () => {
    await stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await writeInBulk(
      (function* () {
        for (const action of actions) yield { action, actor: action.owner };
      })(),
      undefined,
      options,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { ...stack, close };
}
