import type { Clause } from '../../../filter/query';
import type { StoredClause } from '../../fields';
import type { IndexDefinition } from '../../indexes';

/** What the planner (`plan.ts`) answers: plain data, the plan and its reads. */

/** Bounds on an index sort key: `lower` inclusive, `upper` exclusive. */
export interface KeyRange {
  lower?: string;
  upper?: string;
}

/** A read of one index: every partition listed, within `range`, keeping what `filter` matches. */
export interface IndexRead {
  index: IndexDefinition;
  partitions: Array<string | number>;
  range?: KeyRange;
  /**
   * Several key ranges instead of `range`, each read as it would be (`title=~a,b`: one title's
   * range of `all-by-title` each). A walk of them merges every (range, partition) stream by
   * `Walk.mergeKey`.
   */
  ranges?: KeyRange[];
  /** Clauses the key condition does not already guarantee: the filter expression. */
  filter: StoredClause[];
}

export interface Plan {
  /** Reads every match. */
  read: IndexRead;
  /** The stored attribute to order matches by (ties by createdAt, then id), in the requested direction. */
  sortAttribute: string;
  descending: boolean;
  /** The filters contradict each other; nothing can match. */
  empty: boolean;
  /** How many index entries the read is expected to cover (exact where counters know it). */
  entries: number;
  /**
   * `entries` is a count, not a guess: the counters know every value the key condition names
   * and no key range narrows the read. Only an exact figure may refuse a list before it reads;
   * a guess (the share a date range keeps) never lets it read more than the budget either,
   * since every read stops when the budget runs out (`lib/store/query/budget.ts`).
   */
  exact: boolean;
  /**
   * How to read the page in order when reading every match would pass the budget: the cheapest
   * walk of an index that already keeps the list's order (see `Walk`); none when no index keeps
   * it (a sort on a field no ordered index orders, such as `status`).
   */
  walk?: Walk;
  /**
   * When no index walk keeps the list's order: the sort field's equality index, whose partitions
   * (one per value) each keep `createdAt`, then id, order, with every filter as its filter
   * expression; `value-walk.ts` reads its partitions in value order (partitions filled there,
   * from the counters or the value registry).
   */
  byValue?: IndexRead;
}

/**
 * A read that finds matches in the list's order, so it can stop as soon as the page is full (or
 * the budget is spent) and still answer an exact page: the partitions of `read.index` merged by
 * its sort key, which is the order of the list (ties by id). `fetch`: the index holds only keys
 * (or too little to evaluate the filters), so each entry's action is fetched and `clauses` are
 * evaluated on it in memory; every fetched action is charged to the budget as an entry.
 *
 * The candidate plans of a list are a list of costed alternatives (`alternatives` in `plan`): a
 * full read of every match (then sorted), an ordered walk, a fetching walk; another kind of plan
 * (a search index) joins that list in the one place the alternatives are gathered.
 */
export interface Walk {
  read: IndexRead;
  fetch: boolean;
  /** The clauses a fetching walk evaluates on each action (the key range already applied). */
  clauses: Clause[];
  /** Rough bytes read per entry, for ranking walks. */
  cost: number;
  /** How many index entries `read` covers, as the planner estimates them (a count where the counters know it). */
  entries: number;
  /** The action an entry is of, where it is not the entry's `id` (the reference order's entries, `reference-walk.ts`). */
  idOf?: (entry: Record<string, unknown>) => string;
  /**
   * The attribute the walk merges by, where it is not the index's sort key: the created key, for
   * a read of several title ranges (`IndexRead.ranges`), each of which keeps its entries in
   * created order (one title, then `<createdAt>`, then the id).
   */
  mergeKey?: string;
}

/** The queries a read runs side by side: one a partition, or one a (range, partition) pair. Pure. */
export const streamsOf = (read: IndexRead): number => read.partitions.length * (read.ranges?.length ?? 1);

/**
 * What the counters say before anything is read: the number of actions, and the count of each
 * value of the equality-indexed fields the query names. Without it the planner falls back on
 * rough shares of the table.
 */
export interface Sizes {
  total: number;
  /** Field name (`status`) -> value (`'2'`) -> number of actions. */
  values: Record<string, Record<string, number>>;
  /** Every status some action has, with its count: read when a clause on `status` is a `!`, `<` or `>`. */
  statuses?: Record<string, number>;
}
