import { describe, expect, it } from 'vitest';
import { fieldCatalogue } from '../../lib/filter/fields';
import { storedFieldList } from '../../lib/store/catalogue';
import { indexList } from '../../lib/store/indexes';
import { attr, filterKey, lowerKey } from '../../lib/store/table';

/**
 * What the compiler cannot check about the field catalogue: that no two fields share a stored
 * name or an index key, and that every stored name is one the table description lists.
 */
describe('the field catalogue', () => {
  it('covers exactly the fields the API names, in both halves', () => {
    expect(storedFieldList.map((f) => f.name).sort()).toEqual(Object.keys(fieldCatalogue).sort());
  });

  it('stores each field under a name of its own, listed in filterKey', () => {
    const keys = storedFieldList.flatMap((f) => [
      f.key,
      ...(f.type === 'string' ? [lowerKey(f.key)] : []),
      ...(f.sortBy ? [f.sortBy.key] : []),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
    const listed = new Set<string>(Object.values(filterKey));
    for (const f of storedFieldList) {
      expect(listed.has(f.key), f.name).toBe(true);
      if (f.sortBy) expect(listed.has(f.sortBy.key), f.name).toBe(true);
    }
  });

  it('gives each index key attribute to one field at most, and names only indexes of the table', () => {
    const names = new Set(indexList.map((index) => index.name));
    const partitions = storedFieldList.flatMap((f) => (f.equality ? [f.equality.index] : []));
    const ordered = storedFieldList.flatMap((f) => (f.ordered ? [f.ordered.index] : []));
    for (const index of [...partitions, ...ordered]) expect(names.has(index.name), index.name).toBe(true);
    const partitionKeys = partitions.map((index) => index.partitionKey.name);
    expect(new Set(partitionKeys).size).toBe(partitionKeys.length);
    const sortKeys = ordered.map((index) => index.sortKey.name);
    expect(new Set(sortKeys).size).toBe(sortKeys.length);
    // Ordered indexes hold every action: their partition is the shard of `attr.everything`.
    for (const index of ordered) expect(index.partitionKey.name).toBe(attr.everything);
  });
});
