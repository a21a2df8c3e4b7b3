import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../../lib/store/item';
import { compareValues } from '../../../../lib/store/list/plan/positions';
import { behind, cutShort, firstHead } from '../../../../lib/store/list/run/merge';

/**
 * The pure parts of the partition merge: the order it merges in (DynamoDB's: numbers by value,
 * strings by UTF-8 bytes), which partition gives the next item, and what a merge the read budget
 * stopped may still answer, and up to where.
 */

const sign = (n: number) => Math.sign(n);
/** Strings of characters from each UTF-8 width, and the two sides of U+FFFF, where the orders part. */
const text = fc.string({ unit: fc.constantFrom('a', 'B', 'é', '\u0800', '\ufb00', '\uffff', '😀', '𐀀'), maxLength: 6 });

describe('compareValues', () => {
  it('orders numbers by value, not as text', () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues(-1, -0.5)).toBeLessThan(0);
    expect(compareValues(7, 7)).toBe(0);
  });

  it('orders strings by code point: upper case before lower, no locale', () => {
    expect(compareValues('B', 'a')).toBeLessThan(0);
    expect(compareValues('Z', 'a')).toBeLessThan(0);
    expect(compareValues('é', 'z')).toBeGreaterThan(0);
    expect(compareValues('a', 'a')).toBe(0);
  });

  it('puts a character past U+FFFF after every one below it, as UTF-8 does (JavaScript’s < does not)', () => {
    expect('😀' < '\uffff').toBe(true);
    expect(compareValues('\uffff', '😀')).toBeLessThan(0);
    expect(compareValues('😀', '\ufb00')).toBeGreaterThan(0);
    expect(compareValues('a😀', 'a\uffff')).toBeGreaterThan(0);
  });

  it('reads an absent value as the empty string', () => {
    expect(compareValues(undefined, '')).toBe(0);
    expect(compareValues(null, 'a')).toBeLessThan(0);
    expect(compareValues('a', undefined)).toBeGreaterThan(0);
  });

  it('agrees with the UTF-8 byte order on any two strings', () => {
    fc.assert(
      fc.property(
        text,
        text,
        (a, b) => sign(compareValues(a, b)) === sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
      ),
    );
  });
});

/** A partition as the merge holds it: what it buffered and how far it was read. */
const partition = (name: string, buffer: string[], state: { startKey?: string; done?: boolean; read?: boolean }) => ({
  partition: name,
  buffer: buffer.map((k) => ({ k, from: name })) as Item[],
  ...(state.startKey !== undefined ? { startKey: { k: state.startKey } } : {}),
  done: state.done ?? false,
  read: state.read ?? true,
});
const keys = (items: Item[]) => items.map((i) => `${i.from}:${i.k}`);

describe('firstHead', () => {
  const cursors = [partition('p', ['c', 'x'], {}), partition('q', [], {}), partition('r', ['b', 'z'], {})];

  it('picks the partition whose head comes first in the direction of the merge', () => {
    expect(firstHead(cursors, 'k', 1)?.partition).toBe('r');
    expect(firstHead(cursors, 'k', -1)?.partition).toBe('p');
  });

  it('picks the earliest listed on a tie, so equal keys keep the partitions’ order', () => {
    const tied = [partition('p', ['b'], {}), partition('r', ['b'], {})];
    expect(firstHead(tied, 'k', 1)?.partition).toBe('p');
    expect(firstHead(tied, 'k', -1)?.partition).toBe('p');
  });

  it('has nothing to pick when every buffer is empty', () => {
    expect(firstHead([partition('p', [], {}), partition('q', [], { done: true })], 'k', 1)).toBeUndefined();
    expect(firstHead([], 'k', 1)).toBeUndefined();
  });
});

