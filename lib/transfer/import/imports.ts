import { clip, NotFoundError } from '../../errors';
import { presignDownload } from '../../evidence/storage';
import { IMPORTS_PREFIX } from '../../http/evidence-routes';
import type { Person } from '../../model/action';
import { type ImportRecord, readChunks, readImport } from '../../store/imports';
import type { RowProblem } from './check-row';

/**
 * Imports (contract section 18), as the API offers them: a presigned POST for the file (section
 * 15's mechanism, on its own prefix and limits), an import of an uploaded file (a dry run or a
 * real one) handed to the worker (`worker.ts`), and its report, shown only to its importer.
 * The two requests that send a body are in `start.ts`, so the report carries no zod.
 */

/** At most 50 MB a file (contract section 18). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** CSV (as browsers declare it: `text/csv`, or `application/vnd.ms-excel` on Windows) and XLSX. */
export const IMPORT_TYPES = [
  'text/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];
/** The problems a report shows; the rest are in `errorsUrl`. */
export const SHOWN_PROBLEMS = 1_000;

export const uploadKeyOf = (uploadId: string) => `${IMPORTS_PREFIX}${uploadId}`;
export const problemsKeyOf = (importId: string) => `${IMPORTS_PREFIX}${importId}-problems.csv`;

/** What `POST /api/imports` answers, and `GET` shows first. */
export interface ImportSummary {
  id: string;
  status: ImportRecord['status'];
  dryRun: boolean;
  rows: number;
  valid: number;
  invalid: number;
  created: number;
}

export const summaryOf = (r: ImportRecord): ImportSummary => ({
  id: r.id,
  status: r.status,
  dryRun: r.dryRun,
  rows: r.rows,
  valid: r.valid,
  invalid: r.invalid,
  created: r.created,
});

/** `GET /api/imports/{id}`: the import with its first 1,000 problems and, past those, a link to all of them. */
export async function getImport(caller: Person, id: string) {
  const record = await readImport(id);
  // Another person's import does not exist for the caller.
  if (!record || record.importerId !== caller.id)
    throw new NotFoundError(`There is no import with the id '${clip(id)}'.`);
  const errors = record.status === 'done' || record.phase !== 'check' ? await readChunks<RowProblem>(id, 'e') : [];
  return {
    ...summaryOf(record),
    fileName: record.fileName,
    ignoredColumns: record.ignoredColumns,
    createdAt: record.createdAt,
    ...(record.finishedAt ? { finishedAt: record.finishedAt } : {}),
    ...(record.error ? { error: record.error } : {}),
    errors: errors.slice(0, SHOWN_PROBLEMS),
    ...(record.problemsKey
      ? {
          errorsUrl: await presignDownload(
            record.problemsKey,
            'text/csv; charset=utf-8',
            `attachment; filename="import-${id}-errors.csv"`,
          ),
        }
      : {}),
  };
}
