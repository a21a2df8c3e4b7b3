import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { type Cell, dateColumns, exportHeaders } from './columns';

/**
 * The two file formats of an export, each a well-kept library streaming rows into bytes that the
 * run takes away part by part (`take`), so no file is ever held whole.
 */
export interface RowEncoder {
  /** Adds rows (cells in the columns' order). */
  write(rows: readonly Cell[][]): Promise<void>;
  /** Bytes encoded so far and not yet taken. */
  readonly buffered: number;
  /** Takes the bytes encoded so far. */
  take(): Buffer;
  /** Ends the file; `take` then holds the rest of it. */
  end(): Promise<void>;
}

const BOM = '\uFEFF';

const csvText = (cell: Cell): string => {
  if (cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell);
};

/**
 * CSV by `csv-stringify`: RFC 4180 (quoted where a field holds a comma, a quote or a line break),
 * UTF-8 with a byte-order mark, CRLF. `fresh`: the file starts here (the mark and the header);
 * a resumed run continues a file whose start is stored already.
 */
export function csvEncoder(fresh: boolean): RowEncoder {
  const chunks: Buffer[] = [];
  let buffered = 0;
  const push = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    chunks.push(bytes);
    buffered += bytes.length;
  };
  const encode = (rows: readonly (readonly string[])[]) =>
    stringify(rows as string[][], { record_delimiter: 'windows' });
  if (fresh) push(BOM + encode([exportHeaders as string[]]));
  return {
    write: async (rows) => {
      if (rows.length > 0) push(encode(rows.map((row) => row.map(csvText))));
    },
    get buffered() {
      return buffered;
    },
    take: () => {
      const bytes = Buffer.concat(chunks);
      chunks.length = 0;
      buffered = 0;
      return bytes;
    },
    end: async () => {},
  };
}

/** The most rows an XLSX sheet holds, the header included. */
export const XLSX_MAX_ROWS = 1_048_576;

/**
 * XLSX by `exceljs`' streaming `WorkbookWriter`: one sheet "Actions", the header, then a row an
 * action committed as it is written; dates as date cells (UTC, exceljs' serial numbers are
 * UTC), numbers as numbers, no shared strings (they would be held until the end).
 */
export function xlsxEncoder(): RowEncoder {
  const chunks: Buffer[] = [];
  let buffered = 0;
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Actions');
  sheet.columns = exportHeaders.map((header, i) => ({
    header,
    key: header,
    ...(dateColumns.includes(i) ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  // Lets the zip stream hand over what it compressed, so `buffered` grows as rows are written.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    write: async (rows) => {
      for (const row of rows) sheet.addRow(row.map((cell) => (cell === undefined ? null : cell))).commit();
      await settle();
    },
    get buffered() {
      return buffered;
    },
    take: () => {
      const bytes = Buffer.concat(chunks);
      chunks.length = 0;
      buffered = 0;
      return bytes;
    },
    end: async () => {
      sheet.commit();
      await workbook.commit();
      await settle();
    },
  };
}
