/**
 * The routes of evidence (contract section 15), in the route table of `routes.ts`. Besides the
 * table, each names what it may do to the evidence bucket, each call on one prefix only
 * (`lib/evidence/storage.ts`): the construct grants exactly that.
 */

/** Uploads until attached (a lifecycle rule expires them after a day), then attachments. */
export const UPLOADS_PREFIX = 'uploads/';
export const ATTACHMENTS_PREFIX = 'attachments/';
/** Imported files and their problem reports (contract section 18), expired after 7 days by a lifecycle rule. */
export const IMPORTS_PREFIX = 'imports/';
/** `exports/`: export files (`export-routes.ts`). */
export type StoragePrefix = typeof UPLOADS_PREFIX | typeof ATTACHMENTS_PREFIX | typeof IMPORTS_PREFIX | 'exports/';
export type StorageAction =
  | 's3:PutObject'
  | 's3:GetObject'
  | 's3:GetObjectTagging'
  | 's3:DeleteObject'
  | 's3:AbortMultipartUpload';

export interface StorageAccess {
  prefix: StoragePrefix;
  actions: readonly StorageAction[];
}

/** Reading the action, then writing it with its history entry (the route table checks these are table calls). */
const WRITE = ['GetItem', 'PutItem', 'UpdateItem'] as const;

export const evidenceRoutes = [
  {
    method: 'POST',
    path: '/api/actions/{id}/uploads',
    handler: 'createUpload',
    access: ['GetItem'],
    // A presigned POST is authorized as its signer's PutObject.
    storage: [{ prefix: 'uploads/', actions: ['s3:PutObject'] }],
  },
  {
    method: 'POST',
    path: '/api/actions/{id}/attachments',
    handler: 'attachUpload',
    access: WRITE,
    // HeadObject and the copy's source are GetObject; the copy's target PutObject; the scan's tag GetObjectTagging.
    storage: [
      { prefix: 'uploads/', actions: ['s3:GetObject', 's3:DeleteObject'] },
      { prefix: 'attachments/', actions: ['s3:PutObject', 's3:GetObjectTagging', 's3:DeleteObject'] },
    ],
  },
  {
    method: 'GET',
    path: '/api/actions/{id}/attachments/{attachmentId}',
    handler: 'getAttachment',
    access: ['GetItem'],
    storage: [{ prefix: 'attachments/', actions: ['s3:GetObject', 's3:GetObjectTagging'] }],
  },
  {
    method: 'DELETE',
    path: '/api/actions/{id}/attachments/{attachmentId}',
    handler: 'deleteAttachment',
    access: WRITE,
    storage: [{ prefix: 'attachments/', actions: ['s3:DeleteObject'] }],
  },
] as const satisfies readonly {
  method: 'POST' | 'GET' | 'DELETE';
  path: string;
  handler: string;
  access: readonly string[];
  storage: readonly StorageAccess[];
}[];

/** Functions that read the evidence settings without touching the bucket: an edit checks `EVIDENCE_REQUIRED_STATUSES`. */
export const evidenceSettingsReaders: readonly string[] = ['updateAction'];
