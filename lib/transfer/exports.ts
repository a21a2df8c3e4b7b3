import { v7 as uuidv7 } from 'uuid';
import { DAY_MS, dayOf } from '../dates';
import { NotFoundError, type Problem, ValidationError } from '../errors';
import { parseListQuery, splitQueryString } from '../filter/query';
import type { Person } from '../model/action';
import { type ExportFormat, type ExportRecord, getExport, listExports, putExport } from '../store/exports';
import { enqueueExport } from './export-queue';
import { EXPORT_TYPES, exportKey, fileUrl } from './export-storage';

/**
 * Exports as the API offers them (contract section 18): asking for one, reading one's state and
 * its file's link, and listing one's own. The file itself is written by the worker
 * (`export-run.ts`).
 */

/** Records and files are deleted after this long. */
const KEEP_MS = 7 * DAY_MS;
/** `GET /api/exports` lists at most this many, newest first. */
export const LISTED_EXPORTS = 100;
/** The longest `query` taken (a list query string a browser could send). */
const MAX_QUERY_CHARS = 8_000;
const FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];
/** `skip`, `limit` and `cursor` page one list; an export walks it whole. */
const PAGING = new Set(['skip', 'limit', 'cursor']);

export interface ExportView {
  id: string;
  format: ExportFormat;
  query: string;
  status: ExportRecord['status'];
  rows: number;
  createdAt: string;
  finishedAt?: string;
  url?: string;
  expiresAt?: string;
  error?: string;
}

/** The body of `POST /api/exports`, checked: every problem named by its field. */
function checkBody(body: unknown, callerId: string): { format: ExportFormat; query: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError([{ field: 'body', message: 'must be a JSON object' }]);
  const problems: Problem[] = [];
  const { format, query, ...rest } = body as Record<string, unknown>;
  for (const field of Object.keys(rest)) problems.push({ field, message: 'is not a field of an export request' });
  if (!FORMATS.includes(format as ExportFormat)) problems.push({ field: 'format', message: 'must be "csv" or "xlsx"' });
  if (typeof query !== 'string')
    problems.push({
      field: 'query',
      message: 'must be a list query string, e.g. "status=1&sort=dueAt" ("" for every action)',
    });
  else if (query.length > MAX_QUERY_CHARS)
    problems.push({ field: 'query', message: `must be at most ${MAX_QUERY_CHARS} characters` });
  else problems.push(...queryProblems(query.replace(/^\?/, ''), callerId));
  if (problems.length > 0) throw new ValidationError(problems);
  return { format: format as ExportFormat, query: (query as string).replace(/^\?/, '') };
}

/** What `GET /api/actions` would refuse in `query`, and paging, each named under `query`. */
function queryProblems(query: string, callerId: string): Problem[] {
  try {
    const paging = splitQueryString(query).filter(([name]) => PAGING.has(name));
    if (paging.length > 0)
      return paging.map(([name]) => ({
        field: 'query',
        message: `${name}: an export holds the whole list; leave out skip, limit and cursor`,
      }));
    parseListQuery(query, callerId);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return (error.errors ?? []).map((e) => ({
      field: 'query',
      message: `${e.parameter ?? e.field ?? 'query'}: ${e.message}`,
    }));
  }
}

/** Asks for an export of the caller's list: stored `queued`, then put on the queue. */
export async function requestExport(caller: Person, groups: readonly string[], body: unknown): Promise<ExportView> {
  const { format, query } = checkBody(body, caller.id);
  const id = uuidv7();
  const createdAt = new Date();
  const record: ExportRecord = {
    id,
    owner: caller,
    groups: [...groups],
    format,
    query,
    status: 'queued',
    rows: 0,
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + KEEP_MS).toISOString(),
    key: exportKey(caller.id, id, format),
    failures: 0,
  };
  await putExport(record);
  await enqueueExport({ ownerId: caller.id, id });
  return viewOf(record);
}

const filename = (record: ExportRecord) => `actions-${dayOf(record.createdAt)}.${record.format}`;

/**
 * What a client sees of an export; `url` is the link to a done export's file. Only reading one
 * (or the list) presigns that link: a request answers a queued export, which has none, so
 * `POST /api/exports` never reaches the storage client (about 100 KB of its bundle).
 */
function viewOf(record: ExportRecord, url?: string): ExportView {
  const done = record.status === 'done';
  return {
    id: record.id,
    format: record.format,
    query: record.query,
    status: record.status,
    rows: record.rows,
    createdAt: record.createdAt,
    ...(record.finishedAt ? { finishedAt: record.finishedAt } : {}),
    ...(done && url !== undefined ? { url } : {}),
    ...(done ? { expiresAt: record.expiresAt } : {}),
    ...(record.status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

/** The view with a fresh link to the file when the export is done. */
const viewWithLink = async (record: ExportRecord): Promise<ExportView> =>
  viewOf(
    record,
    record.status === 'done' ? await fileUrl(record.key, EXPORT_TYPES[record.format], filename(record)) : undefined,
  );

/** One of the caller's exports, with a fresh link to its file when done; anyone else's is a 404. */
export async function exportOf(caller: Pick<Person, 'id'>, id: string): Promise<ExportView> {
  const record = await getExport(caller.id, id);
  if (!record) throw new NotFoundError(`No export of yours has the id '${id.slice(0, 100)}'.`);
  return viewWithLink(record);
}

/** The caller's exports, newest first, each with a fresh link when done. */
export async function exportsOf(caller: Pick<Person, 'id'>): Promise<{ exports: ExportView[] }> {
  const records = await listExports(caller.id, LISTED_EXPORTS);
  return { exports: await Promise.all(records.map(viewWithLink)) };
}
