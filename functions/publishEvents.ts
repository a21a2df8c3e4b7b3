import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventOf, PublishError, publish } from '../lib/actions/events';
import { errorFields, logger } from '../lib/logger';
import { indexChanges } from '../lib/store/search/postings';
import { changesOf } from '../lib/store/sync/stream';

/**
 * The table's stream consumer: each new history entry updates the search postings
 * (`lib/store/search/postings.ts`) and becomes one event on the bus, in stream
 * order (per action, version order). When publishing stops partway, the first unpublished
 * record is reported, so the stream hands it (and what follows) back again: nothing is skipped,
 * and a repeat carries the same event id.
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>().handler(async (event) => {
  const changes = changesOf(event.Records);
  try {
    // The search postings first: a batch that fails anywhere comes back whole, and indexing it again changes nothing.
    await indexChanges(changes.map((change) => change.entry));
    await publish(changes.map((change) => eventOf(change.entry)));
    return { batchItemFailures: [] };
  } catch (error) {
    const stopped = error instanceof PublishError ? error.published : 0;
    const first = changes[stopped];
    logger.error('publishing events failed; the stream will deliver them again', {
      unpublished: changes.length - stopped,
      ...errorFields(error),
    });
    return { batchItemFailures: first ? [{ itemIdentifier: first.position }] : [] };
  }
});
