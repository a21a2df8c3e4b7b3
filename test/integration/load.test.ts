import { describe, expect, it } from 'vitest';
import { describeLoad, runLoad } from '../../scripts/load';
import { apiUrl, newUser } from '../support/client';

/**
 * The short version of `npm run load` (issue 7): creates and lists mixed from 10 connections
 * for a few seconds against the shared stack. Every answer is 2xx and every 201 is a stored
 * action, no more and no fewer.
 */

describe('load', () => {
  it('10 connections, 4 s, creates and lists mixed: zero non-2xx, zero lost writes', async () => {
    const connections = 10;
    const result = await runLoad({ url: apiUrl(), token: newUser('Load Tester').token, duration: 4, connections });
    console.info(describeLoad(result, connections));
    expect(result.failures).toEqual([]);
    expect(result.non2xx).toBe(0);
    expect(result.errors).toBe(0);
    expect(result.created).toBeGreaterThan(0);
    expect(result.statusCounts['200']).toBeGreaterThan(0);
    expect(result.stored).toBe(result.created);
    expect(result.createsSent).toBe(result.created);
  });
});
