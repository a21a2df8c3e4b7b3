import type { Action } from '../../model/action';
import { foldForComparison } from '../../text';
import type { OrderKey } from '../catalogue';
import { orderKeys } from '../item';
import { PENDING_SHARDS, pendingShardOf } from '../shards';
import { attr } from '../table';
import { type IndexedLimits, indexedPart } from './grams';

/**
 * Where the search index lives: postings in a table of their own (the postings' table: no
 * index, no stream), pending marks in the base table beside the actions, in partitions of their own.
 * - A posting: partition `g#<field>#<gram>`, sort key the action's created key
 *   (`<createdAt>#<id>`, as `all-by-created` orders it), so a gram's candidates come newest first
 *   (or oldest first), in the default list order, and carry the folded text around the gram
 *   (`contexts` in `grams.ts`) to verify a fragment against without reading the action.
 * - A pending mark: partition `g#p#<shard>`, sort key the action id: a change whose postings the
 *   stream has not written yet (see `postings.ts`), with the folded texts as they are now.
 */

/**
 * The fields the index serves (`*` on them), each with its code in keys, where its text is, and
 * how much of its folded text the index covers (`indexed`, see `IndexedLimits`), which bounds what
 * one action costs to index: at most 200 + 64 postings, each one write unit.
 * - A title is covered whole as sent (200 UTF-16 units are at most 200 code points and 600
 *   bytes): only a title that grows under folding past 202 code points or 600 bytes (150 x U+FB2C)
 *   is cut, and is found by fragments of its first 202 code points (600 bytes) only.
 * - A producer reference (a producer's id for its record, `INC-2026-000123`) is covered to its
 *   first 66 code points (200 bytes): fragments past them are not found.
 */
export const searchFields = {
  title: { code: 't', text: (action: IndexedText) => action.title, indexed: { points: 202, bytes: 600 } },
  'actionProducer.reference': {
    code: 'r',
    text: (action: IndexedText) => action.reference,
    indexed: { points: 66, bytes: 200 },
  },
} as const satisfies Record<string, { code: string; text: (a: IndexedText) => string; indexed: IndexedLimits }>;

export type SearchField = keyof typeof searchFields;

/** What postings are made from: an action's id, creation time and the texts of the searched fields. */
export interface IndexedText {
  id: string;
  createdAt: string;
  title: string;
  reference: string;
}

export const indexedText = (
  action: Pick<Action, 'id' | 'createdAt' | 'title'> & { actionProducer: { reference?: string } },
): IndexedText => ({
  id: action.id,
  createdAt: action.createdAt,
  title: action.title,
  reference: action.actionProducer.reference ?? '',
});

/** Attributes of postings and pending marks, besides the table's keys. */
export const searchAttr = {
  /** On a posting: the folded text of its field. */
  text: 'x',
  /** On a pending mark: the version of the change that made it, and its created key. */
  version: attr.version,
  createdKey: attr.createdKey,
  /** On a pending mark of a delete. */
  deleted: attr.deletedAt,
} as const;

export const postingPartition = (field: SearchField, gram: string) => `g#${searchFields[field].code}#${gram}`;

/** The created key of an action: a posting's sort key, and the position a search page ends on. */
export const createdKeyOf = (text: Pick<IndexedText, 'id' | 'createdAt'>): string =>
  (orderKeys[attr.createdKey] as OrderKey)(text.createdAt, text.createdAt, text.id);

/** Whether a partition key is a posting's (`g#<field>#<gram>`), not a pending mark's. */
export const isPostingPartition = (id: string): boolean => /^g#[a-z]#/.test(id) && !id.startsWith('g#p#');

export const pendingPartition = (id: string) => `g#p#${pendingShardOf(id)}`;
export const pendingPartitions: readonly string[] = Array.from({ length: PENDING_SHARDS }, (_, s) => `g#p#${s}`);

/**
 * The folded text of each searched field, by field code, as far as the index covers it
 * (`indexedPart`): what a pending mark holds and postings are made from.
 */
export const foldedTexts = (text: IndexedText): Record<string, string> =>
  Object.fromEntries(
    Object.values(searchFields).map(
      ({ code, text: of, indexed }) => [code, indexedPart(foldForComparison(of(text)), indexed)] as const,
    ),
  );
