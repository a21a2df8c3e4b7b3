import middy from '@middy/core';
import type { ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { PublishedEvent } from '../lib/actions/events';
import { logger } from '../lib/logger';
import { sendDigests } from '../lib/notifications/digest-run';
import { notifyPeople } from '../lib/notifications/notifier';
import { eventFromEventBridge } from '../lib/webhooks/eventbridge';

/**
 * The notifier, the one function that may send email: published events (EventBridge rule -> SQS)
 * become emails or digest lines; a record whose event failed comes back from the queue (SES
 * throttling the SDK could not ride out included). On its schedule (the due-date sweep's
 * interval) it sends the daily digests that are due.
 */
export const handler = middy<SQSEvent | ScheduledEvent, SQSBatchResponse | undefined>().handler(async (event) => {
  if (!('Records' in event)) {
    logger.info('digests', { ...(await sendDigests()) });
    return undefined;
  }
  const byEvent = new Map<string, string[]>();
  const events: PublishedEvent[] = [];
  for (const record of event.Records) {
    const published = eventFromEventBridge(record.body);
    if (!published) {
      logger.warn('not a published event; dropped', { messageId: record.messageId });
      continue;
    }
    events.push(published);
    byEvent.set(published.id, [...(byEvent.get(published.id) ?? []), record.messageId]);
  }
  const { report, failed } = await notifyPeople(events);
  logger.info('notifications', { ...report, failed: failed.length });
  return {
    batchItemFailures: failed.flatMap((id) => byEvent.get(id) ?? []).map((itemIdentifier) => ({ itemIdentifier })),
  };
});
