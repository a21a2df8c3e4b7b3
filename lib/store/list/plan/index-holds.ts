import type { FieldSpec } from '../../../filter/fields';
import type { Clause } from '../../../filter/query';
import { orderedFields, storedFieldList } from '../../catalogue';
import { attributeOf, type StoredClause, sortAttributeOf, storedField } from '../../fields';
import type { IndexDefinition } from '../../indexes';
import { attr, filterKey, filterPath } from '../../table';

/**
 * What an index's entries hold, for the planner (`plan.ts`) and the reads it plans: the indexes
 * that order each field, and where an entry holds a value the filter or the sort needs (its own
 * attribute, or a top-level copy of it).
 */

/**
 * Indexes over every action, by the field their sort key orders. The name indexes order `owner`
 * and `assignee` by name, while their filters compare ids, so only dates, titles and priorities
 * become key ranges (`boundsOf`).
 */
export const orderedIndexes: Record<string, IndexDefinition> = Object.fromEntries(
  orderedFields.flatMap(({ name, ordered }) => (ordered ? [[name, ordered.index]] : [])),
);

/**
 * Top-level copies of values in the `f` map (they exist as index keys), so a thin index that
 * holds the copy can filter and sort without the map. Only copies that every action has and
 * that always equal the map value: the partition keys of the equality indexes that are not
 * sparse, and the title's copy; the sparse location and reference keys are left out.
 */
const topLevelCopies: Record<string, string> = Object.fromEntries(
  storedFieldList.flatMap((field) => {
    const copy = field.copy ?? (field.equality?.sparse ? undefined : field.equality?.index.partitionKey.name);
    return copy === undefined ? [] : [[filterPath(field.key), copy]];
  }),
);

/** Top-level attributes an index item holds: its keys, the table key and what it projects. */
export function attributesOf(index: IndexDefinition): Set<string> {
  const names = [index.partitionKey.name, index.sortKey.name, attr.id];
  return new Set(index.projection === 'keys' ? names : [...names, ...index.projection]);
}

/** Whether an index item holds the value at `path` (a projected map holds all of its members). */
export const holds = (index: IndexDefinition, path: string): boolean =>
  attributesOf(index).has(path.split('.')[0] as string);

/** Where an index item holds the value at `path`: the path itself, or a top-level copy. */
export function pathIn(index: IndexDefinition, path: string): string | undefined {
  if (holds(index, path)) return path;
  const copy = topLevelCopies[path];
  return copy !== undefined && holds(index, copy) ? copy : undefined;
}

/**
 * The attribute that orders a field in this index. A sort key such as `kd`
 * (`<dueAt>#<createdAt>#<id>`) orders by the field, then by creation time and id, exactly as the
 * API sorts, so it is preferred wherever the index holds it (as its own key or projected);
 * otherwise the field's value, ties broken by the created key (`createdIn`).
 */
export function orderAttribute(index: IndexDefinition, field: FieldSpec): string | undefined {
  const key = orderedIndexes[field.name]?.sortKey.name;
  if (key !== undefined && attributesOf(index).has(key)) return key;
  return pathIn(index, sortAttributeOf(field));
}

/**
 * Where an index item holds the action's creation time, for the tie rule of a sort made in
 * memory: the created key (`<createdAt>#<id>`) if it holds it, else the creation time itself.
 */
export function createdIn(index: IndexDefinition): string | undefined {
  if (attributesOf(index).has(attr.createdKey)) return attr.createdKey;
  return pathIn(index, filterPath(filterKey.createdAt));
}

/** The clause as this index can evaluate it (on a top-level copy if need be), or `undefined`. */
export function clauseIn(index: IndexDefinition, clause: Clause): StoredClause | undefined {
  const own = attributeOf(clause);
  const attribute = pathIn(index, own);
  if (attribute === undefined) return undefined;
  // `*` also reads the lower-case copy, which only the map holds.
  const lower = clause.op === '*' ? storedField(clause.field).lowerAttribute : undefined;
  if (lower !== undefined && !holds(index, lower)) return undefined;
  return attribute === own ? clause : { ...clause, attribute };
}
