import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { backoff } from '../../lib/flow/retry';
import { localClient } from './store';

/**
 * The local stand-in for Lambda's DynamoDB event source mapping: it reads DynamoDB Local's
 * stream of the table and hands each batch of records to the very consumer AWS runs
 * (`functions/publishEvents.ts`). Its position is kept in a file under DATA_DIR after each batch
 * the consumer accepted, so after a crash or a restart it resumes where it stopped: a batch may
 * be delivered again (at least once), none is skipped. When the consumer reports a failure it
 * waits and reads again from the first record that failed.
 */

type Consumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;

interface Positions {
  streamArn: string;
  /** Shard id -> the sequence number of the last record the consumer accepted. */
  shards: Record<string, string>;
  /** Shards read to their end. */
  closed: string[];
}

export interface StreamReader {
  stop(): Promise<void>;
}

const POLL_MS = 100;
/** How often the shard list is read again while no shard ends. */
const SHARD_LIST_MS = 1_000;
const MAX_BACKOFF_MS = 2_000;

function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime
        ? Math.floor(d.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      Keys: d.Keys as never,
      NewImage: d.NewImage as never,
      OldImage: d.OldImage as never,
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
  };
}

export function startStreamReader(options: {
  endpoint: string;
  tableName: string;
  positionFile: string;
  consumer: Consumer;
  onError?: (error: unknown) => void;
}): StreamReader {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const iterators = new Map<string, string>();
  let stopped = false;
  let failures = 0;

  const save = (positions: Positions) => {
    const temporary = `${options.positionFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(positions), { mode: 0o600 });
    renameSync(temporary, options.positionFile);
  };

  const load = (streamArn: string): Positions => {
    if (existsSync(options.positionFile)) {
      const saved = JSON.parse(readFileSync(options.positionFile, 'utf8')) as Positions;
      // Another stream (a new in-memory table) starts from its beginning.
      if (saved.streamArn === streamArn) return saved;
    }
    return { streamArn, shards: {}, closed: [] };
  };

  async function listShards(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      shards.push(...(page.StreamDescription?.Shards ?? []));
      start = page.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  /** Reads one batch of one shard; `true` when it delivered anything. */
  async function readShard(positions: Positions, streamArn: string, shard: Shard): Promise<boolean> {
    const shardId = shard.ShardId as string;
    let iterator = iterators.get(shardId);
    if (!iterator) {
      const last = positions.shards[shardId];
      const answer = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(last
            ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last }
            : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      iterator = answer.ShardIterator as string;
    }
    let page: GetRecordsCommandOutput;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
    } catch (error) {
      iterators.delete(shardId);
      if (error instanceof ExpiredIteratorException) return false;
      throw error;
    }
    const records = (page.Records ?? []).map((r) => toLambdaRecord(r, streamArn));
    if (records.length > 0) {
      const answer = await options.consumer({ Records: records });
      const failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
      const failedAt = records.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
      const accepted = failed === undefined ? records : records.slice(0, Math.max(0, failedAt));
      const last = accepted[accepted.length - 1]?.dynamodb?.SequenceNumber;
      if (last) positions.shards[shardId] = last;
      if (failed !== undefined) {
        // Read again from the first failed record, after a pause that grows while it keeps failing.
        iterators.delete(shardId);
        save(positions);
        failures++;
        await backoff(failures, MAX_BACKOFF_MS, 100);
        return true;
      }
      failures = 0;
    }
    if (page.NextShardIterator) iterators.set(shardId, page.NextShardIterator);
    else {
      iterators.delete(shardId);
      positions.closed.push(shardId);
    }
    if (records.length > 0 || !page.NextShardIterator) save(positions);
    return records.length > 0;
  }

  async function run() {
    const table = await localClient(options.endpoint).send(new DescribeTableCommand({ TableName: options.tableName }));
    const streamArn = table.Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);
    const positions = load(streamArn);
    let shards: Shard[] = [];
    let listedAt = 0;
    while (!stopped) {
      let delivered = false;
      // A stream's shards change only when one ends and its children begin: listed again when one
      // was read to its end, and otherwise once in SHARD_LIST_MS, not on every poll (a quiet stack
      // made 20 calls a second to its store, half of them this list, as it waited for writes).
      if (Date.now() - listedAt >= SHARD_LIST_MS) {
        shards = await listShards(streamArn);
        listedAt = Date.now();
      }
      const closedBefore = positions.closed.length;
      const known = new Set(shards.map((s) => s.ShardId));
      for (const shard of shards) {
        if (stopped || positions.closed.includes(shard.ShardId as string)) continue;
        // A child shard is read only after its parent is read to the end, so per item the order holds.
        const parent = shard.ParentShardId;
        if (parent && known.has(parent) && !positions.closed.includes(parent)) continue;
        delivered = (await readShard(positions, streamArn, shard)) || delivered;
      }
      if (positions.closed.length !== closedBefore) listedAt = 0;
      if (!delivered && !stopped) await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  const running = (async () => {
    while (!stopped) {
      try {
        await run();
      } catch (error) {
        if (stopped) return;
        options.onError?.(error);
        iterators.clear();
        await new Promise((r) => setTimeout(r, MAX_BACKOFF_MS));
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await running;
      streams.destroy();
    },
  };
}
