import { type ActionView, locationFields } from '../model/action';

/**
 * The export's columns (contract section 18), once, in their order: each a header and the cell
 * an action gives it. Both formats write exactly these; a cell is text, a number, a date or a
 * truth value, and each format writes its kind (CSV as text, XLSX as a typed cell). Pure.
 */

export type Cell = string | number | boolean | Date | undefined;

/** `closedAt` is added to actions beside this work; an action without one writes an empty cell. */
type Exported = ActionView & { closedAt?: string | null };

const date = (iso: string | null | undefined): Date | undefined => (iso ? new Date(iso) : undefined);

const columns: ReadonlyArray<readonly [string, (a: Exported, link: (id: string) => string) => Cell]> = [
  ['id', (a) => a.id],
  ['title', (a) => a.title],
  ['description', (a) => a.description],
  ['status', (a) => Number(a.status)],
  ['priority', (a) => Number(a.priority)],
  ['dueAt', (a) => date(a.dueAt)],
  ['overdue', (a) => a.overdue],
  ['closedAt', (a) => date(a.closedAt)],
  ['assignee.id', (a) => a.assignee.id],
  ['assignee.name', (a) => a.assignee.name],
  ['assignee.email', (a) => a.assignee.email ?? ''],
  ['owner.id', (a) => a.owner.id],
  ['owner.name', (a) => a.owner.name],
  ['owner.email', (a) => a.owner.email ?? ''],
  ['initiator.id', (a) => a.initiator.id],
  ['initiator.name', (a) => a.initiator.name],
  ['actionProducer.name', (a) => a.actionProducer.name],
  ['actionProducer.url', (a) => a.actionProducer.url ?? ''],
  ['actionProducer.reference', (a) => a.actionProducer.reference ?? ''],
  ...locationFields.map((field) => [`location.${field}`, (a: Exported) => a.location[field]] as const),
  ['tags', (a) => a.tags.join('; ')],
  ['attachments', (a) => a.attachments.length],
  ['comments', (a) => a.commentCount],
  ['endorsements', (a) => a.endorsedBy.length],
  ['createdAt', (a) => date(a.createdAt)],
  ['updatedAt', (a) => date(a.updatedAt)],
  ['url', (a, link) => link(a.id)],
];

/** The header row. */
export const exportHeaders: readonly string[] = columns.map(([header]) => header);

/** The columns holding dates (XLSX gives them a date format). */
export const dateColumns: readonly number[] = columns.flatMap(([header], i) =>
  ['dueAt', 'closedAt', 'createdAt', 'updatedAt'].includes(header) ? [i] : [],
);

/**
 * OWASP's CSV injection rule: text a spreadsheet could take for a formula (beginning with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, in both formats.
 */
export const defused = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** An action's row: its cells in the columns' order, text defused. */
export function exportRow(action: ActionView, link: (id: string) => string): Cell[] {
  return columns.map(([, cell]) => {
    const value = cell(action, link);
    return typeof value === 'string' ? defused(value) : value;
  });
}
