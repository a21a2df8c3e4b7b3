import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { importFunction } from '../lib/http/import-routes';
import { errorFields, logger } from '../lib/logger';
import { giveUpImport, runImport } from '../lib/transfer/import/worker';

/**
 * The import worker in AWS: the imports queue delivers `ImportQueued` events (from the bus) one at
 * a time. An import not finished within this invocation (or that failed on a busy store) is
 * reported back, so the queue delivers it again and it resumes from its last saved row. On its
 * last delivery (the next goes to the dead-letter queue) it is ended `failed` with the reason
 * instead, so no import stays `running` until it expires.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(async (event, context: Context) => {
  const failed: string[] = [];
  for (const record of event.Records) {
    const importId = (JSON.parse(record.body) as { detail?: { importId?: unknown } }).detail?.importId;
    if (typeof importId !== 'string') {
      logger.warn('not an import; dropped', { messageId: record.messageId });
      continue;
    }
    const last = Number(record.attributes?.ApproximateReceiveCount ?? 1) >= importFunction.maxReceives;
    let why: string | undefined;
    try {
      const outcome = await runImport(importId, () => context.getRemainingTimeInMillis());
      if (outcome === 'more') why = `it needed more than the ${importFunction.maxReceives} runs one import gets`;
    } catch (error) {
      logger.error('import interrupted; it resumes when the queue delivers it again', {
        importId,
        ...errorFields(error),
      });
      why = 'the store or the storage kept failing';
    }
    if (why === undefined) continue;
    if (!last) {
      failed.push(record.messageId);
      continue;
    }
    // Its last delivery: end it failed, or (the store still failing) leave it to the dead-letter queue.
    await giveUpImport(importId, why).catch(() => failed.push(record.messageId));
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
});
