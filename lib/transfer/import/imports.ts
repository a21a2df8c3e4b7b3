import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import * as z from 'zod';
import { nowIso } from '../../dates';
import { clip, NotFoundError, ValidationError } from '../../errors';
import { headObject, presignDownload, presignUpload, UPLOAD_SECONDS } from '../../evidence/storage';
import { IMPORTS_PREFIX } from '../../http/evidence-routes';
import type { Person } from '../../model/action';
import { uploadRequestSchema } from '../../model/evidence';
import { validateBody } from '../../model/validation';
import { type ImportRecord, putImport, readChunks, readImport, updateImport } from '../../store/imports';
import type { RowProblem } from './check-row';
import { enqueueImport } from './queue';

/**
 * Imports (contract section 18), as the API offers them: a presigned POST for the file (section
 * 15's mechanism, on its own prefix and limits), an import of an uploaded file (a dry run or a
 * real one) handed to the worker (`worker.ts`), and its report, shown only to its importer.
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

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const decode = (text: string | undefined) =>
  text === undefined ? undefined : Buffer.from(text, 'base64url').toString('utf8');

/** `POST /api/imports/uploads`: a presigned POST for one CSV or XLSX file of the declared type and exact size. */
export async function createImportUpload(caller: Person, body: unknown) {
  const request = validateBody(uploadRequestSchema({ types: IMPORT_TYPES, maxBytes: IMPORT_MAX_BYTES }), body);
  const uploadId = randomUUID();
  const expiresAt = new Date(Date.now() + UPLOAD_SECONDS * 1000);
  const { url, fields } = await presignUpload(uploadKeyOf(uploadId), {
    contentType: request.contentType,
    size: request.size,
    metadata: { name: encode(request.name), uploader: encode(caller.id), size: String(request.size) },
  });
  return { uploadId, url, fields, expiresAt: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

const importRequestSchema = z.strictObject({
  uploadId: z.string().regex(/^[0-9a-f-]{36}$/, 'must be an uploadId as POST /api/imports/uploads returned it'),
  dryRun: z.boolean(),
});

/** Real runs of one upload by one person share one id: asking again is the same import, and creates nothing. */
const IMPORT_NAMESPACE = '5b0c9f7e-3d1a-4c2e-9a61-7f4e2b8d0c13';

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

const summaryOf = (r: ImportRecord): ImportSummary => ({
  id: r.id,
  status: r.status,
  dryRun: r.dryRun,
  rows: r.rows,
  valid: r.valid,
  invalid: r.invalid,
  created: r.created,
});

/**
 * `POST /api/imports`: checks that the upload is the caller's and is stored as declared, records
 * the import and queues it. A real run of an upload already imported is that import again.
 */
export async function startImport(caller: Person, body: unknown): Promise<ImportSummary> {
  const { uploadId, dryRun } = validateBody(importRequestSchema, body);
  const stored = await headObject(uploadKeyOf(uploadId));
  if (!stored || decode(stored.metadata.uploader) !== caller.id)
    throw new ValidationError([
      {
        field: 'uploadId',
        message: 'names no file you uploaded with POST /api/imports/uploads (an upload is kept 7 days)',
      },
    ]);
  if (stored.size !== Number(stored.metadata.size))
    throw new ValidationError([
      { field: 'uploadId', message: 'the stored file is not the one declared; upload it again' },
    ]);
  const id = dryRun ? randomUUID() : uuidv5(`${caller.id}\n${uploadId}`, IMPORT_NAMESPACE);
  const record: ImportRecord = {
    id,
    importerId: caller.id,
    importerName: caller.name,
    importerEmail: caller.email,
    uploadId,
    fileKey: uploadKeyOf(uploadId),
    fileName: decode(stored.metadata.name) ?? '',
    dryRun,
    status: 'queued',
    phase: 'check',
    rows: 0,
    valid: 0,
    invalid: 0,
    created: 0,
    ignoredColumns: [],
    problemCount: 0,
    nextRow: 2,
    createdAt: nowIso(),
  };
  if (!(await putImport(record))) {
    const existing = await readImport(id);
    // A real run the worker gave up on mid-way (giveUpImport) goes on from where it stopped.
    if (existing?.status === 'failed' && existing.phase !== 'finished' && !dryRun) {
      await updateImport(id, { status: 'running', error: '' });
      await enqueueImport(id);
      return summaryOf({ ...existing, status: 'running' });
    }
    if (existing) return summaryOf(existing);
  }
  await enqueueImport(id);
  return summaryOf(record);
}

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
