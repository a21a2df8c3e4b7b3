import { describe, expect, it } from 'vitest';
import { sharedRead, sharingReads } from '../../../lib/store/shared-reads';

/** `lib/store/shared-reads.ts`: the lists of one counts request read each counter once; nothing else shares. */
describe('sharingReads', () => {
  const counting = () => {
    const reads: string[] = [];
    const read = (key: string) => sharedRead(key, async () => reads.push(key));
    return { reads, read };
  };

  it('reads a key once within a run, however many ask at once or later', async () => {
    const { reads, read } = counting();
    const answers = await sharingReads(async () => {
      const first = await Promise.all([read('a'), read('a'), read('b')]);
      return [...first, await read('a')];
    });
    expect(reads).toEqual(['a', 'b']);
    expect(answers).toEqual([1, 1, 2, 1]);
  });

  it('reads every time outside a run, and each run afresh', async () => {
    const { reads, read } = counting();
    await read('a');
    await read('a');
    await sharingReads(() => read('a'));
    await sharingReads(() => read('a'));
    expect(reads).toEqual(['a', 'a', 'a', 'a']);
  });

  it('a nested run shares the outer one', async () => {
    const { reads, read } = counting();
    await sharingReads(async () => {
      await read('a');
      await sharingReads(() => read('a'));
    });
    expect(reads).toEqual(['a']);
  });
});
