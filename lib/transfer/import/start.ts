import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import * as z from 'zod/mini';
import { nowIso } from '../../dates';
import { ValidationError } from '../../errors';
import { decodeMetadata, encodeMetadata, headObject, presignUpload, UPLOAD_SECONDS } from '../../evidence/storage';
import type { Person } from '../../model/action';
import { UPLOAD_ID } from '../../model/evidence';
import { uploadRequestSchema } from '../../model/evidence-requests';
import { validateBody } from '../../model/validate-body';
import { type ImportRecord, putImport, readImport, updateImport } from '../../store/imports';
import { IMPORT_MAX_BYTES, IMPORT_TYPES, type ImportSummary, summaryOf, uploadKeyOf } from './imports';
import { enqueueImport } from './queue';

/**
 * The two import requests that send a body (contract section 18): the presigned POST for a file
 * and the import of an uploaded one. Apart from `imports.ts` (the limits and the report) so that
 * only these two carry zod (`zod/mini`, as `evidence-requests.ts`), not `GET /api/imports/{id}`.
 */

/** `POST /api/imports/uploads`: a presigned POST for one CSV or XLSX file of the declared type and exact size. */
export async function createImportUpload(caller: Person, body: unknown) {
  const request = validateBody(uploadRequestSchema({ types: IMPORT_TYPES, maxBytes: IMPORT_MAX_BYTES }), body);
  const uploadId = randomUUID();
  const expiresAt = new Date(Date.now() + UPLOAD_SECONDS * 1000);
  const { url, fields } = await presignUpload(uploadKeyOf(uploadId), {
    contentType: request.contentType,
    size: request.size,
    metadata: { name: encodeMetadata(request.name), uploader: encodeMetadata(caller.id), size: String(request.size) },
  });
  return { uploadId, url, fields, expiresAt: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

const importRequestSchema = z.strictObject({
  uploadId: z.string().check(z.regex(UPLOAD_ID, 'must be an uploadId as POST /api/imports/uploads returned it')),
  dryRun: z.boolean(),
});

/** Real runs of one upload by one person share one id: asking again is the same import, and creates nothing. */
const IMPORT_NAMESPACE = '5b0c9f7e-3d1a-4c2e-9a61-7f4e2b8d0c13';

/**
 * `POST /api/imports`: checks that the upload is the caller's and is stored as declared, records
 * the import and queues it. A real run of an upload already imported is that import again.
 */
export async function startImport(caller: Person, body: unknown): Promise<ImportSummary> {
  const { uploadId, dryRun } = validateBody(importRequestSchema, body);
  const stored = await headObject(uploadKeyOf(uploadId));
  if (!stored || decodeMetadata(stored.metadata.uploader) !== caller.id)
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
    fileName: decodeMetadata(stored.metadata.name) ?? '',
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
