import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { send, tableName } from '../client';
import { fromItem, type Item, isTombstone } from '../item';
import { type PostingDrift, postingProof, repairPostings } from '../search/prove';
import { attr, itemKind } from '../table';
import { countedFields, countedValues, counterKey } from './counters';

/**
 * Recomputes every counter from the actions themselves and compares it with what the counters
 * hold. Counters move only inside the transactions that change the items they count, so any
 * drift means a bug (or a hand edit); `fix` repairs it by adding the difference to one shard.
 * The same scan proves the search postings (`../search/prove.ts`): every live action's postings
 * are what its texts make, and none outlives its action; `fix` repairs those too.
 */

export interface Drift {
  counter: string;
  stored: number;
  actual: number;
}

export interface RecountReport {
  actions: number;
  counters: number;
  drift: Drift[];
  /** Actions whose postings differ, and created keys with postings but no action. */
  postings: PostingDrift;
  fixed: boolean;
}

async function scanAll(each: (item: Item) => void, onPage?: (items: number) => void): Promise<void> {
  let startKey: Item | undefined;
  do {
    const page = await send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) each(item);
    onPage?.(page.Items?.length ?? 0);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

export interface RecountOptions {
  fix?: boolean;
  /** Told after each page of the scan how many items it held (for a progress line). */
  onScanned?: (items: number) => void;
}

export async function recount(options: RecountOptions = {}): Promise<RecountReport> {
  const actual = new Map<string, number>();
  const stored = new Map<string, number>();
  let actions = 0;
  const proof = postingProof();
  await scanAll((item) => {
    proof.see(item);
    const id = item[attr.id] as string;
    if (id.startsWith('n#')) {
      stored.set(id, (stored.get(id) ?? 0) + Number(item[attr.count] ?? 0));
    } else if (item[attr.sortKey] === itemKind.action && !isTombstone(item)) {
      actions++;
      const values = countedValues(fromItem(item));
      for (const field of countedFields) {
        const value = values[field];
        if (value === undefined) continue;
        const key = counterKey(field, value);
        actual.set(key, (actual.get(key) ?? 0) + 1);
      }
    }
  }, options.onScanned);
  const drift: Drift[] = [];
  for (const counter of new Set([...actual.keys(), ...stored.keys()])) {
    const a = actual.get(counter) ?? 0;
    const s = stored.get(counter) ?? 0;
    if (a !== s) drift.push({ counter, stored: s, actual: a });
  }
  const postings = proof.drift();
  if (options.fix) {
    await repairPostings(postings, (each) => scanAll(each));
    for (const d of drift) {
      await send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { [attr.id]: d.counter, [attr.sortKey]: itemKind.counterShard(0) },
          UpdateExpression: 'ADD #n :delta',
          ExpressionAttributeNames: { '#n': attr.count },
          ExpressionAttributeValues: { ':delta': d.actual - d.stored },
        }),
      );
    }
  }
  const drifted = drift.length + postings.actions.length + postings.orphans.length;
  return { actions, counters: stored.size, drift, postings, fixed: Boolean(options.fix) && drifted > 0 };
}
