import { type FieldName, fieldCatalogue } from '../filter/fields';
import { type Action, actionLimits, UNASSIGNED } from '../model/action';
import { cutToBytes, foldForComparison } from '../text';
import { type IndexDefinition, indexes, indexList } from './indexes';
import { attr, filterKey, locationKeys, nameKey, priorityKeyPrefix, TITLE_KEY_SEPARATOR } from './table';

/**
 * The field catalogue, store half: for each filterable field (the keys of `fieldCatalogue` in
 * `lib/filter/fields.ts`, which holds its API name, type and documentation), where it is stored,
 * which value of an action it holds, whether it is counted, which index serves an equality on it
 * and which ordered index its sort reads, and how those index keys are composed from it. The
 * item mapping (`item.ts`), where filters look (`fields.ts`), the planner's tables (`plan.ts`),
 * the counted fields (`counters.ts`) and the refused list's advice (`list/planned.ts`) are derived from
 * it, and the index definitions themselves are `indexes` in `indexes.ts` (deployed: their names
 * never change). `satisfies Record<FieldName, …>` makes a field declared on one side only a
 * compile error.
 */
/**
 * The partition an empty site or business unit is kept under in its index: U+0000, which no
 * location value can hold (one-line fields refuse control characters, contract section 3). So a
 * scope or filter naming the empty value (an action reported with no location) reads its own
 * partition instead of walking every action.
 */
export const EMPTY_KEY = '\u0000';

export interface StoredFieldSpec {
  /** Its key in the `f` map (`filterKey`); a `string` field also gets a lower-case copy there for `*`. */
  key: string;
  /**
   * The value filters compare, from the action. A boolean is stored as 1 while true and left
   * out while false (so items written before the field existed read as false).
   */
  value: (action: Action) => string | number | boolean | null;
  /** Sorts by another value than it filters on (owner and assignee: by name), kept in `f` under `key`. */
  sortBy?: { key: string; value: (action: Action) => string };
  /**
   * The index whose partitions are this field's values, so an equality (`=`, `~`) reads only its
   * matches; `selectivity` is a rough share of the table one value matches (only the ranking
   * between plans matters). A sparse index leaves out actions whose value is empty; otherwise its
   * partition key is also a top-level copy of the value that thin indexes can filter on.
   * `ordered`: indexes with the same partitions, each in another order (by due time). `empty`:
   * the key a sparse index keeps the empty value under instead of leaving it out (`EMPTY_KEY`).
   */
  equality?: {
    index: IndexDefinition;
    selectivity: number;
    sparse?: true;
    ordered?: readonly IndexDefinition[];
    empty?: string;
  };
  /**
   * The index over every action whose sort key orders by this field (its `sortBy` value if any),
   * ties by `createdAt` and then id (contract section 4), and how that key is composed from the
   * value, the creation time and the id. A list cursor holds it.
   */
  ordered?: { index: IndexDefinition; key: OrderKey };
  /** A top-level copy of the value, for an index to project alone (the title index). */
  copy?: string;
  /** Counted by value (`lib/store/counters/counters.ts`): exact totals for an equality on it. A boolean counts only `true`. */
  counted?: true;
  /** A string the action holds as this property, stored and read back as is (see `plain`). */
  property?: PlainProperty;
}

/** The action's own string properties. */
type PlainProperty = { [K in keyof Action]-?: Action[K] extends string ? K : never }[keyof Action];

/**
 * A field that is one of the action's own string properties, stored under `key` and read back
 * into the action as is (`fromItem`): all a new plain field needs here.
 */
const plain = <P extends PlainProperty>(property: P, key: string) => ({
  key,
  value: (a: Action) => a[property],
  property,
});

/** Composes an ordered index's sort key from the value it orders, the action's `createdAt` and its id. */
export type OrderKey = (value: unknown, createdAt: string, id: string) => string;

/**
 * Ordered keys end in `#<createdAt>#<id>`, so equal values order by creation time and then by id,
 * as the contract's tie rule says, and a list sorted by any field can also be read as that
 * field's partitions (each in `createdAt` order) merged in value order. Creation times are
 * canonical ISO strings of one length, so they compare as times.
 */
const byValueThenCreated: OrderKey = (value, createdAt, id) => `${value}#${createdAt}#${id}`;
/** The creation time's own key: the value is the creation time, so `<createdAt>#<id>`. */
const byCreatedThenId: OrderKey = (value, _createdAt, id) => `${value}#${id}`;
const location = (field: keyof typeof locationKeys) => ({
  key: locationKeys[field],
  value: (a: Action) => a.location[field],
});
const assigneeOf = (action: Action) => action.assignee ?? UNASSIGNED;

/**
 * Every filterable field, once. The order is the order the refused list's advice names them in;
 * the planner tries ordered indexes in the order of `indexes`.
 */
