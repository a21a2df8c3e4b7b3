import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { IndexDefinition } from '../indexes';
import { attr } from '../table';

/**
 * DynamoDB's own rules for the size of an item, which every read and write unit is counted
 * from (the Developer Guide, "Item sizes and formats"):
 * - a string is its UTF-8 bytes, a binary its bytes, a number about one byte per two
 *   significant digits plus one, a boolean or null one byte;
 * - a list or map is 3 bytes plus, per element, one byte plus the element (and, in a map, the
 *   element's name);
 * - every top-level attribute adds its name's UTF-8 bytes.
 * DynamoDB Local sizes reads exactly this way: the benchmark checked that a Query's and a
 * Scan's reported read units equal these sizes summed per page, rounded up to 4 KB and halved.
 */

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function numberBytes(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((s, x) => s + utf8(x), 0);
  if (value.NS !== undefined) return value.NS.reduce((s, x) => s + numberBytes(x), 0);
  if (value.L !== undefined) return 3 + value.L.reduce((s, x) => s + 1 + valueBytes(x), 0);
  if (value.M !== undefined)
    return 3 + Object.entries(value.M).reduce((s, [name, x]) => s + 1 + utf8(name) + valueBytes(x), 0);
  throw new Error(`unknown attribute value ${JSON.stringify(value)}`);
}

export type StoredItem = Record<string, AttributeValue>;

/** An item as DynamoDB stores it (undefined members dropped, as the service's client drops them). */
export const stored = (item: Record<string, unknown>): StoredItem =>
  marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as StoredItem;

/** The size of a stored item, by DynamoDB's rules. */
export const itemBytes = (item: StoredItem): number =>
  Object.entries(item).reduce((s, [name, value]) => s + utf8(name) + valueBytes(value), 0);

/** Write units of one write of `bytes`: one per started KB (twice that inside a transaction). */
export const writeUnitsOf = (bytes: number, transactional = false) =>
  Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

/**
 * The entry an item makes in an index, or `undefined` when the item lacks a key attribute of
 * the index (a sparse index leaves it out): the index keys, the table keys and the projection.
 */
export function indexEntry(index: IndexDefinition, item: StoredItem): StoredItem | undefined {
  const keys = [index.partitionKey.name, index.sortKey.name];
  if (keys.some((k) => item[k] === undefined)) return undefined;
  const names = new Set([...keys, attr.id, attr.sortKey, ...(index.projection === 'keys' ? [] : index.projection)]);
  return Object.fromEntries([...names].flatMap((n) => (item[n] !== undefined ? [[n, item[n]]] : [])));
}

const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * What one index charges for one item changing from `before` to `after` (either may be
 * absent), by DynamoDB's rules for global secondary indexes ("Provisioned throughput
 * considerations for global secondary indexes"): an item entering the index is one write of its
 * entry, one leaving it is one write (a delete), a change of an index key attribute is two (a
 * delete and a put), a change of projected attributes only is one, and a change that touches
 * nothing the index holds costs nothing. Each write is one unit per started KB of the entry.
 */
export function indexWriteUnits(index: IndexDefinition, before?: StoredItem, after?: StoredItem): number {
  const old = before ? indexEntry(index, before) : undefined;
  const next = after ? indexEntry(index, after) : undefined;
  if (!old && !next) return 0;
  if (!old && next) return writeUnitsOf(itemBytes(next));
  if (old && !next) return writeUnitsOf(itemBytes(old));
  const o = old as StoredItem;
  const n = next as StoredItem;
  const keyChanged = [index.partitionKey.name, index.sortKey.name].some((k) => !sameValue(o[k], n[k]));
  if (keyChanged) return writeUnitsOf(itemBytes(o)) + writeUnitsOf(itemBytes(n));
  const names = new Set([...Object.keys(o), ...Object.keys(n)]);
  const changed = [...names].some((k) => !sameValue(o[k], n[k]));
  return changed ? writeUnitsOf(Math.max(itemBytes(o), itemBytes(n))) : 0;
}
