import middy from '@middy/core';
import type { SNSEvent } from 'aws-lambda';
import { logger } from '../lib/logger';
import { recordFeedback } from '../lib/notifications/people-preferences';

/**
 * SES bounces and complaints (the configuration set's event destination, an SNS topic): email to
 * those addresses stops until their person signs in again.
 */
export const handler = middy<SNSEvent, void>().handler(async (event) => {
  for (const record of event.Records) {
    let message: unknown;
    try {
      message = JSON.parse(record.Sns.Message);
    } catch {
      logger.warn('not an SES notification; dropped', { messageId: record.Sns.MessageId });
      continue;
    }
    const suppressed = await recordFeedback(message as Parameters<typeof recordFeedback>[0]);
    if (suppressed.length > 0) logger.info('email suppressed', { addresses: suppressed.length });
  }
});