export const storedFields = {
  owner: {
    key: filterKey.ownerId,
    value: (a) => a.owner.id,
    sortBy: { key: filterKey.ownerName, value: (a) => a.owner.name },
    equality: { index: indexes.byOwner, selectivity: 0.002 },
    ordered: { index: indexes.allByOwnerName, key: (v, c, id) => nameKey(String(v), c, id) },
    counted: true,
  },
  assignee: {
    key: filterKey.assigneeId,
    value: (a) => assigneeOf(a).id,
    sortBy: { key: filterKey.assigneeName, value: (a) => assigneeOf(a).name },
    equality: { index: indexes.byAssignee, selectivity: 0.01 },
    ordered: { index: indexes.allByAssigneeName, key: (v, c, id) => nameKey(String(v), c, id) },
    counted: true,
  },
  status: {
    key: filterKey.status,
    value: (a) => a.status,
    equality: { index: indexes.byStatus, selectivity: 0.2 },
    counted: true,
  },
  priority: {
    key: filterKey.priority,
    value: (a) => a.priority,
    equality: { index: indexes.byPriority, selectivity: 0.2 },
    ordered: {
      index: indexes.allByPriority,
      key: (v, c, id) => byValueThenCreated(priorityKeyPrefix(Number(v)), c, id),
    },
    counted: true,
  },
  'location.site': {
    ...location('site'),
    equality: {
      index: indexes.bySite,
      selectivity: 0.04,
      sparse: true,
      ordered: [indexes.bySiteByDue],
      empty: EMPTY_KEY,
    },
    counted: true,
  },
  'location.businessUnit': {
    ...location('businessUnit'),
    equality: { index: indexes.byBusinessUnit, selectivity: 0.2, sparse: true, empty: EMPTY_KEY },
    counted: true,
  },
  'actionProducer.name': {
    key: filterKey.producerName,
    value: (a) => a.actionProducer.name,
    equality: { index: indexes.byProducer, selectivity: 0.15 },
    counted: true,
  },
  'actionProducer.reference': {
    key: filterKey.producerReference,
    value: (a) => a.actionProducer.reference ?? '',
    equality: { index: indexes.byReference, selectivity: 0.0005, sparse: true },
  },
  createdAt: {
    ...plain('createdAt', filterKey.createdAt),
    ordered: { index: indexes.allByCreated, key: byCreatedThenId },
  },
  dueAt: { ...plain('dueAt', filterKey.dueAt), ordered: { index: indexes.allByDue, key: byValueThenCreated } },
  updatedAt: {
    ...plain('updatedAt', filterKey.updatedAt),
    ordered: { index: indexes.allByUpdated, key: byValueThenCreated },
  },
  /** Left out of the map while `null` (open); no index orders it (the 20 are used): see `list/closed-order.ts`. */
  closedAt: { key: filterKey.closedAt, value: (a) => a.closedAt },
  title: {
    key: filterKey.titleLower,
    value: (a) => foldForComparison(a.title),
    ordered: {
      index: indexes.allByTitle,
      // The validation keeps a folded title within `foldedTitleBytes`; the cut only guards a title
      // stored before that rule (or before a fold that grew it), so no key passes 1,024 bytes.
      key: (v, c, id) =>
        `${cutToBytes(String(v), actionLimits.foldedTitleBytes)}${TITLE_KEY_SEPARATOR}${c}${TITLE_KEY_SEPARATOR}${id}`,
    },
    copy: attr.titleLower,
    // Counted by its folded value, as `=`, `!` and `~` compare it (the query folds their values
    // alike): `n#title#<folded title>`, within DynamoDB's 2,048-byte partition key, since a folded
    // title is at most 900 bytes (the validation) or, stored before that rule, 6 bytes a UTF-16 unit.
    counted: true,
  },
  // Counted by value too, with status and overdue (`counters.ts`, `pairedFields`), though no
  // equality index keeps them (the 20 are used): counts by a location field, and its `=`/`~`
  // with a status set or `overdue`, read a few counters however many whole locations exist.
  'location.department': { ...location('department'), counted: true },
  'location.workGroup': { ...location('workGroup'), counted: true },
  'location.productiveUnit': { ...location('productiveUnit'), counted: true },
  'location.team': { ...location('team'), counted: true },
  'location.crew': { ...location('crew'), counted: true },
  /** Overdue actions also have an index of their own (`overdue-by-created`), which the planner knows. */
  overdue: { key: filterKey.overdue, value: (a) => a.overdue, counted: true },
} as const satisfies Record<FieldName, StoredFieldSpec>;

type Catalogue = typeof storedFields;

/** The catalogue as a list, each field with its API type. */
export const storedFieldList: ReadonlyArray<StoredFieldSpec & { name: FieldName; type: string }> = (
  Object.keys(storedFields) as FieldName[]
).map((name) => ({ ...(storedFields[name] as StoredFieldSpec), name, type: fieldCatalogue[name].type }));

/** The action properties the catalogue stores and reads back as is (`plain`). */
export type PlainProperties = Pick<
  Action,
  { [K in FieldName]: Catalogue[K] extends { property: infer P extends PlainProperty } ? P : never }[FieldName]
>;

/** The plain properties of an action, read back from its `f` map. */
export function plainProperties(f: Record<string, unknown>): PlainProperties {
  const entries = storedFieldList.flatMap(({ property, key }) =>
    property ? [[property, typeof f[key] === 'string' ? f[key] : '']] : [],
  );
  return Object.fromEntries(entries) as PlainProperties;
}

/** The fields counted by value. */
export type CountedName = { [K in FieldName]: Catalogue[K] extends { counted: true } ? K : never }[FieldName];

/** The value a counter counts, as filters compare it; `undefined` is not counted. */
export function countedValue(field: CountedName, action: Action): string | undefined {
  const value = (storedFields[field] as StoredFieldSpec).value(action);
  if (typeof value === 'boolean') return value ? 'true' : undefined;
  return String(value);
}

/** The fields whose equality an index serves. */
export const equalityFields = storedFieldList.filter((f) => f.equality !== undefined);

/** The fields an index over every action orders, in the order of `indexes` (the planner's preference on ties). */
export const orderedFields = indexList.flatMap((index) =>
  storedFieldList.filter((f) => f.ordered?.index.name === index.name),
);
