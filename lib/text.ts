import { caseFold } from 'unicode-case-folding';

/**
 * How the service compares text case-insensitively, the one function every side uses (the
 * filter values, the stored folded copies and the title sort key in `lib/store/item.ts`, the
 * search grams): Unicode canonical caseless matching (The Unicode Standard, D145), `NFD`, then
 * full case folding (CaseFolding.txt, statuses C and F), then NFC to store it compactly. Not
 * `toLowerCase`: lower-casing keeps the final sigma apart (`ΠΡΟΣ` -> `προς` never meets
 * `ΠΡΟΣΟΧΗ` -> `προσοχη`), leaves `ß` and `ẞ` apart from `ss`, and Cherokee apart from its
 * capitals. Folding can make a text longer (`ß` -> `ss`, U+FB2C -> three code points), which
 * is why limits on keys built from it count the folded bytes (`FOLDED_TITLE_BYTES`).
 */
export const foldForComparison = (text: string): string => caseFold(text.normalize('NFD')).normalize('NFC');

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
