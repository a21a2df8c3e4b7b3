import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { RecordedEntry } from '../../model/history';
import { recordedEntryFrom } from '../item';
import { attr, itemKind } from '../table';

/**
 * Reads the table's change stream. Of everything written, only a new history entry is a change
 * to publish: the action item is state, counters and comments are state beside it, and each of
 * their changes comes with exactly one history entry in the same transaction. So the consumer
 * keeps the INSERT records whose sort key starts with `h#` (in AWS a filter on the event source
 * mapping drops the rest before the function runs) and reads the entry from the new image.
 */

export interface StreamChange {
  /** The record's sequence number: where a retry starts. */
  position: string;
  entry: RecordedEntry;
}

export function changesOf(records: DynamoDBRecord[]): StreamChange[] {
  const changes: StreamChange[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const sortKey = record.dynamodb?.Keys?.[attr.sortKey]?.S;
    if (record.eventName !== 'INSERT' || !image || !sortKey?.startsWith(itemKind.historyPrefix)) continue;
    changes.push({
      position: record.dynamodb?.SequenceNumber ?? '',
      entry: recordedEntryFrom(unmarshall(image as Record<string, AttributeValue>)),
    });
  }
  return changes;
}
