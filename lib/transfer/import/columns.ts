import { locationFields } from '../../model/action';
import { exportHeaders } from '../columns';

/**
 * The columns of an import (contract section 18): the export's, matched by name
 * case-insensitively and in any order. Pure: which columns a file has, which it lacks, which are
 * ignored, and how one row's cells become the body `POST /api/actions` would take. The export's
 * columns are declared once, in `../columns.ts`.
 */

/** The columns a file must have: a file without one fails whole, naming it. */
export const REQUIRED_COLUMNS = ['title', 'actionProducer.name', 'dueAt', 'priority', 'status'] as const;

/** The columns a create takes; every other export column is set by the service and ignored. */
export const IMPORTED_COLUMNS = [
  'title',
  'description',
  'status',
  'priority',
  'dueAt',
  'assignee.id',
  'assignee.name',
  'assignee.email',
  'actionProducer.name',
  'actionProducer.url',
  'actionProducer.reference',
  ...locationFields.map((f) => `location.${f}`),
  'tags',
] as const;
export type ImportedColumn = (typeof IMPORTED_COLUMNS)[number];

/** A cell as a reader gives it: text (CSV, or an XLSX text cell), a number, a date cell, a boolean, or nothing. */
export type Cell = string | number | boolean | Date | null | undefined;

/** How a file's header maps onto the columns: each imported column's position, and what is ignored. */
export interface Header {
  positions: Partial<Record<ImportedColumn, number>>;
  /** Columns the service sets and columns it does not know, as the file names them, once each. */
  ignored: string[];
}

/** A file the service cannot read at all: it fails whole, nothing is created, with this reason. */
export class UnreadableFile extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFile';
  }
}

const byLowerName = new Map<string, string>(exportHeaders.map((c) => [c.toLowerCase(), c]));

/**
 * Reads the header row. A required column missing is an `UnreadableFile` naming it (every one
 * missing); a column named twice is one too, since which cell counts would be a guess.
 */
export function readHeader(cells: readonly Cell[]): Header {
  const positions: Header['positions'] = {};
  const ignored: string[] = [];
  const seen = new Set<string>();
  cells.forEach((cell, index) => {
    const name = textOf(cell).trim();
    if (name === '') return;
    const column = byLowerName.get(name.toLowerCase());
    if (column !== undefined && seen.has(column))
      throw new UnreadableFile(`The column '${column}' appears twice in the header row; keep one.`);
    if (column !== undefined) seen.add(column);
    if (column !== undefined && (IMPORTED_COLUMNS as readonly string[]).includes(column))
      positions[column as ImportedColumn] = index;
    else if (!ignored.includes(name)) ignored.push(name);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => positions[c] === undefined);
  if (missing.length > 0)
    throw new UnreadableFile(
      `The header row has no ${missing.map((c) => `'${c}'`).join(', ')} column${missing.length > 1 ? 's' : ''}; the required columns are ${REQUIRED_COLUMNS.join(', ')}.`,
    );
  return { positions, ignored };
}

/** A cell as text: a date cell as its ISO instant (UTC), a number as written, nothing as ''. */
export function textOf(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString();
  return String(cell);
}

/** Whether a row holds nothing at all (a blank line, an empty spreadsheet row): skipped, though it keeps its number. */
export const isBlankRow = (cells: readonly Cell[]) => cells.every((c) => textOf(c).trim() === '');

/** The export's stand-in for nobody assigned (section 3's `{"id": "undefined", ...}`). */
const UNASSIGNED_ID = 'undefined';

/**
 * The create body one row stands for, as a client would send it to `POST /api/actions`: an
 * empty optional cell is left out (its default applies); a required one is sent empty, so the
 * API's own check names it. Numbers stay numbers (`priority` takes `2` or `"2"`), date cells
 * become ISO instants, `tags` are split at `;` and trimmed, and the export's unassigned
 * placeholder (`assignee.id` `undefined`) means nobody.
 */
export function bodyOf(header: Header, cells: readonly Cell[]): Record<string, unknown> {
  const at = (column: ImportedColumn): Cell => {
    const index = header.positions[column];
    return index === undefined ? undefined : cells[index];
  };
  const text = (column: ImportedColumn) => textOf(at(column));
  const given = (column: ImportedColumn) => header.positions[column] !== undefined && text(column) !== '';
  const body: Record<string, unknown> = {};
  for (const column of ['title', 'dueAt'] as const) body[column] = text(column);
  for (const column of ['priority', 'status'] as const) {
    const cell = at(column);
    body[column] = typeof cell === 'number' ? cell : text(column);
  }
  if (given('description')) body.description = text('description');
  const producer: Record<string, string> = { name: text('actionProducer.name') };
  if (given('actionProducer.url')) producer.url = text('actionProducer.url');
  if (given('actionProducer.reference')) producer.reference = text('actionProducer.reference');
  body.actionProducer = producer;
  const location: Record<string, string> = {};
  for (const field of locationFields) {
    const column = `location.${field}` as ImportedColumn;
    if (given(column)) location[field] = text(column);
  }
  if (Object.keys(location).length > 0) body.location = location;
  if (given('tags'))
    body.tags = text('tags')
      .split(';')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  const assigneeId = text('assignee.id');
  if (assigneeId !== UNASSIGNED_ID && (given('assignee.id') || given('assignee.name') || given('assignee.email'))) {
    const assignee: Record<string, string> = {};
    if (given('assignee.id')) assignee.id = assigneeId;
    if (given('assignee.name')) assignee.name = text('assignee.name');
    if (given('assignee.email')) assignee.email = text('assignee.email');
    body.assignee = assignee;
  }
  return body;
}

/**
 * The column a problem of the API names: its field when that is a column (`location.site`), the
 * column an item of it came from (`tags.3` is `tags`), or the first column of the object a
 * whole-object problem names (`assignee` is `assignee.id`).
 */
export function columnOf(field: string | undefined): string {
  if (field === undefined || field === '' || field === 'body') return '';
  if ((IMPORTED_COLUMNS as readonly string[]).includes(field)) return field;
  const parent = IMPORTED_COLUMNS.find((c) => field.startsWith(`${c}.`));
  if (parent) return parent;
  return IMPORTED_COLUMNS.find((c) => c.startsWith(`${field}.`)) ?? field;
}
