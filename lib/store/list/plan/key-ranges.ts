import type { Clause } from '../../../filter/query';
import type { IndexDefinition } from '../../indexes';
import { priorityKeyPrefix, TITLE_KEY_AFTER, TITLE_KEY_SEPARATOR } from '../../table';
import { orderedIndexes } from './index-holds';
import type { KeyRange } from './plan-types';

/** The key ranges the planner folds clauses into: an ordered index's sort key bounds, by field. Pure. */

export const orderedFieldOf = (index: IndexDefinition) =>
  Object.entries(orderedIndexes).find(([, i]) => i.sortKey.name === index.sortKey.name)?.[0];

/**
 * Folds the clauses that the index sort key can answer (`=`, `<`, `>` on the field it orders)
 * into one key range, and returns the rest as the filter.
 */
export function keyRangeFor(
  index: IndexDefinition,
  clauses: Clause[],
): { range?: KeyRange; remaining: Clause[]; empty: boolean } {
  const fieldName = orderedFieldOf(index);
  let lower: string | undefined;
  let upper: string | undefined;
  const remaining: Clause[] = [];
  for (const clause of clauses) {
    const bounds = clause.field.name === fieldName ? boundsOf(clause) : undefined;
    if (!bounds) {
      remaining.push(clause);
      continue;
    }
    if (bounds.lower !== undefined && (lower === undefined || bounds.lower > lower)) lower = bounds.lower;
    if (bounds.upper !== undefined && (upper === undefined || bounds.upper < upper)) upper = bounds.upper;
  }
  if (lower === undefined && upper === undefined) return { remaining, empty: false };
  const range: KeyRange = { ...(lower !== undefined ? { lower } : {}), ...(upper !== undefined ? { upper } : {}) };
  return { range, remaining, empty: lower !== undefined && upper !== undefined && lower >= upper };
}

/**
 * Key bounds for one clause. Date keys are `<iso>#<createdAt>#<id>` (the created key itself
 * `<iso>#<id>`) and priority keys `<padded priority>#<createdAt>#<id>`: `#` sorts below every
 * character that follows it and `$` just above `#`. Title keys are
 * `<lower title>\u0001<createdAt>\u0001<id>`, with `\u0002` just above the separator.
 */
export function boundsOf(clause: Clause): KeyRange | undefined {
  if (clause.type === 'integer' && clause.values.length === 1) {
    const v = priorityKeyPrefix(clause.values[0] as number);
    if (clause.op === '=') return { lower: `${v}#`, upper: `${v}$` };
    if (clause.op === '<') return { upper: `${v}#` };
    if (clause.op === '>') return { lower: `${v}$` };
  }
  if (clause.type === 'date' && clause.values.length === 1) {
    const [v] = clause.values as [(typeof clause.values)[number]];
    const start = v.kind === 'day' ? `${v.start}#` : `${v.at}#`;
    const end = v.kind === 'day' ? `${v.end}#` : `${v.at}$`;
    if (clause.op === '=') return { lower: start, upper: end };
    if (clause.op === '<') return { upper: start };
    if (clause.op === '>') return { lower: end };
  }
  if (clause.type === 'text' && clause.values.length === 1) {
    const [v] = clause.values as [string];
    // Titles cannot hold control characters; a value with one would break the key encoding.
    if (/[\u0000-\u001f]/.test(v)) return undefined;
    if (clause.op === '=') return { lower: v + TITLE_KEY_SEPARATOR, upper: v + TITLE_KEY_AFTER };
    if (clause.op === '<') return { upper: v + TITLE_KEY_SEPARATOR };
    if (clause.op === '>') return { lower: v + TITLE_KEY_AFTER };
  }
  return undefined;
}

/**
 * The key in one title's range (`boundsOf`'s `=`: lower `<title>\u0001`) of the entry with this
 * created key (`<createdAt>#<id>`): where a walk of several title ranges in created order
 * continues past a cursor. Pure.
 */
export const titleKeyAt = (range: KeyRange, createdKey: string): string =>
  `${range.lower ?? ''}${createdKey.replace('#', TITLE_KEY_SEPARATOR)}`;

/** The created key (`<createdAt>#<id>`) of a title key (`<title>\u0001<createdAt>\u0001<id>`), the inverse of `titleKeyAt`. Pure. */
export function createdOfTitleKey(titleKey: string): string {
  const [, createdAt, id] = titleKey.split(TITLE_KEY_SEPARATOR);
  return `${createdAt}#${id}`;
}
