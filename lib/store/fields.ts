import type { Clause } from '../filter/query';
import { locationFields } from '../model/action';
import { filterKey, filterPath, locationKeys, lowerKey } from './table';

/**
 * Where each filterable field is stored: the path filters compare (for `title`, its lower-case
 * copy), the lower-case copy `*` also reads, and the path `sort` orders by when it differs.
 */
export interface StoredField {
  attribute: string;
  /** Lower-case copy, present only when the value has upper-case letters. Used by `*`. */
  lowerAttribute?: string;
  /** Stored attribute that `sort` orders by, when it is not `attribute`. */
  sortAttribute?: string;
}

/** A string field compared exactly, with a lower-case copy for `*`. */
const stringField = (key: string, sortKey?: string): StoredField => ({
  attribute: filterPath(key),
  lowerAttribute: filterPath(lowerKey(key)),
  ...(sortKey ? { sortAttribute: filterPath(sortKey) } : {}),
});

const stored: Record<string, StoredField> = {
  title: { attribute: filterPath(filterKey.titleLower) },
  status: { attribute: filterPath(filterKey.status) },
  priority: { attribute: filterPath(filterKey.priority) },
  dueAt: { attribute: filterPath(filterKey.dueAt) },
  createdAt: { attribute: filterPath(filterKey.createdAt) },
  updatedAt: { attribute: filterPath(filterKey.updatedAt) },
  /** Present (as 1) only while the action is overdue. */
  overdue: { attribute: filterPath(filterKey.overdue) },
  owner: stringField(filterKey.ownerId, filterKey.ownerName),
  assignee: stringField(filterKey.assigneeId, filterKey.assigneeName),
  'actionProducer.name': stringField(filterKey.producerName),
  'actionProducer.reference': stringField(filterKey.producerReference),
  ...Object.fromEntries(locationFields.map((field) => [`location.${field}`, stringField(locationKeys[field])])),
};

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
