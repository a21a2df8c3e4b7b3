import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ingestMessage } from '../lib/actions/ingest';

/**
 * SQS batches of `ActionRequested` EventBridge events. Each record stands alone: a valid one
 * lands even when its neighbours fail, and only the failures are reported back.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(async (event) => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const { failed } = await ingestMessage(record.messageId, record.body);
    if (failed) batchItemFailures.push({ itemIdentifier: record.messageId });
  }
  return { batchItemFailures };
});
