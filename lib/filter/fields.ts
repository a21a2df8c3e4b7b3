import { filterKey, filterPath, locationFields, locationKeys, lowerKey } from '../store/table';

/**
 * How a query parameter is compared:
 * - `text`: compared and sorted case-insensitively under every operator (title)
 * - `string`: exact, except `*` which is a case-insensitive substring match
 * - `integer`: numeric
 * - `date`: an instant, or a whole UTC day
 */
export type FieldType = 'text' | 'string' | 'integer' | 'date';

export interface FieldSpec {
  /** The query parameter, as the API names it. */
  name: string;
  type: FieldType;
  /** Path of the stored value filters compare (for `text`, the lower-cased copy). */
  attribute: string;
  /** Lower-case copy, present only when the value has upper-case letters. Used by `*`. */
  lowerAttribute?: string;
  /** Stored attribute that `sort` orders by, when it is not `attribute`. */
  sortAttribute?: string;
}

/** A string field compared exactly, with a lower-case copy for `*`. */
const stringField = (name: string, key: string, sortKey?: string): FieldSpec => ({
  name,
  type: 'string',
  attribute: filterPath(key),
  lowerAttribute: filterPath(lowerKey(key)),
  ...(sortKey ? { sortAttribute: filterPath(sortKey) } : {}),
});

export const fields: readonly FieldSpec[] = [
  { name: 'title', type: 'text', attribute: filterPath(filterKey.titleLower) },
  { name: 'status', type: 'integer', attribute: filterPath(filterKey.status) },
  { name: 'priority', type: 'integer', attribute: filterPath(filterKey.priority) },
  { name: 'dueAt', type: 'date', attribute: filterPath(filterKey.dueAt) },
  { name: 'createdAt', type: 'date', attribute: filterPath(filterKey.createdAt) },
  { name: 'updatedAt', type: 'date', attribute: filterPath(filterKey.updatedAt) },
  stringField('owner', filterKey.ownerId, filterKey.ownerName),
  stringField('assignee', filterKey.assigneeId, filterKey.assigneeName),
  stringField('actionProducer.name', filterKey.producerName),
  stringField('actionProducer.reference', filterKey.producerReference),
  ...locationFields.map((field) => stringField(`location.${field}`, locationKeys[field])),
];

export const fieldsByName: ReadonlyMap<string, FieldSpec> = new Map(fields.map((f) => [f.name, f]));

/** The attribute a sort on this field orders by. */
export const sortAttributeOf = (field: FieldSpec): string => field.sortAttribute ?? field.attribute;
