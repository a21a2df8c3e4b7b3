import { getConfig } from '../config';
import { ValidationError } from '../errors';
import { errorFields, logger, withLogContext } from '../logger';
import { ingestActionRequested } from './action-service';

/**
 * One `ActionRequested` EventBridge event, as a queue message body: creates its action once, and
 * says whether the message failed (SQS then retries it and, after its retries, moves it to the
 * dead-letter queue). Invalid events are logged with their errors, not as internal failures.
 */
export async function ingestMessage(messageId: string, body: string): Promise<{ failed: boolean }> {
  return withLogContext({ correlationId: messageId }, async () => {
    try {
      const { source, detail } = requestedEvent(JSON.parse(body));
      const { id, created } = await ingestActionRequested(detail, source);
      logger.info(created ? 'action created from event' : 'duplicate event ignored', { actionId: id });
      return { failed: false };
    } catch (error) {
      if (error instanceof ValidationError) {
        logger.warn('invalid ActionRequested event', { errors: error.errors });
      } else if (error instanceof SyntaxError) {
        logger.warn('ActionRequested event is not JSON');
      } else {
        logger.error('ingesting an event failed', errorFields(error));
      }
      return { failed: true };
    }
  });
}

/**
 * The `source` and `detail` of an `ActionRequested` EventBridge event; anything else is an invalid
 * event, and so is one from a source the deployment does not name in `PRODUCER_SOURCES` (when it
 * names any: in AWS the rule already routes only those, this holds for every other way in).
 */
function requestedEvent(envelope: unknown): { source: string; detail: unknown } {
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
    throw new ValidationError([{ field: 'event', message: 'must be a JSON object (an EventBridge event)' }]);
  }
  const event = envelope as { 'detail-type'?: unknown; source?: unknown; detail?: unknown };
  if (event['detail-type'] !== 'ActionRequested') {
    throw new ValidationError([{ field: 'detail-type', message: "must be 'ActionRequested'" }]);
  }
  if (event.detail === null || typeof event.detail !== 'object' || Array.isArray(event.detail)) {
    throw new ValidationError([{ field: 'detail', message: 'must be a JSON object (a create body with an owner)' }]);
  }
  if (typeof event.source !== 'string' || event.source === '') {
    throw new ValidationError([{ field: 'source', message: 'must be a non-empty string (the producer)' }]);
  }
  const { producerSources } = getConfig();
  if (producerSources && !producerSources.includes(event.source)) {
    throw new ValidationError([{ field: 'source', message: 'is not a producer source this service ingests' }]);
  }
  return { source: event.source, detail: event.detail };
}
