import { expect } from 'vitest';
import { evaluate, type ListedAction } from '../../contract/oracle';
import { call } from './client';

/** What a list's count says, beside what the oracle counts among `actions`. */
export interface CountBeside {
  totalCount: number;
  totalCountRelation: 'eq' | 'gte';
  oracle: number;
}

/** Asks `/api/actions?<query>&limit=<limit>` (a 200, or the test fails) and the oracle the same. */
export async function countBesideOracle(
  token: string,
  actions: ListedAction[],
  query: string,
  limit: number,
): Promise<CountBeside> {
  const reply = await call('GET', `/api/actions?${query}&limit=${limit}`, { token });
  expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200);
  const expected = evaluate(actions, `${query}&limit=${limit}`);
  if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
  const { totalCount, totalCountRelation } = reply.body as Omit<CountBeside, 'oracle'>;
  return { totalCount, totalCountRelation, oracle: expected.totalCount };
}
