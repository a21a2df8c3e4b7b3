import type { Action } from '../../../model/action';
import { fromItem, type Item, isActionItem, isTombstone } from '../../item';
import { scanTable, segmentsFor } from '../../scan';
import type { ReadStats } from '../plan/result';

/**
 * Every item of the table, read by one Scan split into many parallel segments (`../scan.ts`),
 * with what it read in the list's terms. The service never scans; the benchmark's baseline and
 * its proof of the counters do, and they read through this so that no key or expression lives
 * outside the store.
 *
 * `expectedItems`: about how many items the table holds, to size the segments. `attributes`:
 * read only these stored attributes (names from `table.ts`'s `attr`).
 */
export async function scanEvery(
  expectedItems: number,
  each: (item: Item) => void,
  attributes?: readonly string[],
): Promise<{ stats: ReadStats; segments: number; seconds: number }> {
  const started = Date.now();
  const segments = segmentsFor(expectedItems);
  const read = await scanTable(
    (items) => {
      for (const item of items) each(item);
    },
    { segments, ...(attributes ? { attributes } : {}) },
  );
  return { stats: { ...read, indexEntries: 0 }, segments, seconds: (Date.now() - started) / 1000 };
}

/**
 * Every live action, by one full Scan (`scanEvery`): the stats are those of the whole table
 * (counters, history entries, everything), which is what a list that reads everything pays.
 */
export const scanActions = (expectedItems: number, each: (action: Action) => void) =>
  scanEvery(expectedItems, (item) => {
    if (isActionItem(item) && !isTombstone(item)) each(fromItem(item));
  });
