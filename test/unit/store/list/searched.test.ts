import { describe, expect, it } from 'vitest';
import { partitionCheaper } from '../../../../lib/store/list/run/searched';

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
