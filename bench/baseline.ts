import { evaluate, type ListedAction } from '../contract/oracle';
import type { Action } from '../lib/model/action';
import { toView } from '../lib/model/view';
import type { ReadStats } from '../lib/store/list/plan/result';
import { scanActions } from '../lib/store/list/run/scan';

/**
 * The naive list the benchmark measures against: a Scan of the whole base table (actions,
 * counters, history entries, everything), which is what a list costs when it reads everything
 * to count and sort its matches. DynamoDB charges a filtered Scan for every byte it reads, so
 * the scan costs the same whatever the query; it is read once, and every query's answer is then
 * worked out from the scanned actions by the contract's own reading of the query
 * (`contract/oracle.ts`, which shares no code with `lib/`).
 */
export interface ScannedTable {
  /** Every live action, by id. */
  actions: Map<string, Action>;
  listed: ListedAction[];
  stats: ReadStats;
  segments: number;
  seconds: number;
}

/** `expectedItems`: about how many items the table holds, to size the scan's segments. */
export async function scanTable(expectedItems: number): Promise<ScannedTable> {
  const actions = new Map<string, Action>();
  const { stats, segments, seconds } = await scanActions(expectedItems, (action) => actions.set(action.id, action));
  // The oracle reads actions as the API shows them.
  return { actions, listed: [...actions.values()].map(toView), stats, segments, seconds };
}

/** What the contract says the list answers, from the scanned actions. */
export function baselineAnswer(table: ScannedTable, query: string): { ids: string[]; totalCount: number } {
  const answer = evaluate(table.listed, query);
  if ('refused' in answer) throw new Error(`the oracle refuses '${query}': ${answer.refused.join(', ')}`);
  return answer;
}
