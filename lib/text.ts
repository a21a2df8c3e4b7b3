/**
 * How the service compares text case-insensitively: canonically equivalent texts alike (NFC, so
 * `Cafe\u0301` and `Café` are one text), then lower case. Stored values keep what was sent; the
 * store keeps this copy beside them (`lib/store/item.ts`), and the query language folds its
 * values the same way (`lib/filter/query.ts`), so both sides of every such comparison agree.
 * (Lower-casing can leave a text outside NFC, hence the second normalization.)
 */
export const foldForComparison = (text: string): string => text.normalize('NFC').toLowerCase().normalize('NFC');

/** UTF-8 bytes of a text. */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The longest start of `text` that is at most `maxBytes` bytes of UTF-8, cut between code points. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let cut = '';
  let bytes = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > maxBytes) break;
    cut += character;
  }
  return cut;
}

/**
 * What a one-line text (a title, a name, a reference, a location, a tag) may not hold: C0 and C1
 * control characters (DEL too) and the bidirectional formatting characters, which make text
 * display as something else than it is (`\u202eexe.txt` shows as `txt.exe`).
 */
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * A one-line text from somewhere that cannot be refused (a token's name claim): what a body
 * would be refused for becomes U+FFFD, the replacement character, so it still shows where it was.
 */
export const toOneLine = (text: string): string => text.replace(new RegExp(NOT_ONE_LINE, 'g'), '\ufffd');

/**
 * Code points that show nothing: white space, format characters (U+200B zero width space) and
 * the other default-ignorable ones (U+3164 Hangul filler). A text made only of these is blank.
 */
const INVISIBLE = /[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** Whether `text` shows nothing at all: empty, or only white space and invisible code points. */
export const isBlank = (text: string): boolean => text.replace(INVISIBLE, '') === '';
