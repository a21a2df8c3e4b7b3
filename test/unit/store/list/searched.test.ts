import { describe, expect, it } from 'vitest';
import { partitionCheaper, walkCheaper } from '../../../../lib/store/list/run/searched';

describe('partitionCheaper: a counted value read whole, or the postings searched', () => {
  it("reads a site's 296 actions of 10,000 whole for a page of 10, as bench:scoped measured cheaper", () => {
    expect(partitionCheaper(296, 10_000, 11)).toBe(true);
  });

  it('searches a site of 2,976 of 100,000: reading it whole costs more than a page of candidates', () => {
    expect(partitionCheaper(2_976, 100_000, 11)).toBe(false);
  });

  it('reads a small partition whole even for a count alone, and a crowd of one value never', () => {
    expect(partitionCheaper(100, 10_000, 0)).toBe(true);
    expect(partitionCheaper(9_000, 10_000, 0)).toBe(false);
  });

  it('turns over where whole-read cost meets the candidates a window costs (entries² = 6 · window · total)', () => {
    expect(partitionCheaper(812, 10_000, 11)).toBe(true);
    expect(partitionCheaper(813, 10_000, 11)).toBe(false);
  });
});

describe('walkCheaper: a counted value walked in creation order to the page, or the postings searched', () => {
  // The probe's chosen gram: 25 postings read, `held` of them holding the fragment.
  const probed = (held: number, ended = false) => ({ ended, read: 25, held, reached: '2025-05-20T00:00:00.000Z#a' });

  it('walks a site of 2,976 of 100,000 when one action in 100 holds the fragment', () => {
    // 20 of the gram's postings hold it, over days on which 2,000 actions were created: 1%.
    expect(walkCheaper(probed(20), 2_000, 2_976, 100_000, 11)).toBe(true);
  });

  it('searches when the fragment is rare: the walk would read most of the partition for a few matches', () => {
    // 1 in 2,000: about 1.5 matches in the site, fewer than two pages' worth.
    expect(walkCheaper(probed(1), 2_000, 2_976, 100_000, 11)).toBe(false);
  });

  it("searches when the gram's postings ended or are few enough to read whole (the count stays exact)", () => {
    expect(walkCheaper(probed(20, true), 2_000, 2_976, 100_000, 11)).toBe(false);
    // 25 postings over 6,500 actions' days: about 385 in 100,000, under COUNT_READ.
    expect(walkCheaper(probed(20), 6_500, 2_976, 100_000, 11)).toBe(false);
    // A small table: every posting of any gram is under COUNT_READ.
    expect(walkCheaper(probed(20), 100, 100, 400, 11)).toBe(false);
  });

  it('never for a count alone (no window to stop at), nor when the day counters know fewer actions than the postings read', () => {
    expect(walkCheaper(probed(20), 2_000, 2_976, 100_000, 0)).toBe(false);
    expect(walkCheaper(probed(20), 24, 2_976, 100_000, 11)).toBe(false);
    expect(walkCheaper(probed(20), 0, 2_976, 100_000, 11)).toBe(false);
  });

  it('turns over where the walk to the window meets the candidates the search verifies (share = entries / 6 total)', () => {
    // entries / (6 x total) = 6,000 / 600,000 = 1%: 21 of 2,000 is over it, 19 under.
    expect(walkCheaper(probed(21), 2_000, 6_000, 100_000, 11)).toBe(true);
    expect(walkCheaper(probed(19), 2_000, 6_000, 100_000, 11)).toBe(false);
  });
});
