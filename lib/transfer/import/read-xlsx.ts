import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type Cell, UnreadableFile } from './columns';

/**
 * Reads an XLSX file as it streams in (contract section 18), with exceljs' streaming reader: the
 * first sheet only, cell values only. A formula cell gives the result Excel saved with it, and is
 * never evaluated; a date cell gives a `Date` (UTC); rich text gives its text; a hyperlink its text.
 */

/** One cell's value as the import reads it. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  const object = value as {
    result?: unknown;
    formula?: unknown;
    sharedFormula?: unknown;
    richText?: Array<{ text?: string }>;
    text?: unknown;
    error?: unknown;
  };
  // A formula: its cached result (a formula saved without one, by a tool that does not compute, is empty).
  if ('formula' in object || 'sharedFormula' in object) return cellOf(object.result);
  if (Array.isArray(object.richText)) return object.richText.map((part) => part.text ?? '').join('');
  if ('text' in object) return cellOf(object.text);
  if (typeof object.error === 'string') return object.error;
  return undefined;
}

/** The rows of the first sheet, header first; a missing row (nothing in it) comes as an empty row, so rows keep their numbers. */
export async function* readXlsx(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Cell[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(bytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell a date cell from a number (its number format).
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      let expected = 1;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        for (; expected < row.number; expected++) yield [];
        expected = row.number + 1;
        // `values` is 1-based: its index 0 is always empty.
        const values = row.values as unknown[];
        yield Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => cellOf(values[i + 1]));
      }
      return;
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile(
      `The file is not a readable XLSX workbook (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  throw new UnreadableFile('The workbook has no sheet.');
}
