import type { StorageAccess } from './evidence-routes';

/**
 * The routes of exports (contract section 18), in the route table of `routes.ts`, with what each
 * may do to the bucket (the construct grants exactly that, on the exports prefix only). Asking
 * for an export also puts one event on the bus (`lib/transfer/export-queue.ts`), granted by the
 * transfer construct (`infra/cdk/transfer.ts`).
 */

/** Export files, expired after 7 days by a lifecycle rule on this prefix. */
export const EXPORTS_PREFIX = 'exports/';

export const exportRoutes = [
  { method: 'POST', path: '/api/exports', handler: 'createExport', access: ['PutItem'] },
  {
    method: 'GET',
    path: '/api/exports',
    handler: 'listExports',
    access: ['QueryTable'],
    // A presigned GET is authorized as its signer's GetObject.
    storage: [{ prefix: EXPORTS_PREFIX, actions: ['s3:GetObject'] }],
  },
  {
    method: 'GET',
    path: '/api/exports/{id}',
    handler: 'getExport',
    access: ['GetItem'],
    storage: [{ prefix: EXPORTS_PREFIX, actions: ['s3:GetObject'] }],
  },
] as const satisfies readonly {
  method: 'POST' | 'GET';
  path: string;
  handler: string;
  access: readonly string[];
  storage?: readonly StorageAccess[];
}[];

/** The export worker (`functions/runExports.ts`): what it may do to the table and the bucket. */
export const exportWorker = {
  handler: 'runExports',
  // Its record (read, then moved on by conditional updates), the caller's grants, and their list.
  access: ['GetItem', 'UpdateItem', 'Query', 'BatchGetItem'],
  postings: ['Query'],
  storage: [{ prefix: EXPORTS_PREFIX, actions: ['s3:PutObject', 's3:AbortMultipartUpload'] }],
} as const;
