import { describe, expect, it } from 'vitest';
import type { Clause } from '../../../../lib/filter/query';
import { parseListQuery } from '../../../../lib/filter/query';
import { boundsOf, createdOfTitleKey, titleKeyAt } from '../../../../lib/store/list/plan/key-ranges';

/** The title keys a walk of several title ranges continues at (`walk.ts`): `<title>\u0001<createdAt>\u0001<id>`. */

const range = (title: string) =>
  boundsOf(parseListQuery(`title=${encodeURIComponent(title)}`).filters[0] as Clause) as {
    lower: string;
    upper: string;
  };

describe('titleKeyAt and createdOfTitleKey', () => {
  const created = '2026-11-28T18:40:19.304Z#5f1d55aa-0000-4000-8000-000000000001';

  it("puts a created key inside one title's range, where its entry's key is", () => {
    const pump = range('Fix pump');
    const key = titleKeyAt(pump, created);
    expect(key).toBe('fix pump\u00012026-11-28T18:40:19.304Z\u00015f1d55aa-0000-4000-8000-000000000001');
    expect(key > pump.lower).toBe(true);
    expect(key < pump.upper).toBe(true);
  });

  it('reads the created key back from a title key, whatever the title holds', () => {
    for (const title of ['Fix pump', 'a#b # c', 'Ünïcode ✓ 😀', '#'])
      expect(createdOfTitleKey(titleKeyAt(range(title), created))).toBe(created);
  });

  it('keeps the created order inside a range', () => {
    const pump = range('Fix pump');
    const earlier = '2026-11-28T18:40:19.304Z#5f1d55aa-0000-4000-8000-000000000000';
    expect(titleKeyAt(pump, earlier) < titleKeyAt(pump, created)).toBe(true);
    expect(earlier < created).toBe(true);
  });
});
