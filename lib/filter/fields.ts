import type { LocationField } from '../model/action';

/**
 * The fields a list query can filter and sort on, and how each compares:
 * - `text`: compared and sorted case-insensitively under every operator (title)
 * - `string`: exact, except `*` which is a case-insensitive substring match
 * - `integer`: numeric
 * - `date`: an instant, or a whole UTC day
 * - `boolean`: `true` or `false`, with `=` only, and no sort (overdue)
 * The type decides the operators (`lib/filter/query.ts`), so a field names only its type.
 */
export type FieldType = 'text' | 'string' | 'integer' | 'date' | 'boolean';

/** What the API says of a field: its type, and what the documentation shows. */
interface ApiField {
  type: FieldType;
  /**
   * One meaningful example value (with its operator) that finds actions in what `npm run seed`
   * writes (test/integration/readme-examples.test.ts checks every one).
   */
  example: string;
  /** A sentence the parameter's documentation adds to its type's. */
  about?: string;
}

const PERSON =
  " Matches the person's id; `me` (also in a `~` list) is the caller's id; `assignee=undefined` finds unassigned actions.";

/**
 * The field catalogue, API half: each field once, by its query parameter, in the order the
 * documentation lists them. Its keys are `FieldName`, which the store's half
 * (`storedFields` in `lib/store/table.ts`) must cover exactly, so a field declared on one side
 * only fails to compile. `sort` accepts every field but a boolean.
 */
export const fieldCatalogue = {
  title: { type: 'text', example: '*belt' },
  status: { type: 'integer', example: '~1,2' },
  priority: { type: 'integer', example: '>2' },
  dueAt: { type: 'date', example: '<2026-12-01' },
  createdAt: { type: 'date', example: '>2026-09-01' },
  updatedAt: { type: 'date', example: '>2026-09-01' },
  closedAt: {
    type: 'date',
    example: '>2026-01-01',
    about:
      ' Set by the service: when the status last entered a closed status, `null` while open. An open action matches only `!` (it is on no day), and sorts before every closed one.',
  },
  owner: { type: 'string', example: 'u-ann', about: PERSON },
  assignee: { type: 'string', example: 'undefined', about: PERSON },
  'actionProducer.name': { type: 'string', example: 'Inspections' },
  'actionProducer.reference': { type: 'string', example: '*INS' },
  'location.businessUnit': { type: 'string', example: 'Mining' },
  'location.site': { type: 'string', example: 'North Pit' },
  'location.department': { type: 'string', example: 'HSE' },
  'location.workGroup': { type: 'string', example: 'WG-3' },
  'location.productiveUnit': { type: 'string', example: '~PU-1,PU-2' },
  'location.team': { type: 'string', example: 'Night shift' },
  'location.crew': { type: 'string', example: '~A\\,B,C' },
  overdue: { type: 'boolean', example: 'true' },
} as const satisfies Record<string, ApiField>;

export type FieldName = keyof typeof fieldCatalogue;

/** Every location field is filterable: a location field added to the model fails here until it is. */
const _everyLocation: Record<`location.${LocationField}`, ApiField> = fieldCatalogue;

export interface FieldSpec {
  /** The query parameter, as the API names it. */
  name: FieldName;
  type: FieldType;
}

export const fields: readonly FieldSpec[] = (Object.keys(fieldCatalogue) as FieldName[]).map((name) => ({
  name,
  type: fieldCatalogue[name].type,
}));

export const fieldsByName: ReadonlyMap<string, FieldSpec> = new Map(fields.map((f) => [f.name, f]));

/** The fields `GET /api/actions/counts` groups by (besides `overdueAge`): the counted ones whose values it can enumerate. */
export const groupedFields = [
  'status',
  'priority',
  'assignee',
  'owner',
  'actionProducer.name',
  'location.businessUnit',
  'location.site',
  'location.department',
  'location.workGroup',
  'location.productiveUnit',
  'location.team',
  'location.crew',
] as const satisfies readonly FieldName[];
export type GroupedField = (typeof groupedFields)[number];
