import * as z from 'zod';
import type { RouteDefinition } from '../http/routes';
import { actionLimits } from '../model/action';
import { jsonBody, type Operation, problems } from './components';

/** The import routes of the OpenAPI document (contract section 18), registered from `openapi.ts`. */

const uploadRequest = z.strictObject({
  name: z.string().min(1).max(actionLimits.shortText).openapi({ description: "The file's name; one line" }),
  contentType: z
    .enum(['text/csv', 'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'])
    .openapi({
      description:
        'CSV (text/csv, or application/vnd.ms-excel as Windows browsers declare it) or XLSX; the worker reads the kind from the bytes',
    }),
  size: z
    .number()
    .int()
    .min(1)
    .max(52_428_800)
    .openapi({ description: 'The exact size in bytes, at most 50 MB (52428800)' }),
});

const importUpload = z
  .object({
    uploadId: z.string().openapi({ description: 'Send it to POST /api/imports once the file is stored' }),
    url: z.string().openapi({ description: 'Where to POST the file (multipart/form-data)' }),
    fields: z
      .record(z.string(), z.string())
      .openapi({ description: 'Every one goes into the form, as given, before the `file` part' }),
    expiresAt: z.string().openapi({ description: 'The policy is valid until then (15 minutes)' }),
  })
  .openapi('ImportUpload');

const importRequest = z.strictObject({
  uploadId: z.string().openapi({ description: 'As POST /api/imports/uploads answered it' }),
  dryRun: z.boolean().openapi({ description: 'true: check and report every row, create nothing' }),
});

const summaryShape = {
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  dryRun: z.boolean(),
  rows: z.number().int().openapi({ description: 'Data rows read (blank rows are skipped)' }),
  valid: z.number().int(),
  invalid: z.number().int(),
  created: z.number().int().openapi({ description: 'Actions created so far (always 0 on a dry run)' }),
};
const importSummary = z.object(summaryShape).openapi('ImportSummary');

const rowProblem = z
  .object({
    row: z.number().int().openapi({ description: 'The row, counting the header as row 1' }),
    column: z.string().openapi({ description: 'The column, as the export names it' }),
    problem: z.string().openapi({ description: 'What POST /api/actions would say of it' }),
  })
  .openapi('ImportProblem');

const importReport = z
  .object({
    ...summaryShape,
    fileName: z.string(),
    ignoredColumns: z
      .array(z.string())
      .openapi({ description: 'Columns set by the service, and unknown ones, as the file names them' }),
    createdAt: z.string(),
    finishedAt: z.string().optional(),
    error: z
      .string()
      .optional()
      .openapi({ description: 'Why the whole file failed (encoding, a required column, the row limit)' }),
    errors: z.array(rowProblem).openapi({ description: 'The first 1,000 problems, in row order' }),
    errorsUrl: z
      .string()
      .optional()
      .openapi({ description: 'With more than 1,000 problems: all of them as CSV (a presigned GET, 5 minutes)' }),
  })
  .openapi('Import');

export const importsTag = {
  name: 'Import',
  description:
    'A CSV or XLSX file of actions: uploaded straight to storage, checked row by row (a dry run), then created.',
} as const;

/** The operations, by handler. */
export const importOperations = {
  createImportUpload: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Start an import upload',
    description:
      'Any signed-in caller. An S3 presigned POST valid 15 minutes whose policy pins the key, the content type and the exact size (at most 50 MB), so storage refuses any other file. POST the form to `url`, then start the import with POST /api/imports. The file is kept 7 days.',
    request: { body: jsonBody(uploadRequest) },
    responses: {
      201: { description: 'The presigned POST', content: { 'application/json': { schema: importUpload } } },
      ...problems(400, 401, 413, 415, 503),
    },
  }),
  createImport: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Import an uploaded file',
    description:
      "Queues a dry run (checks every row, creates nothing) or a real run (creates every valid row as POST /api/actions would, owner and initiator the caller, each row once: a real run of the same upload again is the same import and creates nothing). Columns are the export's, by name, any case and order; title, actionProducer.name, dueAt, priority and status are required. In ACCESS=scoped each row needs the caller to manage its location. Follow Location for the report.",
    request: { body: jsonBody(importRequest) },
    responses: {
      202: {
        description: 'Queued (or, for a real run asked again, the import as it stands)',
        headers: { location: { schema: { type: 'string' }, description: '/api/imports/{id}' } },
        content: { 'application/json': { schema: importSummary } },
      },
      ...problems(400, 401, 413, 415, 503),
    },
  }),
  getImport: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'Read an import and its report',
    description: 'Only its importer (404 for anyone else). Records are kept 7 days.',
    request: { params: z.object({ id: z.string() }) },
    responses: {
      200: { description: 'The import', content: { 'application/json': { schema: importReport } } },
      ...problems(401, 404, 503),
    },
  }),
};

/** The group of each operation here. */
export const importTags = {
  createImportUpload: importsTag.name,
  createImport: importsTag.name,
  getImport: importsTag.name,
} as const;
