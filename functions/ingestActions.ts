import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ingestActionRequested } from '../lib/actions';
import { ValidationError } from '../lib/errors';
import { errorFields, logger, withLogContext } from '../lib/logger';

/**
 * SQS batches of `ActionRequested` EventBridge events. Each record stands alone: a valid one
 * lands even when its neighbours fail, and only the failures are reported back, so SQS retries
 * those and, after its retries, moves them to the dead-letter queue.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(async (event) => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    await withLogContext({ correlationId: record.messageId }, async () => {
      try {
        const envelope = JSON.parse(record.body) as { 'detail-type'?: string; detail?: unknown };
        if (envelope['detail-type'] !== 'ActionRequested') {
          throw new ValidationError([{ field: 'detail-type', message: "must be 'ActionRequested'" }]);
        }
        const { id, created } = await ingestActionRequested(envelope.detail);
        logger.info(created ? 'action created from event' : 'duplicate event ignored', { actionId: id });
      } catch (error) {
        batchItemFailures.push({ itemIdentifier: record.messageId });
        if (error instanceof ValidationError) {
          logger.warn('invalid ActionRequested event', { errors: error.errors });
        } else if (error instanceof SyntaxError) {
          logger.warn('ActionRequested event is not JSON');
        } else {
          logger.error('ingesting an event failed', errorFields(error));
        }
      }
    });
  }
  return { batchItemFailures };
});
