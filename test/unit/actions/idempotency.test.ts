import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyFrom } from '../../../lib/actions/idempotency';
import { ValidationError } from '../../../lib/errors';

/** The `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header-07): a key, or a 400 naming the header. */

function refused(header: string) {
  try {
    idempotencyKeyFrom(header);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      { parameter: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
    return true;
  }
  return false;
}

describe('idempotencyKeyFrom', () => {
  it('is no key when no header was sent', () => {
    expect(idempotencyKeyFrom(undefined)).toBeUndefined();
  });

  it('takes a bare key as sent, spaces and quotes inside included', () => {
    expect(idempotencyKeyFrom('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(idempotencyKeyFrom('a b')).toBe('a b');
    expect(idempotencyKeyFrom('"abc')).toBe('"abc');
    expect(idempotencyKeyFrom('~')).toBe('~');
  });

  it('takes a structured-field string as the text between its quotes, unescaped', () => {
    expect(idempotencyKeyFrom('"abc"')).toBe('abc');
    expect(idempotencyKeyFrom('"a\\"b"')).toBe('a"b');
    expect(idempotencyKeyFrom('"a\\\\b"')).toBe('a\\b');
    // `"a"b"` is not a structured string (a bare quote inside): the whole header is the key.
    expect(idempotencyKeyFrom('"a"b"')).toBe('"a"b"');
  });

  it('refuses the empty, the over-long, and anything but printable ASCII', () => {
    for (const header of [
      '',
      '""',
      'x'.repeat(256),
      `"${'x'.repeat(256)}"`,
      'tab\there',
      'é',
      'a\u0000',
      'a\u007f',
      '😀',
    ]) {
      expect(refused(header), JSON.stringify(header)).toBe(true);
    }
    expect(idempotencyKeyFrom('x'.repeat(255))).toHaveLength(255);
  });

  it('gives back any printable ASCII key, bare or quoted as a structured string', () => {
    const key = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 255,
    });
    fc.assert(
      fc.property(key, (k) => {
        expect(idempotencyKeyFrom(`"${k.replace(/["\\]/g, '\\$&')}"`)).toBe(k);
        // A bare key that happens to look like a structured string is read as one.
        if (!/^".*"$/.test(k)) expect(idempotencyKeyFrom(k)).toBe(k);
      }),
    );
  });
});
