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
  // Side by side, so events leave as soon as before. Search postings that fail send the whole
  // batch back (indexing again changes nothing; events already published go again with the same ids).
  const [indexing, publishing] = await Promise.allSettled([
    indexChanges(changes.map((change) => change.entry)),
    publish(changes.map((change) => eventOf(change.entry))),
  ]);
  if (indexing.status === 'fulfilled' && publishing.status === 'fulfilled') return { batchItemFailures: [] };
  const error = publishing.status === 'rejected' ? publishing.reason : (indexing as PromiseRejectedResult).reason;
  const stopped = indexing.status === 'fulfilled' && error instanceof PublishError ? error.published : 0;
  const first = changes[stopped];
  logger.error('publishing events or indexing them for search failed; the stream will deliver them again', {
    unpublished: changes.length - stopped,
    ...errorFields(error),
  });
  return { batchItemFailures: first ? [{ itemIdentifier: first.position }] : [] };
});
