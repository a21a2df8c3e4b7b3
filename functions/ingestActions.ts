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
        const { id, created } = await ingestActionRequested(requestedDetail(JSON.parse(record.body)));
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

/** The `detail` of an `ActionRequested` EventBridge event; anything else is an invalid event. */
function requestedDetail(envelope: unknown): unknown {
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
    throw new ValidationError([{ field: 'event', message: 'must be a JSON object (an EventBridge event)' }]);
  }
  const event = envelope as { 'detail-type'?: unknown; detail?: unknown };
  if (event['detail-type'] !== 'ActionRequested') {
    throw new ValidationError([{ field: 'detail-type', message: "must be 'ActionRequested'" }]);
  }
  if (event.detail === null || typeof event.detail !== 'object' || Array.isArray(event.detail)) {
    throw new ValidationError([{ field: 'detail', message: 'must be a JSON object (a create body with an owner)' }]);
  }
  return event.detail;
}
