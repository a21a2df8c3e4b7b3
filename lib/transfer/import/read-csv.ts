import { parse } from 'csv-parse';
import { UnreadableFile } from './columns';

/**
 * Reads a CSV file as it streams in (contract section 18), with csv-parse: RFC 4180 records,
 * UTF-8 with or without a byte-order mark, comma-separated, or semicolon-separated when the
 * header row has semicolons and no commas (what Excel writes where the comma is the decimal
 * mark). Text that is not UTF-8 fails the whole file, naming the encoding it looks like; nothing
 * is ever guessed into U+FFFD.
 */

/** What a file that is not UTF-8 most likely is, by its first bytes and the bytes that broke it. */
function encodingOf(first: Uint8Array): string {
  if (first[0] === 0xff && first[1] === 0xfe) return 'UTF-16 (little-endian)';
  if (first[0] === 0xfe && first[1] === 0xff) return 'UTF-16 (big-endian)';
  return 'ISO-8859-1 (Latin-1) or Windows-1252';
}

const notUtf8 = (encoding: string) =>
  new UnreadableFile(
    `The file is not UTF-8: it looks like ${encoding}. Save it as "CSV UTF-8" (in Excel: Save As, CSV UTF-8) and import it again.`,
  );

/** Decodes UTF-8 strictly, chunk by chunk (a character may straddle two chunks); a leading BOM is dropped. */
async function* utf8Text(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first: Uint8Array | undefined;
  for await (const chunk of bytes) {
    first ??= chunk;
    try {
      yield decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8(encodingOf(first));
    }
  }
  try {
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } catch {
    throw notUtf8(encodingOf(first ?? new Uint8Array()));
  }
}

/** The header row's delimiter: `;` when its first line has semicolons and no commas, else `,`. */
const delimiterOf = (firstLine: string) => (firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',');

/** The records of a CSV file, each an array of its cells' text, header first. */
export async function* readCsv(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const text = utf8Text(bytes);
  // The delimiter is decided on the header's line, so text is held only until its first line break.
  let head = '';
  let next = await text.next();
  while (!next.done && !/[\r\n]/.test(head)) {
    head += next.value;
    if (!/[\r\n]/.test(head)) next = await text.next();
  }
  const delimiter = delimiterOf(head.split(/\r\n|\r|\n/)[0] ?? '');
  async function* all() {
    if (head !== '') yield head;
    if (next.done) return;
    for await (const chunk of text) yield chunk;
  }
  const parser = parse({
    delimiter,
    // Rows may have fewer or more cells than the header; what a row lacks is empty.
    relax_column_count: true,
    // A blank line is a record of one empty cell, kept so that rows keep their numbers.
    skip_empty_lines: false,
    bom: true,
  });
  // Fed by hand rather than piped: a pipe would not pass the decoder's error on to the parser.
  const feeding = (async () => {
    for await (const chunk of all()) {
      if (!parser.write(chunk)) await new Promise((resumed) => parser.once('drain', resumed).once('close', resumed));
      // The reader stopped early (a file past the row limit): the rest of the file is not read.
      if (parser.destroyed) return;
    }
    parser.end();
  })().catch((error: unknown) => parser.destroy(error as Error));
  try {
    for await (const record of parser) yield record as string[];
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    const cause = error as { code?: string; message?: string; lines?: number };
    if (cause.code?.startsWith('CSV_'))
      throw new UnreadableFile(`The file is not valid CSV (RFC 4180): ${cause.message ?? cause.code}`);
    throw error;
  } finally {
    parser.destroy();
    await feeding;
  }
}
