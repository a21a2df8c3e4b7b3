import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { errorFields, logger } from '../lib/logger';
import { runImport } from '../lib/transfer/import/worker';

/**
 * The import worker in AWS: the imports queue delivers `ImportQueued` events (from the bus) one at
 * a time. An import not finished within this invocation (or that failed on a busy store) is
 * reported back, so the queue delivers it again and it resumes from its last saved row.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(async (event, context: Context) => {
  const failed: string[] = [];
  for (const record of event.Records) {
    const importId = (JSON.parse(record.body) as { detail?: { importId?: unknown } }).detail?.importId;
    if (typeof importId !== 'string') {
      logger.warn('not an import; dropped', { messageId: record.messageId });
      continue;
    }
    try {
      const outcome = await runImport(importId, () => context.getRemainingTimeInMillis());
      if (outcome === 'more') failed.push(record.messageId);
    } catch (error) {
      logger.error('import interrupted; it resumes when the queue delivers it again', { importId, ...errorFields(error) });
      failed.push(record.messageId);
    }
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
});
