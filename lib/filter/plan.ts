import { EVERYTHING, type IndexDefinition, indexes, TITLE_KEY_AFTER, TITLE_KEY_SEPARATOR } from '../store/table';
import { type FieldSpec, fieldsByName, sortAttributeOf } from './fields';
import type { Clause, ListQuery, Sort } from './query';

/**
 * The query planner: picks the cheapest way to find every match of a list query. DynamoDB
 * charges for every item a query reads, filtered or not, and `totalCount` must count every
 * match, so the plan that reads the fewest bytes wins. Plans are plain data.
 */

/** Bounds on an index sort key: `lower` inclusive, `upper` exclusive. */
export interface KeyRange {
  lower?: string;
  upper?: string;
}

/** A read of one index: every partition listed, within `range`, keeping what `filter` matches. */
export interface IndexRead {
  index: IndexDefinition;
  partitions: Array<string | number>;
  range?: KeyRange;
  /** Clauses the key condition does not already guarantee: the filter expression. */
  filter: Clause[];
}

export interface Plan {
  /** Reads every match. */
  read: IndexRead;
  /** The stored attribute to order matches by (ties by id), in the requested direction. */
  sortAttribute: string;
  descending: boolean;
  /**
   * Set when `read` is already in the requested order and a cheaper index can count: then the
   * count comes from here and only the first `skip + limit` matches of `read` are read.
   */
  count?: IndexRead;
  /** The filters contradict each other; nothing can match. */
  empty: boolean;
}

export const DEFAULT_SORT: Sort = { field: fieldsByName.get('createdAt') as FieldSpec, descending: true };

/** Rough share of the table one value of an equality-indexed field matches; only the ranking matters. */
const equalityIndexes: Record<string, { index: IndexDefinition; selectivity: number; sparse: boolean }> = {
  'actionProducer.reference': { index: indexes.byReference, selectivity: 0.0005, sparse: true },
  owner: { index: indexes.byOwner, selectivity: 0.002, sparse: false },
  assignee: { index: indexes.byAssignee, selectivity: 0.01, sparse: false },
  'location.site': { index: indexes.bySite, selectivity: 0.04, sparse: true },
  'actionProducer.name': { index: indexes.byProducer, selectivity: 0.15, sparse: false },
  'location.businessUnit': { index: indexes.byBusinessUnit, selectivity: 0.2, sparse: true },
  status: { index: indexes.byStatus, selectivity: 0.3, sparse: false },
  priority: { index: indexes.byPriority, selectivity: 0.3, sparse: false },
};

/** Indexes over every action, by the field their sort key orders. */
const orderedIndexes: Record<string, IndexDefinition> = {
  createdAt: indexes.allByCreated,
  dueAt: indexes.allByDue,
  updatedAt: indexes.allByUpdated,
  title: indexes.allByTitle,
};

/** Bytes per index item relative to one that projects every filter value. */
const sizeFactor = (index: IndexDefinition) =>
  index.projection === 'keys' ? 0.25 : index.projection.length === 1 ? 0.4 : 1;

/** The share of a partition a key range is assumed to keep. */
const RANGE_SHARE = 0.25;

/** Top-level attributes an index item holds: its keys, the table key and what it projects. */
export function attributesOf(index: IndexDefinition): Set<string> {
  const names = [index.partitionKey.name, index.sortKey.name, 'id'];
  return new Set(index.projection === 'keys' ? names : [...names, ...index.projection]);
}

/** Whether an index item holds the value at `path` (a projected map holds all of its members). */
export const holds = (index: IndexDefinition, path: string): boolean =>
  attributesOf(index).has(path.split('.')[0] as string);

/** The attribute that orders a field in this index: its sort key when that key encodes the field. */
export function orderAttribute(index: IndexDefinition, field: FieldSpec): string | undefined {
  if (orderedIndexes[field.name]?.sortKey.name === index.sortKey.name) return index.sortKey.name;
  const attribute = sortAttributeOf(field);
  return holds(index, attribute) ? attribute : undefined;
}

export function plan(query: ListQuery): Plan {
  const sort = query.sort ?? DEFAULT_SORT;
  const { filters } = query;

  if (filters.length === 0) {
    const ordered = orderedIndexes[sort.field.name];
    if (ordered) {
      return {
        read: { index: ordered, partitions: [EVERYTHING], filter: [] },
        sortAttribute: ordered.sortKey.name,
        descending: sort.descending,
        count: { index: indexes.allByCreated, partitions: [EVERYTHING], filter: [] },
        empty: false,
      };
    }
  }

  let best: { read: IndexRead; cost: number; empty: boolean } | undefined;
  const consider = (read: IndexRead, cost: number, empty = false) => {
    const needed = [...read.filter.flatMap(attributesOfClause), sortAttributeFor(read.index, sort.field)];
    if (needed.some((path) => path === undefined || !holds(read.index, path))) return;
    if (!best || cost < best.cost) best = { read, cost, empty };
  };

  for (const clause of filters) {
    const equality = equalityIndexes[clause.field.name];
    if (!equality || (clause.op !== '=' && clause.op !== '~')) continue;
    const partitions = [...new Set<string | number>(clause.values as Array<string | number>)];
    if (equality.sparse && partitions.includes('')) continue;
    const rest = filters.filter((c) => c !== clause);
    const { range, remaining, empty } = keyRangeFor(equality.index, rest);
    const cost = equality.selectivity * partitions.length * (range ? RANGE_SHARE : 1) * sizeFactor(equality.index);
    consider({ index: equality.index, partitions, ...(range ? { range } : {}), filter: remaining }, cost, empty);
  }

  for (const index of Object.values(orderedIndexes)) {
    const { range, remaining, empty } = keyRangeFor(index, filters);
    const cost = (range ? RANGE_SHARE : 1) * sizeFactor(index);
    consider({ index, partitions: [EVERYTHING], ...(range ? { range } : {}), filter: remaining }, cost, empty);
  }

  // `all-by-due` projects every filter value, so some plan always applies.
  const chosen = best as NonNullable<typeof best>;
  return {
    read: chosen.read,
    sortAttribute: sortAttributeFor(chosen.read.index, sort.field) as string,
    descending: sort.descending,
    empty: chosen.empty,
  };
}

const attributesOfClause = (clause: Clause): string[] =>
  clause.op === '*' && clause.field.lowerAttribute
    ? [clause.field.attribute, clause.field.lowerAttribute]
    : [clause.field.attribute];

const sortAttributeFor = (index: IndexDefinition, field: FieldSpec) => orderAttribute(index, field);

/**
 * Folds the clauses that the index sort key can answer (`=`, `<`, `>` on the field it orders)
 * into one key range, and returns the rest as the filter.
 */
export function keyRangeFor(
  index: IndexDefinition,
  clauses: Clause[],
): { range?: KeyRange; remaining: Clause[]; empty: boolean } {
  const fieldName = Object.entries(orderedIndexes).find(([, i]) => i.sortKey.name === index.sortKey.name)?.[0];
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
 * Key bounds for one clause. Date keys are `<iso>#<id>`: `#` sorts below every id character and
 * `$` just above `#`. Title keys are `<lower title>\u0001<id>`, with `\u0002` just above.
 */
function boundsOf(clause: Clause): KeyRange | undefined {
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
