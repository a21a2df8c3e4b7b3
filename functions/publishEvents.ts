import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventOf, PublishError, publish } from '../lib/actions/events';
import { errorFields, logger } from '../lib/logger';
import { indexChanges } from '../lib/store/search/postings';
import { changesOf } from '../lib/store/sync/stream';
import { countTrends } from '../lib/trends/trend-stream';

/**
 * The table's stream consumer: each new history entry updates the search postings
 * (`lib/store/search/postings.ts`) and the trend counters (`lib/store/trends/trend-counters.ts`,
 * each entry counted once however often it comes) and becomes one event on the bus, in stream
 * order (per action, version order). When publishing stops partway, the first unpublished
 * record is reported, so the stream hands it (and what follows) back again: nothing is skipped,
 * and a repeat carries the same event id.
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>().handler(async (event) => {
  const changes = changesOf(event.Records);
  // Side by side, so events leave as soon as before. Search postings or trend counts that fail send
  // the whole batch back (indexing again changes nothing, counting again counts nothing twice;
  // events already published go again with the same ids).
  const entries = changes.map((change) => change.entry);
  const [indexed, counting, publishing] = await Promise.allSettled([
    indexChanges(entries),
    countTrends(entries),
    publish(entries.map(eventOf)),
  ]);
  const indexing = indexed.status === 'rejected' ? indexed : counting;
  if (indexing.status === 'fulfilled' && publishing.status === 'fulfilled') return { batchItemFailures: [] };
  const error = publishing.status === 'rejected' ? publishing.reason : (indexing as PromiseRejectedResult).reason;
  const stopped = indexing.status === 'fulfilled' && error instanceof PublishError ? error.published : 0;
  const first = changes[stopped];
  logger.error(
    'publishing events, indexing them for search or counting them for trends failed; the stream will deliver them again',
    {
      unpublished: changes.length - stopped,
      ...errorFields(error),
    },
  );
  return { batchItemFailures: first ? [{ itemIdentifier: first.position }] : [] };
});
