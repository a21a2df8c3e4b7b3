import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../lib/logger';
import { jobsOf } from '../lib/transfer/export-queue';
import { runExport } from '../lib/transfer/export-run';

/**
 * The export worker: SQS batches (of one) of `ExportRequested` events. A run that fails is
 * reported, so the queue gives it to another run, which continues from the last part stored.
 */
export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>().handler(async (event, context) => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const remaining =
    typeof context?.getRemainingTimeInMillis === 'function' ? () => context.getRemainingTimeInMillis() : undefined;
  for (const { messageId, job } of jobsOf(event)) {
    if (!job) {
      logger.warn('export message without a job dropped', { messageId });
      continue;
    }
    try {
      const outcome = await runExport(job, remaining);
      logger.info('export run', { exportId: job.id, outcome });
    } catch {
      batchItemFailures.push({ itemIdentifier: messageId });
    }
  }
  return { batchItemFailures };
});
