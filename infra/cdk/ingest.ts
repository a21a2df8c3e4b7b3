import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ingestFunction } from '../../lib/http/routes';
import type { ServiceFunction } from './service-function';

/**
 * Ingest in AWS (contract section 4): producers' `ActionRequested` events -> rule -> queue ->
 * ingestActions, with a dead-letter queue for what could not be ingested. Built in the service's
 * own scope, so its logical IDs are the ones a deployed stack has (see `infra/cdk/api.ts`).
 */

/** A batch of 10 events, each a create. */
export const INGEST_TIMEOUT = Duration.seconds(30);

/** The props of `ActionTrackingService` about ingest. */
export interface IngestOptions {
  /**
   * `source` values of the producer events ingested: the rule routes only these, and the function
   * refuses any other, whatever the way in (`PRODUCER_SOURCES`).
   *
   * @default - any source
   */
  readonly producerSources?: readonly string[];
}

export interface ServiceIngestProps extends IngestOptions {
  /** The bus producers put `ActionRequested` on. */
  readonly eventBus: IEventBus;
  /** The ingestActions function (made with the others, before the API, so it keeps its place). */
  readonly function: ServiceFunction;
}

export class ServiceIngest {
  /** Producer events on their way to ingestActions. */
  readonly queue: Queue;
  /** Producer events that could not be ingested. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, props: ServiceIngestProps) {
    const producerSources = props.producerSources ? [...props.producerSources] : undefined;
    this.deadLetterQueue = new Queue(scope, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(scope, 'IngestQueue', {
      // AWS's advice for Lambda consumers: six times the function timeout, so a retried batch is not redelivered mid-flight.
      visibilityTimeout: Duration.seconds(INGEST_TIMEOUT.toSeconds() * 6),
      // SQS-managed keys: EventBridge cannot deliver to a queue encrypted with the AWS managed KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: ingestFunction.maxReceives },
    });
    new Rule(scope, 'ActionRequested', {
      eventBus: props.eventBus,
      description: 'Producer events that ask for an action, to the ingest queue',
      eventPattern: {
        detailType: ['ActionRequested'],
        ...(producerSources ? { source: producerSources } : {}),
      },
      // Events EventBridge cannot deliver land in the same dead-letter queue as those ingest gives up on.
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue })],
    });
    const fn = props.function.function;
    if (producerSources) fn.addEnvironment('PRODUCER_SOURCES', producerSources.join(','));
    fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));
  }
}
