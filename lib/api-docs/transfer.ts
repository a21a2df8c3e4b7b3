import * as z from 'zod';
import type { RouteDefinition } from '../http/routes';
import { exportHeaders } from '../transfer/columns';
import { jsonBody, type Operation, problems } from './components';

/** The export routes of the OpenAPI document (contract section 18), registered from `openapi.ts`. */

const exportRequest = z.strictObject({
  format: z
    .enum(['csv', 'xlsx'])
    .openapi({ description: 'CSV (RFC 4180, UTF-8 with a BOM, CRLF) or XLSX (one sheet "Actions")' }),
  query: z.string().max(8000).openapi({
    description:
      'The filters and `sort` of GET /api/actions, as its query string, checked the same way (each problem named under `query`); `skip`, `limit` and `cursor` are a 400. "" exports every action the caller sees, newest first.',
    example: 'status=~1,2&location.site=North%20Pit&sort=dueAt',
  }),
});

const exportView = z
  .object({
    id: z.string().openapi({ description: 'A time-ordered UUID (v7)' }),
    format: z.enum(['csv', 'xlsx']),
    query: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    rows: z.number().int().openapi({ description: 'Rows written to storage so far (the header not counted)' }),
    createdAt: z.string(),
    finishedAt: z.string().optional().openapi({ description: 'When it was done or failed' }),
    url: z
      .string()
      .optional()
      .openapi({
        description: `When done: a presigned GET valid 5 minutes, made afresh on each read, naming the file actions-<date>.csv or .xlsx. Columns: ${exportHeaders.join(', ')}`,
      }),
    expiresAt: z
      .string()
      .optional()
      .openapi({ description: 'When done: when the file and this record are deleted (7 days after createdAt)' }),
    error: z.string().optional().openapi({ description: 'When failed: why' }),
  })
  .openapi('Export');

export const transferTag = {
  name: 'Export',
  description: 'Any list the caller sees, to a CSV or Excel file written in the background.',
} as const;

/** The operations, by handler. */
export const transferOperations = {
  createExport: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Export a list',
    description:
      'Queues an export of every action the list `query` shows the caller (section 14), in its order, each once. Read its progress and, when done, its file with GET /api/exports/{id} (Location). Files and records are deleted after 7 days.',
    request: { body: jsonBody(exportRequest) },
    responses: {
      202: {
        description: 'Queued; Location is where to follow it',
        headers: { location: { schema: { type: 'string' }, description: '/api/exports/{id}' } },
        content: { 'application/json': { schema: exportView } },
      },
      ...problems(400, 401, 413, 415, 503),
    },
  }),
  listExports: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: "List one's exports",
    description: "The caller's own exports of the last 7 days, newest first (at most 100).",
    responses: {
      200: {
        description: 'The exports',
        content: { 'application/json': { schema: z.object({ exports: z.array(exportView) }) } },
      },
      ...problems(401, 503),
    },
  }),
  getExport: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'Read an export',
    description:
      'Only the person who asked for it; anyone else gets a 404. When done, `url` is a fresh presigned GET of its file.',
    request: { params: z.object({ id: z.string() }) },
    responses: {
      200: { description: 'The export', content: { 'application/json': { schema: exportView } } },
      ...problems(401, 404, 503),
    },
  }),
};

/** The group of each operation here. */
export const transferTags = {
  createExport: transferTag.name,
  listExports: transferTag.name,
  getExport: transferTag.name,
} as const;
