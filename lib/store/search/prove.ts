import { batchWriteRequests, type WriteRequest } from '../batch';
import { postingsTableName } from '../client';
import { fromItem, type Item, isActionItem, isTombstone } from '../item';
import { fnv1a32 } from '../shards';
import { attr } from '../table';
import { createdKeyOf, foldedTexts, indexedText, isPostingPartition } from './keys';
import { postingRequests } from './postings';

/**
 * Proving the search postings against the actions, for `npm run recount` (`../counters/recount.ts`),
 * which scans the table and the postings' table and hands every item here: each live action's postings are what its
 * texts make (`postingRequests`), and no posting outlives its action. A bulk load cut short
 * between an action and its postings (issue 42: two actions never found) shows as missing
 * postings; `repair` writes them and deletes the ones no action makes. Actions with a pending
 * mark are the stream's to index, and are left alone.
 *
 * What a scan holds is compared by digest (a count and a sum of hashes per action), so memory
 * grows with the actions, not their postings; the repair scans again for the few that differ.
 */

/** A posting's digest: its partition and context, hashed (`../shards.ts`). */
const hash = fnv1a32;

interface Digest {
  count: number;
  sum: number;
}

const isPosting = (item: Item) => isPostingPartition(String(item[attr.id]));
const isMark = (item: Item) => String(item[attr.id]).startsWith('g#p#');

/** What a live action's postings should be. */
const expectedPostings = (item: Item): WriteRequest[] => {
  const text = indexedText(fromItem(item));
  return postingRequests(createdKeyOf(text), undefined, foldedTexts(text));
};

export interface PostingDrift {
  /** Live actions whose postings differ from what their texts make. */
  actions: string[];
  /** Created keys that have postings and no live action. */
  orphans: string[];
}

/** Collects digests from a scan: `see` each item, then `drift()`. */
export function postingProof() {
  const expected = new Map<string, Digest & { id: string }>();
  const found = new Map<string, Digest>();
  const pending = new Set<string>();
  const add = (map: Map<string, Digest>, key: string, value: number) => {
    const d = map.get(key) ?? { count: 0, sum: 0 };
    d.count++;
    d.sum += value;
    map.set(key, d);
  };
  return {
    see(item: Item) {
      if (isMark(item)) pending.add(String(item[attr.sortKey]));
      else if (isPosting(item)) add(found, String(item[attr.sortKey]), hash(`${item[attr.id]}\u0000${item.x}`));
      else if (isActionItem(item) && !isTombstone(item)) {
        const id = String(item[attr.id]);
        const digest = { id, count: 0, sum: 0 };
        for (const request of expectedPostings(item)) {
          const posting = request.PutRequest?.Item ?? {};
          digest.count++;
          digest.sum += hash(`${posting[attr.id]}\u0000${posting.x}`);
        }
        expected.set(createdKeyOf(indexedText(fromItem(item))), digest);
      }
    },
    drift(): PostingDrift {
      const actions: string[] = [];
      for (const [key, want] of expected) {
        if (pending.has(want.id)) continue;
        const have = found.get(key) ?? { count: 0, sum: 0 };
        if (have.count !== want.count || have.sum !== want.sum) actions.push(key);
      }
      const orphans = [...found.keys()].filter((key) => !expected.has(key) && !pending.has(key.split('#').pop() ?? ''));
      // Sorted: a scan in parallel segments sees the items in no set order, and the recount
      // compares two scans' findings as they are listed.
      return { actions: actions.sort(), orphans: orphans.sort() };
    },
  };
}

/**
 * Repairs what `drift` found, from a second scan (`scan` hands every item): deletes every posting
 * of those created keys that is not what its action makes, and writes every one that is.
 */
export async function repairPostings(drift: PostingDrift, scan: (each: (item: Item) => void) => Promise<void>) {
  const keys = new Set([...drift.actions, ...drift.orphans]);
  if (keys.size === 0) return;
  const stale: WriteRequest[] = [];
  const puts: WriteRequest[] = [];
  const wanted = new Map<string, string>();
  await scan((item) => {
    if (isActionItem(item) && !isTombstone(item)) {
      const requests = expectedPostings(item);
      const key = createdKeyOf(indexedText(fromItem(item)));
      if (!keys.has(key)) return;
      puts.push(...requests);
      for (const r of requests)
        wanted.set(`${r.PutRequest?.Item?.[attr.id]}\u0000${key}`, String(r.PutRequest?.Item?.x));
    } else if (isPosting(item) && keys.has(String(item[attr.sortKey]))) {
      stale.push({ DeleteRequest: { Key: { [attr.id]: item[attr.id], [attr.sortKey]: item[attr.sortKey] } } });
    }
  });
  // Deletes of the postings the actions make again are dropped: the puts rewrite them.
  const deletes = stale.filter(
    (d) => !wanted.has(`${d.DeleteRequest?.Key?.[attr.id]}\u0000${d.DeleteRequest?.Key?.[attr.sortKey]}`),
  );
  await batchWriteRequests([...deletes, ...puts], { width: 4, maxAttempts: 20, table: postingsTableName() });
}
