import { badCursor } from '../../../cursor';
import type { FieldSpec } from '../../../filter/fields';
import type { OrderKey } from '../../catalogue';
import { MAX_SORT_KEY_BYTES } from '../../client';
import { orderKeys } from '../../item';
import { orderedIndexes } from './index-holds';
import type { Position, Row } from './result';

/** DynamoDB orders strings by UTF-8 bytes, which is code point order; JavaScript's `<` is not. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  if (x === y) return 0;
  if (/[\ud800-\udfff]/.test(x) || /[\ud800-\udfff]/.test(y)) return Buffer.compare(Buffer.from(x), Buffer.from(y));
  return x < y ? -1 : 1;
}

/** Places in a list's order (`Position`): what a cursor carries, checked when it comes back. */

/** The key a counted list continues after: a cursor of its shape holds an index sort key. */
export function keyAfter(after: Position | undefined): string | undefined {
  if (after === undefined) return undefined;
  if (typeof after !== 'string' || after === '' || Buffer.byteLength(after, 'utf8') > MAX_SORT_KEY_BYTES)
    throw badCursor();
  return after;
}

/** Where a match read with `sortAttribute` stands in the order of `field` (see `Position`). */
export function positionOf(field: FieldSpec, sortAttribute: string, row: Row): Position {
  const key = orderedIndexes[field.name]?.sortKey.name;
  // Ties by creation time, then id: the created key (`<createdAt>#<id>`) orders exactly so.
  const created = row.created ?? row.id;
  if (key === undefined) return [(row.value ?? null) as string | number | null, created];
  if (sortAttribute === key) return row.value as string;
  return (orderKeys[key] as OrderKey)(row.value, created.slice(0, created.indexOf('#')), row.id);
}

/** A position from a cursor, if it has the shape positions of this sort have; else a 400. */
export function checkedPosition(field: FieldSpec, after: Position): Position {
  if (orderedIndexes[field.name] !== undefined) return keyAfter(after) as string;
  const ok =
    Array.isArray(after) &&
    after.length === 2 &&
    typeof after[1] === 'string' &&
    (after[0] === null || typeof after[0] === 'string' || typeof after[0] === 'number');
  if (!ok) throw badCursor();
  return after;
}

export function comparePositions(a: Position, b: Position): number {
  if (typeof a === 'string' || typeof b === 'string') return compareValues(a, b);
  return compareValues(a[0], b[0]) || compareValues(a[1], b[1]);
}
