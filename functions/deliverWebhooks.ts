import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { PublishedEvent } from '../lib/actions/events';
import { errorFields, logger } from '../lib/logger';
import { eventFromEventBridge } from '../lib/webhooks/eventbridge';
import { acceptEvents } from '../lib/webhooks/intake';
import { runInLanes } from '../lib/webhooks/lanes';

/**
 * Published events (EventBridge rule -> SQS): each becomes a delivery to every enabled
 * subscription naming its type, and its first attempt runs here at once, in parallel, a few of
 * each subscription (the rest wait in its queue for the sweep). What fails is retried by `sweepWebhooks` from the attempts due in the table. When the deliveries
 * cannot be stored, the batch comes back from the queue; storing them again changes nothing.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(async (event) => {
  const events: PublishedEvent[] = [];
  for (const record of event.Records) {
    const published = eventFromEventBridge(record.body);
    if (published) events.push(published);
    else logger.warn('not a published event; dropped', { messageId: record.messageId });
  }
  try {
    const claims = await acceptEvents(events);
    await runInLanes(claims);
    return { batchItemFailures: [] };
  } catch (error) {
    logger.error('webhook deliveries could not be stored; the queue delivers the batch again', errorFields(error));
    return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
  }
});
