import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/errors';
import { actionLimits } from '../../../lib/model/action';
import { validateBody } from '../../../lib/model/validate-body';
import { actionRequestedSchema, createActionSchema, patchActionSchema } from '../../../lib/model/validation';
import { canBeKey, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../../../lib/store/client';
import { counterCells } from '../../../lib/store/counters/counters';
import { indexList } from '../../../lib/store/indexes';
import { toItem } from '../../../lib/store/item';
import { foldForComparison } from '../../../lib/text';
import { anAction } from '../action-fixture';

/**
 * Issue 42 (Medium): keys built from text stay within DynamoDB's limits for any text the
 * validation accepts, measured in bytes after folding; text that would not fit is a 400 naming
 * the field, never a 500 from DynamoDB. 200 x U+FB2C (600 code points once NFC decomposes each)
 * and U+1D160 (three astral code points each) grow past the title key's 1,024 bytes.
 */

const body = {
  title: 'T',
  actionProducer: { name: 'p', reference: 'r' },
  dueAt: '2026-12-01T12:00:00Z',
  priority: 1,
  status: '2',
};

const titleProblem = (schema: Parameters<typeof validateBody>[0], title: string) => {
  try {
    validateBody(schema, { ...body, title });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors?.find((p) => p.field === 'title')?.message;
  }
};

/** Every key of the item (table and index keys) and of the counters it moves, with its limit. */
function keysOf(title: string): Array<{ name: string; bytes: number; limit: number }> {
  const action = anAction({ title });
  const item = toItem(action);
  const counters = counterCells(action).map(({ key }) => ({
    name: key.slice(0, 12),
    bytes: Buffer.byteLength(key),
    limit: MAX_PARTITION_KEY_BYTES,
  }));
  return indexList
    .flatMap((index) =>
      [
        { name: index.partitionKey.name, limit: MAX_PARTITION_KEY_BYTES },
        { name: index.sortKey.name, limit: MAX_SORT_KEY_BYTES },
      ].flatMap(({ name, limit }) =>
        typeof item[name] === 'string' ? [{ name, bytes: Buffer.byteLength(item[name] as string), limit }] : [],
      ),
    )
    .concat(counters);
}

describe('titles whose folded form outgrows a key', () => {
  it('200 x U+FB2C and 100 x U+1D160 (each 1,200 bytes folded) are a 400 naming title, on create, patch and ingest', () => {
    for (const title of ['\ufb2c'.repeat(200), '\u{1d160}'.repeat(100), `${'\ufb2c'.repeat(160)}abc`]) {
      expect(Buffer.byteLength(foldForComparison(title))).toBeGreaterThan(900);
      for (const schema of [createActionSchema, patchActionSchema, actionRequestedSchema]) {
        expect(titleProblem(schema, title)).toMatch(/at most 900 bytes/);
      }
    }
  });

  it('ordinary long titles still pass: 200 characters of CJK, of ASCII, of accented letters', () => {
    for (const title of ['漢'.repeat(200), 'x'.repeat(200), 'É'.repeat(200), 'ß'.repeat(200)]) {
      expect(titleProblem(createActionSchema, title)).toBeUndefined();
    }
  });

  it('any title the validation accepts makes keys within DynamoDB limits', () => {
    // Characters that grow under NFC or case folding, mixed with ordinary ones.
    const growing = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('\ufb2c', '\ufb2d', '\u{1d160}', '\u{1d164}') },
      { weight: 1, arbitrary: fc.constantFrom('ß', 'ﬃ', '\u0390', 'İ', 'a', ' ') },
    );
    fc.assert(
      fc.property(fc.array(growing, { minLength: 150, maxLength: actionLimits.title }), (parts) => {
        const title = parts.join('').slice(0, actionLimits.title);
        fc.pre(!/[\ud800-\udbff]$/.test(title));
        if (titleProblem(createActionSchema, title) !== undefined) return;
        for (const key of keysOf(title)) expect(key.bytes, key.name).toBeLessThanOrEqual(key.limit);
      }),
      { numRuns: 300 },
    );
  });

  it('a title stored before the folded-bytes rule (at most 6 bytes a UTF-16 unit folded) still has a title counter DynamoDB accepts', () => {
    // U+FB2C and U+0958 grow the most of any code point: 6 bytes of folded UTF-8 a UTF-16 unit.
    for (const title of ['\ufb2c'.repeat(200), '\u0958'.repeat(200), '\u{1d160}'.repeat(100)]) {
      expect(Buffer.byteLength(foldForComparison(title))).toBe(1_200);
      const cell = counterCells(anAction({ title })).find((c) => c.key.startsWith('n#title#'));
      expect(cell?.key).toBe(`n#title#${foldForComparison(title)}`);
      expect(canBeKey(cell?.key as string)).toBe(true);
    }
  });
});
