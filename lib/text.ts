/**
 * How the service compares text case-insensitively: canonically equivalent texts alike (NFC, so
 * `Cafe\u0301` and `Café` are one text), then lower case. Stored values keep what was sent; the
 * store keeps this copy beside them (`lib/store/item.ts`), and the query language folds its
 * values the same way (`lib/filter/query.ts`), so both sides of every such comparison agree.
 * (Lower-casing can leave a text outside NFC, hence the second normalization.)
 */
export const foldForComparison = (text: string): string => text.normalize('NFC').toLowerCase().normalize('NFC');

/** The longest start of `text` that is at most `maxBytes` bytes of UTF-8, cut between code points. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let cut = '';
  let bytes = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > maxBytes) break;
    cut += character;
  }
  return cut;
}