describe('behind', () => {
  const names = (cursors: ReturnType<typeof behind>) => cursors.map((c) => c.partition);

  it('reads every open partition with nothing buffered when no head is there to pick', () => {
    const cursors = [
      partition('p', [], { read: false }),
      partition('q', [], { startKey: 'c' }),
      partition('r', [], { done: true }),
    ];
    expect(names(behind(cursors, 'k', 1))).toEqual(['p', 'q']);
  });

  it('lets a partition whose filter emptied its page wait while it was read past the head', () => {
    // q read to 'f' and kept nothing: no match of it comes before 'f', so 'c' is sure.
    const cursors = [partition('p', ['c'], { startKey: 'c' }), partition('q', [], { startKey: 'f' })];
    expect(names(behind(cursors, 'k', 1))).toEqual([]);
    // ...but not once the head lies past where it stopped, nor on the very key (ties read on).
    expect(names(behind([partition('p', ['g'], { startKey: 'g' }), cursors[1] as never], 'k', 1))).toEqual(['q']);
    expect(names(behind([partition('p', ['f'], { startKey: 'f' }), cursors[1] as never], 'k', 1))).toEqual(['q']);
  });

  it('judges a page by a key its LastEvaluatedKey tells, when the merge orders by a function of it', () => {
    // Entries ordered by what follows a prefix, as a title range's entries are by their created
    // key: a startKey that held no such attribute once read as '' and never waited.
    const suffix = (item: Item) => String(item.k).slice(2);
    const cursors = [partition('p', ['a:c'], { startKey: 'a:c' }), partition('q', [], { startKey: 'b:f' })];
    expect(names(behind(cursors, suffix, 1))).toEqual([]);
    expect(names(behind([partition('p', ['a:g'], { startKey: 'a:g' }), cursors[1] as never], suffix, 1))).toEqual([
      'q',
    ]);
    // By the attribute itself, 'b:f' sorts after 'a:g': q would wait, wrongly for this order.
    expect(names(behind([partition('p', ['a:g'], { startKey: 'a:g' }), cursors[1] as never], 'k', 1))).toEqual([]);
  });

  it('judges "past" in the direction of the merge', () => {
    const cursors = [partition('p', ['c'], { startKey: 'c' }), partition('q', [], { startKey: 'f' })];
    expect(names(behind(cursors, 'k', -1))).toEqual(['q']);
    expect(names(behind([partition('p', ['x'], { startKey: 'x' }), cursors[1] as never], 'k', -1))).toEqual([]);
  });

  it('never waits on a partition never read, whose start is unknown', () => {
    const cursors = [partition('p', ['c'], { startKey: 'c' }), partition('q', [], { read: false })];
    expect(names(behind(cursors, 'k', 1))).toEqual(['q']);
  });
});

describe('cutShort', () => {
  const merged = () => [{ k: 'a', from: 'm' }] as Item[];

  it('answers only what was merged, with no place to continue, when an open partition was never read', () => {
    const cursors = [partition('p', ['c'], { startKey: 'c' }), partition('q', [], { read: false })];
    expect(cutShort(merged(), cursors, 'k', 1, 10)).toEqual({ items: merged(), cut: true });
  });

  it('adds the buffered items up to the nearest place every open partition was read to, in order', () => {
    const cursors = [
      partition('p', ['b', 'd'], { startKey: 'd' }),
      partition('q', ['c', 'c', 'f'], { startKey: 'f' }),
      // Read to its end: it bounds nothing, and its items past the place wait for the next read.
      partition('r', ['b', 'e'], { done: true }),
    ];
    const result = cutShort(merged(), cursors, 'k', 1, 10);
    expect(keys(result.items)).toEqual(['m:a', 'p:b', 'r:b', 'q:c', 'q:c', 'p:d']);
    expect(result).toMatchObject({ cut: true, reached: 'd' });
  });

  it('does the same the other way round in a descending merge', () => {
    const cursors = [partition('p', ['y', 'w'], { startKey: 'w' }), partition('q', ['x', 'v'], { startKey: 'v' })];
    const result = cutShort([], cursors, 'k', -1, 10);
    expect(keys(result.items)).toEqual(['p:y', 'q:x', 'p:w']);
    expect(result).toMatchObject({ cut: true, reached: 'w' });
  });

  it('answers a full window as a page like any other: not cut, ending at its own last item', () => {
    const cursors = [partition('p', ['b', 'd'], { startKey: 'd' }), partition('q', ['c', 'e'], { startKey: 'e' })];
    const result = cutShort(merged(), cursors, 'k', 1, 3);
    expect(keys(result.items)).toEqual(['m:a', 'p:b', 'q:c']);
    expect(result).toEqual({ items: result.items, cut: false });
  });
});
