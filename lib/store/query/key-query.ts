import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../client';
import type { Item } from '../item';
import { attr } from '../table';

/**
 * A key query described by its parts, and the one place a `KeyConditionExpression` is written
 * (../shared/style.md, habit 23): every Query the store sends is a `KeyQuery` made into a request
 * here, so a new access pattern is a new set of parts, not a new expression. Pure: nothing is
 * sent (`pager.ts` sends and pages).
 */

/**
 * Placeholders for an expression's attribute names and values. The list's `Placeholders`
 * (`list/plan/expression.ts`, which also counts operators) is one, and is passed in where a
 * list's filter shares the request; this one serves every other read without pulling the list's
 * planner into their bundles.
 */
export interface ExpressionPlaceholders {
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
  /** A placeholder for an attribute path such as `f.st` (one placeholder per segment). */
  name(path: string): string;
  /** A placeholder for a value. */
  value(value: unknown): string;
}

/** Fresh placeholders: `#n0`, `#n1`, ... for names (one per distinct segment), `:v0`, ... for values. */
export function placeholders(): ExpressionPlaceholders {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const nameOf = new Map<string, string>();
  return {
    names,
    values,
    name: (path) =>
      path
        .split('.')
        .map((segment) => {
          let placeholder = nameOf.get(segment);
          if (!placeholder) {
            placeholder = `#n${nameOf.size}`;
            nameOf.set(segment, placeholder);
            names[placeholder] = segment;
          }
          return placeholder;
        })
        .join('.'),
    value: (value) => {
      const placeholder = `:v${Object.keys(values).length}`;
      values[placeholder] = value;
      return placeholder;
    },
  };
}

/** A key that can be a partition or sort key value. */
export type KeyValue = string | number;

/**
 * The condition on the sort key, as DynamoDB allows it: a comparison, `between` (both bounds
 * included), or `begins_with`.
 */
export type SortCondition =
  | { op: '=' | '<' | '<=' | '>' | '>='; value: KeyValue }
  | { op: 'between'; from: KeyValue; to: KeyValue }
  | { op: 'begins_with'; prefix: string };

/** The key attributes of what is queried: the table's (`id`, `sk`) or an index's (`indexes.ts`). */
export interface KeyNames {
  /** The index's name; absent for the table itself. */
  name?: string;
  partitionKey: { name: string };
  sortKey: { name: string };
}

export interface KeyQuery {
  /** The table queried: the service's table when absent (another for the postings or the store upgrade). */
  table?: string;
  /** The index queried and its key names; the table's own keys when absent. */
  index?: KeyNames;
  /** The partition key's value. */
  partition: KeyValue;
  /** The condition on the sort key, if any. */
  sort?: SortCondition;
  /** A filter over what the key condition selects, written with the same placeholders. */
  filter?: (p: ExpressionPlaceholders) => string | undefined;
  /** The attribute paths read (`a.b` for a map's member); every attribute when absent. */
  projection?: readonly string[];
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** Entries evaluated at most by one request (DynamoDB's `Limit`). */
  limit?: number;
  /** Strongly consistent. */
  consistent?: boolean;
  /** Continue after this key (a page's `LastEvaluatedKey`, or a cursor's key). */
  startKey?: Item;
}

/** The table's own keys: the key of a query with no index. */
const tableKeys: KeyNames = { partitionKey: { name: attr.id }, sortKey: { name: attr.sortKey } };

/** The key condition on the sort key `key` (a placeholder) for `sort`. */
function sortKeyCondition(key: string, sort: SortCondition, p: ExpressionPlaceholders): string {
  switch (sort.op) {
    case 'between':
      return `${key} BETWEEN ${p.value(sort.from)} AND ${p.value(sort.to)}`;
    case 'begins_with':
      return `begins_with(${key}, ${p.value(sort.prefix)})`;
    default:
      return `${key} ${sort.op} ${p.value(sort.value)}`;
  }
}

/**
 * The Query request of a key query. `p`: placeholders to share with a filter built beside it (the
 * list's filters count their operators there); fresh ones when absent.
 */
export function queryInput(query: KeyQuery, p: ExpressionPlaceholders = placeholders()): QueryCommandInput {
  const keys = query.index ?? tableKeys;
  let keyCondition = `${p.name(keys.partitionKey.name)} = ${p.value(query.partition)}`;
  if (query.sort) keyCondition += ` AND ${sortKeyCondition(p.name(keys.sortKey.name), query.sort, p)}`;
  const filter = query.filter?.(p);
  // DynamoDB refuses a path named twice in a projection.
  const projection = query.projection && [...new Set(query.projection)].map((path) => p.name(path)).join(', ');
  return {
    TableName: query.table ?? tableName(),
    ...(query.index?.name ? { IndexName: query.index.name } : {}),
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ...(projection ? { ProjectionExpression: projection } : {}),
    ExpressionAttributeNames: p.names,
    ExpressionAttributeValues: p.values,
    ...(query.descending ? { ScanIndexForward: false } : {}),
    ...(query.limit !== undefined ? { Limit: query.limit } : {}),
    ...(query.consistent ? { ConsistentRead: true } : {}),
    ...(query.startKey ? { ExclusiveStartKey: query.startKey } : {}),
  };
}
