import type { Clause } from '../filter/query';
import { storedFieldList } from './catalogue';
import { filterPath, lowerKey } from './table';

/**
 * Where each filterable field is stored: the path filters compare (for `title`, its lower-case
 * copy), the lower-case copy `*` also reads, and the path `sort` orders by when it differs.
 * Derived from the catalogue (`lib/store/catalogue.ts`).
 */
export interface StoredField {
  attribute: string;
  /** Lower-case copy, present only when the value has upper-case letters. Used by `*`. */
  lowerAttribute?: string;
  /** Stored attribute that `sort` orders by, when it is not `attribute`. */
  sortAttribute?: string;
}

/** Where each field's filters and sort look, from the catalogue. */
const stored: Record<string, StoredField> = Object.fromEntries(
  storedFieldList.map((field): [string, StoredField] => [
    field.name,
    {
      attribute: filterPath(field.key),
      ...(field.type === 'string' ? { lowerAttribute: filterPath(lowerKey(field.key)) } : {}),
      ...(field.sortBy ? { sortAttribute: filterPath(field.sortBy.key) } : {}),
    },
  ]),
);

/** Where a field is stored. */
export function storedField(field: { name: string }): StoredField {
  const found = stored[field.name];
  if (!found) throw new Error(`no stored attribute for the field '${field.name}'`);
  return found;
}

/** The attribute a sort on this field orders by. */
export const sortAttributeOf = (field: { name: string }): string => {
  const { sortAttribute, attribute } = storedField(field);
  return sortAttribute ?? attribute;
};

/** A clause as a read evaluates it: on the field's own attribute, or on a copy an index holds. */
export type StoredClause = Clause & { attribute?: string };

/** The attribute a clause compares. */
export const attributeOf = (clause: StoredClause): string => clause.attribute ?? storedField(clause.field).attribute;
