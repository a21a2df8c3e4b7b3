import { IMPORTS_PREFIX } from './evidence-routes';

/**
 * The routes and the worker of imports (contract section 18), listed in `routes.ts` with every
 * other. Each names what it may do to the table and to the evidence bucket's `imports/` prefix;
 * the construct (infra/cdk/imports.ts) grants exactly that.
 */

/** An import's record and its report chunks: written by the start, read by its GET. */
export const importRoutes = [
  {
    method: 'POST',
    path: '/api/imports/uploads',
    handler: 'createImportUpload',
    access: [],
    // A presigned POST is authorized as its signer's PutObject.
    storage: [{ prefix: IMPORTS_PREFIX, actions: ['s3:PutObject'] }],
  },
  {
    method: 'POST',
    path: '/api/imports',
    handler: 'createImport',
    access: ['GetItem', 'PutItem'],
    // HeadObject is authorized as GetObject.
    storage: [{ prefix: IMPORTS_PREFIX, actions: ['s3:GetObject'] }],
  },
  {
    method: 'GET',
    path: '/api/imports/{id}',
    handler: 'getImport',
    access: ['GetItem', 'QueryTable'],
    // The problems' presigned GET is authorized as its signer's GetObject.
    storage: [{ prefix: IMPORTS_PREFIX, actions: ['s3:GetObject'] }],
  },
] as const;

/**
 * The worker: reads the import and its file, checks each row (the importer's grants), creates
 * actions as every create does (the idempotency keys and the transaction), reads people and
 * preferences and claims each email as the notifier does, and writes its problem report.
 */
export const importFunction = {
  handler: 'importActions',
  access: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'QueryTable', 'BatchGetItem'],
  storage: [{ prefix: IMPORTS_PREFIX, actions: ['s3:GetObject', 's3:PutObject'] }],
  /** Deliveries of one import before its message goes to the dead-letter queue (each invocation up to 15 minutes). */
  maxReceives: 20,
} as const;
