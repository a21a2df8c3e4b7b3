import { createHash } from 'node:crypto';
import type { Scope } from '../../model/access';
import { type Action, locationFields } from '../../model/action';
import { encodeLocation } from '../location-tuple';

/**
 * Counters per location prefix (contract section 14, "Cost"): a scoped list counts each of the
 * caller's scopes, and a scope is a location prefix, so every action is counted under the prefix
 * of its location two and three fields deep (a site, a department; one field deep is the
 * business unit, which has its own counters), and, for the daily shapes, under (status, prefix)
 * and (overdue, prefix). Deeper scopes (work group to crew) are counted by the planner from their
 * site's partition: their counters would be about one per action, each a write of every create.
 * A prefix is named by a digest of its values, so values of any length make a key (DynamoDB keys
 * stop at 1,024 bytes) and no two prefixes share one.
 */

/** How deep the prefix counters go: `site` (two fields) and `department` (three). */
export const prefixDepths = [2, 3] as const;
type Depth = (typeof prefixDepths)[number];

export type PrefixCounter =
  | `scope&${Depth}`
  | `scope&${Depth}&status`
  | `scope&${Depth}&overdue`
  | typeof locationCounter;

/**
 * The whole location (all seven fields), total only: what an exact count of any clause on a
 * location field sums over every location (`lib/store/list/count/location-counts.ts`). Its value is the
 * location's encoding (`encodeLocation`), kept in shared partitions (`counters.ts`,
 * `sharedPartitions`), so one read of them lists every location with its count. No status or
 * overdue pair: each counter is 2 write units in a create's transaction. A location too long for
 * a sort key is not counted (so a list never trusts these counters while an action has one).
 */
export const locationCounter = 'scope&7';

export const prefixCounter = (depth: Depth): PrefixCounter => `scope&${depth}`;
export const prefixByStatus = (depth: Depth): PrefixCounter => `scope&${depth}&status`;
export const prefixByOverdue = (depth: Depth): PrefixCounter => `scope&${depth}&overdue`;

export const prefixCounters: readonly PrefixCounter[] = prefixDepths
  .flatMap((d) => [prefixCounter(d), prefixByStatus(d), prefixByOverdue(d)])
  .concat(locationCounter);

/** The digest that names a prefix: its values in field order. */
export const prefixValue = (values: readonly string[]): string =>
  createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 24);

/** A scope's prefix counter and value, when it is two or more fields deep. */
export function scopePrefix(scope: Scope): { depth: Depth; value: string } | undefined {
  const values: string[] = [];
  for (const field of locationFields) {
    const value = scope[field];
    if (value === undefined) break;
    values.push(value);
  }
  const depth = values.length as Depth;
  return (prefixDepths as readonly number[]).includes(depth) ? { depth, value: prefixValue(values) } : undefined;
}

/** Each prefix counter's value for an action (`status#prefix` for the status pairs; overdue only while overdue). */
export function prefixCounterValues(action: Action): Record<PrefixCounter, string | undefined> {
  const values = {} as Record<PrefixCounter, string | undefined>;
  for (const depth of prefixDepths) {
    const prefix = prefixValue(locationFields.slice(0, depth).map((f) => action.location[f]));
    values[prefixCounter(depth)] = prefix;
    values[prefixByStatus(depth)] = `${action.status}#${prefix}`;
    values[prefixByOverdue(depth)] = action.overdue ? prefix : undefined;
  }
  values[locationCounter] = encodeLocation(action.location);
  return values;
}
