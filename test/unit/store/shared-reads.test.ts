import { describe, expect, it } from 'vitest';
import { listStats, newStats } from '../../../lib/store/list/plan/result';
import { SharedReads, sharedRead } from '../../../lib/store/shared-reads';

/** `lib/store/shared-reads.ts`: the lists of one counts request read each counter once; nothing else shares. */
describe('shared reads', () => {
  const counting = () => {
    const reads: string[] = [];
    const read = (shared: SharedReads | undefined, key: string) => sharedRead(shared, key, async () => reads.push(key));
    return { reads, read };
  };

  it('reads a key once for one SharedReads, however many ask at once or later', async () => {
    const { reads, read } = counting();
    const shared = new SharedReads();
    const first = await Promise.all([read(shared, 'a'), read(shared, 'a'), read(shared, 'b')]);
    const answers = [...first, await read(shared, 'a')];
    expect(reads).toEqual(['a', 'b']);
    expect(answers).toEqual([1, 1, 2, 1]);
  });

  it('reads every time without one, and afresh for each', async () => {
    const { reads, read } = counting();
    await read(undefined, 'a');
    await read(undefined, 'a');
    await read(new SharedReads(), 'a');
    await read(new SharedReads(), 'a');
    expect(reads).toEqual(['a', 'a', 'a', 'a']);
  });

  it("travels with a list's stats, and stays out of the numbers they spread", () => {
    const shared = new SharedReads();
    const stats = listStats(shared);
    expect(stats.shared).toBe(shared);
    expect({ ...stats }).toEqual({ itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 });
    expect(JSON.stringify(stats)).not.toContain('shared');
    expect(listStats().shared).toBeInstanceOf(SharedReads);
    expect(newStats().shared).toBeUndefined();
  });
});
