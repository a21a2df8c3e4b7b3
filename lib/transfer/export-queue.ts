import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { SQSEvent } from 'aws-lambda';
import { getConfig, getExportSettings } from '../config';
import { ServiceUnavailableError } from '../errors';
import { errorFields, logger } from '../logger';

/**
 * How an export run is asked for: asking for an export, and a run handing an unfinished one on.
 * In AWS one event on the service's bus (source `<EVENT_SOURCE>.exports`, so no rule for the
 * service's own events takes it), which a rule puts on the export queue that drives the worker
 * (`infra/cdk/transfer.ts`). Locally (`EXPORT_QUEUE=local`) a queue in this process hands the same
 * SQS-shaped message to the same worker handler, and gives a failed one back after a pause, as
 * SQS does after the visibility timeout.
 */

export interface ExportJob {
  ownerId: string;
  id: string;
}

export const EXPORT_REQUESTED = 'ExportRequested';

let eventBridge: EventBridgeClient | undefined;

export async function enqueueExport(job: ExportJob): Promise<void> {
  const config = getConfig();
  if (getExportSettings().queue === 'local') {
    localQueue.add(job);
    return;
  }
  if (!config.eventBusName) throw new ServiceUnavailableError('job queue');
  eventBridge ??= new EventBridgeClient({ region: config.region });
  try {
    const result = await eventBridge.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: config.eventBusName,
            Source: `${config.eventSource}.exports`,
            DetailType: EXPORT_REQUESTED,
            Detail: JSON.stringify(job),
          },
        ],
      }),
    );
    if (result.FailedEntryCount) throw new Error(result.Entries?.[0]?.ErrorMessage ?? 'PutEvents failed');
  } catch (error) {
    throw new ServiceUnavailableError('job queue', 2, { cause: error });
  }
}

/** The jobs of an SQS batch of bus events: each record's body is the event, its detail the job. */
export function jobsOf(event: SQSEvent): Array<{ messageId: string; job: ExportJob | undefined }> {
  return event.Records.map((record) => {
    try {
      const detail = (JSON.parse(record.body) as { detail?: Partial<ExportJob> }).detail;
      const valid = typeof detail?.ownerId === 'string' && typeof detail.id === 'string';
      return { messageId: record.messageId, job: valid ? (detail as ExportJob) : undefined };
    } catch {
      return { messageId: record.messageId, job: undefined };
    }
  });
}

/** The local queue's consumer: the worker handler, given an SQS event of one message. */
export type LocalConsumer = (event: SQSEvent) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

/** A failed message comes back after this pause (SQS: after the queue's visibility timeout). */
const LOCAL_RETRY_MS = 250;
/** Then, like the queue's dead-letter redrive, it is dropped after this many receives. */
const LOCAL_MAX_RECEIVES = 5;

const localQueue = {
  waiting: [] as Array<{ job: ExportJob; receives: number }>,
  consumer: undefined as LocalConsumer | undefined,
  running: undefined as Promise<void> | undefined,
  add(job: ExportJob, receives = 0) {
    this.waiting.push({ job, receives });
    this.drain();
  },
  drain() {
    if (this.running || !this.consumer) return;
    const consumer = this.consumer;
    this.running = (async () => {
      for (let next = this.waiting.shift(); next && this.consumer; next = this.waiting.shift()) {
        const messageId = crypto.randomUUID();
        const body = JSON.stringify({ 'detail-type': EXPORT_REQUESTED, detail: next.job });
        const answer = await consumer({ Records: [{ messageId, body }] } as unknown as SQSEvent).catch(
          (error: unknown) => {
            logger.warn('local export queue: run failed', errorFields(error));
            return { batchItemFailures: [{ itemIdentifier: messageId }] };
          },
        );
        if (answer.batchItemFailures.length > 0 && next.receives + 1 < LOCAL_MAX_RECEIVES) {
          const again = { job: next.job, receives: next.receives + 1 };
          setTimeout(() => this.add(again.job, again.receives), LOCAL_RETRY_MS).unref();
        }
      }
    })().finally(() => {
      this.running = undefined;
      if (this.waiting.length > 0) this.drain();
    });
  },
};

/** Starts handing local jobs to `consumer` (the local stack's worker); stop waits for the run under way. */
export function consumeLocally(consumer: LocalConsumer): { stop(): Promise<void> } {
  localQueue.consumer = consumer;
  localQueue.drain();
  return {
    stop: async () => {
      localQueue.consumer = undefined;
      await localQueue.running;
    },
  };
}
