import type { Action } from '../../../model/action';
import type { ReadBudget } from '../../query/budget';
import { SharedReads } from '../../shared-reads';
import type { Plan } from './plan';

/**
 * What a list answers, what it read, and what it carries from step to step (`ListContext`): the
 * types every list path shares.
 */

/** What a list call read, for cost logging and the benchmark. */
export interface ReadStats {
  /** Index entries and actions read. */
  itemsRead: number;
  /** Index entries alone: what the budget bounds and the caller's read quota is charged. */
  indexEntries: number;
  readUnits: number;
  requests: number;
  /** The reads it shares with the steps and lists around it (`newStats`), not a number. */
  readonly shared?: SharedReads;
}

/** `eq`: `totalCount` is exact; `gte`: it is a lower bound, the matches counted before the budget ran out. */
export type CountRelation = 'eq' | 'gte';

export interface ListResult {
  actions: Action[];
  totalCount: number;
  totalCountRelation: CountRelation;
  /** How the list was served: counters + ordered merge, the planner's read, the search postings, or scoped parts. */
  strategy: 'counted' | 'planned' | 'searched' | 'scoped';
  plan?: Plan;
  /** The index the page (or every match) was read from. */
  index: string;
  partitions: number;
  stats: ReadStats;
  /** Where the page stopped, when more matches follow it: what a cursor carries (see `Position`). */
  next?: Position;
  /**
   * The read budget (or the caller's read quota) stopped the list before it was sure of all its
   * matches. Without `next`, it was sure of none past where it began: a cursor then starts there again.
   */
  cut?: boolean;
  /** With `ListContext.positionsOnly`: the page's ids and places, its actions left unfetched (`actions` is empty). */
  positions?: Array<{ id: string; at: Position }>;
}

/**
 * What one list carries through every step, made where a list begins (`listVisible` in
 * `entry.ts`, `listActions` in `run/open.ts`) and passed down: every query of the list draws on
 * its budget and adds to its stats.
 */
export interface ListContext {
  /** The read budget every query of the list (a scoped list's every part) draws from. */
  readonly budget: ReadBudget;
  /** What the list read, for cost logging and the benchmark. */
  readonly stats: ReadStats;
  /**
   * Answer the page as ids and places where the path can, fetching no action (`ListResult.positions`):
   * a scoped list's parts (`run/parts.ts`) merge places and fetch only the merged page.
   */
  readonly positionsOnly?: boolean;
  /**
   * The counted fields the planner leaves to estimates for a list whose count is known (a scoped
   * list's part: its scope's location values; `count/counts.ts`, `sizesFor`).
   */
  readonly estimated?: ReadonlySet<string>;
}

/**
 * A place in a list's order, the same whichever index serves the list: for a field an ordered
 * index sorts (`createdAt`, `title`, `owner`...), that index's sort key, which ends in the id and
 * so is unique; for any other field, its value and the id.
 */
export type Position = string | [string | number | null, string];

/**
 * Nothing read yet. With `shared` (a list's, or the lists' of one request), the reads it names
 * are made once for all who count into stats carrying it (`lib/store/shared-reads.ts`); kept out
 * of the numbers a log line or a report spreads.
 */
export function newStats(shared?: SharedReads): ReadStats {
  const stats: ReadStats = { itemsRead: 0, indexEntries: 0, readUnits: 0, requests: 0 };
  if (shared) Object.defineProperty(stats, 'shared', { value: shared, enumerable: false });
  return stats;
}

/** Adds what one list read (`from`) to `to`: the numbers only, never the reads `to` shares. */
export function addStats(to: ReadStats, from: ReadStats): void {
  to.itemsRead += from.itemsRead;
  to.indexEntries += from.indexEntries;
  to.readUnits += from.readUnits;
  to.requests += from.requests;
}

/** A list's stats, beginning: with reads its steps and parts share. */
export const listStats = (shared = new SharedReads()): ReadStats => newStats(shared);

/** Index entries in the order of a list: ids, sort values, and where a cut-short read got to. */
export interface Rows {
  rows: Row[];
  /** The budget ran out first (see `Merged`). */
  cut: boolean;
  reached?: Position;
}

export interface Row {
  id: string;
  value: unknown;
  /** `<createdAt>#<id>`, where the list sorts in memory and needs the tie rule. */
  created?: string;
}
