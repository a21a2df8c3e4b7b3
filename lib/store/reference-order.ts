import type { Action } from '../model/action';
import { tableName, type transact } from './client';
import { createdKeyOf } from './search/keys';
import { SHARDS, shardOf } from './shards';
import { attr } from './table';

/**
 * The actions in producer reference order (contract section 4: every sort answers), which no
 * index keeps (the table's 20 are all used) and no counter can enumerate (a reference is about
 * one action's): one small item an action in the table itself, in the partition of its id's shard
 * (`o#reference#07`), its sort key `r<reference>\u0000<createdAt>#<id>`, so each partition is
 * already in the sort's order, ties by `createdAt`, then id, and an action without a reference
 * ('') comes first. Put in the transaction that creates the action and deleted in the one that
 * deletes it (a reference never changes, section 5), so the order is as fresh as the list: 2
 * write units each. A sort by reference merges the partitions (`list/reference-walk.ts`). No
 * reference can hold U+0000 (section 3 refuses control characters), so the separator sorts a
 * reference before every longer one it begins.
 */

type TransactItem = Parameters<typeof transact>[0][number];

/** The partition of one shard's entries. */
export const referencePartition = (shard: number) => `o#reference#${String(shard).padStart(2, '0')}`;

/** Every partition of the order, one a shard. */
export const referencePartitions: readonly string[] = Array.from({ length: SHARDS }, (_, s) => referencePartition(s));

/**
 * What every entry's sort key starts with: a reference is a producer's free text, and the stream
 * takes any new item whose sort key starts `h#` for a history entry (`sync/stream.ts`), so no
 * sort key may start with the reference itself. One letter before every key leaves the order as it is.
 */
const LEAD = 'r';

/** An entry's sort key: the reference, then the created key (`<createdAt>#<id>`). Pure. */
export const referenceOrderKey = (reference: string, createdKey: string) => `${LEAD}${reference}\u0000${createdKey}`;

/** The reference and created key of an entry's sort key. Pure. */
export function splitReferenceKey(key: string): [string, string] {
  const cut = key.lastIndexOf('\u0000');
  return [key.slice(LEAD.length, cut), key.slice(cut + 1)];
}

/** The action an entry's sort key names: the id after the created key's first `#`. Pure. */
export const idOfReferenceKey = (key: string) => {
  const createdKey = splitReferenceKey(key)[1];
  return createdKey.slice(createdKey.indexOf('#') + 1);
};

/** An action's entry (its table key; it holds nothing else). */
export const referenceEntry = (action: Pick<Action, 'id' | 'createdAt' | 'actionProducer'>) => ({
  [attr.id]: referencePartition(shardOf(action.id)),
  [attr.sortKey]: referenceOrderKey(action.actionProducer.reference ?? '', createdKeyOf(action)),
});

/** What a write does to the order: a create puts its entry, a delete removes it, an edit leaves it. */
export function referenceOrderWrites(before: Action | undefined, after: Action | undefined): TransactItem[] {
  if (before === undefined && after !== undefined)
    return [{ Put: { TableName: tableName(), Item: referenceEntry(after) } }];
  if (before !== undefined && after === undefined)
    return [{ Delete: { TableName: tableName(), Key: referenceEntry(before) } }];
  return [];
}
