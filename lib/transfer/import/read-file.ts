import { type Cell, UnreadableFile } from './columns';
import { readCsv } from './read-csv';
import { readXlsx } from './read-xlsx';

/**
 * The rows of an uploaded file, header first, whichever kind it is. The kind is read from the
 * file's first bytes, not from the type its uploader declared (browsers call a CSV
 * `application/vnd.ms-excel`): a ZIP is an XLSX workbook, an OLE compound file is the old binary
 * `.xls` (refused, naming it), anything else is CSV.
 */
export async function* readRows(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Cell[]> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? new Uint8Array() : first.value;
  async function* whole(): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    if (first.done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const starts = (...signature: number[]) => signature.every((byte, i) => head[i] === byte);
  if (starts(0xd0, 0xcf, 0x11, 0xe0))
    throw new UnreadableFile(
      'The file is an old binary Excel workbook (.xls), which is not read; save it as .xlsx or CSV UTF-8 and import it again.',
    );
  yield* starts(0x50, 0x4b, 0x03, 0x04) ? readXlsx(whole()) : readCsv(whole());
}
