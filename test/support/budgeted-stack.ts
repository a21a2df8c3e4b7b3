import { afterAll, beforeAll } from 'vitest';
import { evaluate, type ListedAction } from '../../contract/oracle';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { toView } from '../../lib/model/view';
import { scanActions } from '../../lib/store/list/run/scan';
import { seedActions } from '../../scripts/seed-data';
import { type CallOptions, call, type Reply } from './client';

interface BudgetedOptions {
  name: string;
  seeded: number;
  seed: number;
  budget: number;
  reader: { sub: string; name: string };
}

/**
 * A seeded stack of its own under a small list read budget, for the files that ask lists the
 * budget must walk (list-scaled, list-many-locations, list-daily, list-daily-walk): `seeded` generated actions (seed
 * `seed`), `LIST_READ_BUDGET` set to `budget` and the rate limits out of the way, a token for one
 * reader, and every stored action as the oracle lists it.
 */
async function startBudgetedStack(
  options: BudgetedOptions,
): Promise<{ stack: LocalStack; token: string; listed: ListedAction[] }> {
  Object.assign(process.env, {
    LIST_READ_BUDGET: String(options.budget),
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_READS: '1000000000',
    LOG_LEVEL: 'silent',
  });
  const stack = await startSeededStack(options.name, seedActions(options.seeded, options.seed));
  const token = issueToken(stack.issuer, options.reader);
  const listed: ListedAction[] = [];
  await scanActions(options.seeded * 2, (action) => listed.push(toView(action) as unknown as ListedAction));
  return { stack, token, listed };
}

/** A file's budgeted stack (`useBudgetedStack`): what it stored, and a GET on it as the reader. */
export interface BudgetedStack {
  /** Every stored action as the oracle lists it: empty until the file's `beforeAll` has seeded them. */
  readonly listed: ListedAction[];
  /** A GET of `path` on this stack as the reader. */
  send(path: string, options?: CallOptions): Promise<Reply>;
}

/**
 * Starts a budgeted stack for this file (`beforeAll`, with the settings `environment` adds) and
 * closes it after (`afterAll`, taking those settings away again).
 */
export function useBudgetedStack(options: BudgetedOptions & { environment?: Record<string, string> }): BudgetedStack {
  let stack: LocalStack | undefined;
  let token = '';
  const listed: ListedAction[] = [];
  beforeAll(async () => {
    Object.assign(process.env, options.environment);
    const started = await startBudgetedStack(options);
    ({ stack, token } = started);
    listed.push(...started.listed);
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
    for (const name of Object.keys(options.environment ?? {})) delete process.env[name];
  });
  return {
    listed,
    send: (path, callOptions = {}) => {
      if (!stack) throw new Error(`the ${options.name} stack has not started`);
      return call('GET', path, { ...callOptions, token, baseUrl: stack.url });
    },
  };
}

/** Every id the oracle lists for `query` over `listed`, in its order (read in its pages of 100). */
export function oracleList(listed: ListedAction[], query: string): string[] {
  const ids: string[] = [];
  for (let skip = 0; ; skip += 100) {
    const answer = evaluate(listed, `${query}&limit=100&skip=${skip}`);
    if ('refused' in answer) throw new Error(`the oracle refuses ${query}`);
    ids.push(...answer.ids);
    if (skip + 100 >= answer.totalCount) return ids;
  }
}
