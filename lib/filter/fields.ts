import { locationFields } from '../model/action';

/**
 * The fields a list query can filter and sort on, and how each compares:
 * - `text`: compared and sorted case-insensitively under every operator (title)
 * - `string`: exact, except `*` which is a case-insensitive substring match
 * - `integer`: numeric
 * - `date`: an instant, or a whole UTC day
 * - `boolean`: `true` or `false`, with `=` only, and no sort (overdue)
 * Where each is stored is the store's business (`lib/store/fields.ts`).
 */
export type FieldType = 'text' | 'string' | 'integer' | 'date' | 'boolean';

export interface FieldSpec {
  /** The query parameter, as the API names it. */
  name: string;
  type: FieldType;
}

export const fields: readonly FieldSpec[] = [
  { name: 'title', type: 'text' },
  { name: 'status', type: 'integer' },
  { name: 'priority', type: 'integer' },
  { name: 'dueAt', type: 'date' },
  { name: 'createdAt', type: 'date' },
  { name: 'updatedAt', type: 'date' },
  { name: 'owner', type: 'string' },
  { name: 'assignee', type: 'string' },
  { name: 'actionProducer.name', type: 'string' },
  { name: 'actionProducer.reference', type: 'string' },
  ...locationFields.map((field) => ({ name: `location.${field}`, type: 'string' as const })),
  { name: 'overdue', type: 'boolean' },
];

export const fieldsByName: ReadonlyMap<string, FieldSpec> = new Map(fields.map((f) => [f.name, f]));
