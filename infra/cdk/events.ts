import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { streamFunction } from '../../lib/http/routes';
import { itemKind, sortKey } from '../../lib/store/table';
import { ServiceFunction } from './service-function';

/**
 * Change events in AWS (contract section 6): events leave from the table's stream, each new
 * history entry one event, published by the one function allowed to put events on the bus. Per
 * action, records arrive in version order (one shard per partition, one batch at a time per
 * shard); a batch that fails is split to find the record that fails, retried, and past the
 * retries sent to the dead-letter queue returned. Built in the service's own scope, so its
 * logical IDs are the ones a deployed stack has (see `infra/cdk/api.ts`).
 */

/** The props of `ActionTrackingService` about the events it publishes (webhooks and email take them too). */
export interface EventOptions {
  /**
   * `source` of the events the service publishes (`EVENT_SOURCE`).
   *
   * @default 'action-tracking'
   */
  readonly eventSource?: string;
}

export interface EventPublisherProps extends EventOptions {
  /** The service's table, whose stream the publisher reads. */
  readonly table: ITable;
  /** The bus the events are published to. */
  readonly eventBus: IEventBus;
  /** The table calls the publisher makes besides putting events (indexing for search), as statements. */
  readonly permissions: readonly PolicyStatement[];
  /** What every handler of `functions/` is given: indexing for search reads the tables' names. */
  readonly environment: Readonly<Record<string, string>>;
  /** Retention of the publisher's logs. */
  readonly logRetention: RetentionDays;
}

export class EventPublisher {
  /** publishEvents. */
  readonly function: ServiceFunction;
  /** Stream batches the publisher gave up on (their records, to replay). */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, props: EventPublisherProps) {
    this.deadLetterQueue = new Queue(scope, 'EventsDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is a dead-letter queue: the stream event source mapping's on-failure destination.",
    });
    this.function = new ServiceFunction(scope, streamFunction.handler, {
      handler: streamFunction.handler,
      permissions: [
        new PolicyStatement({ actions: ['events:PutEvents'], resources: [props.eventBus.eventBusArn] }),
        ...props.permissions,
      ],
      environment: {
        ...props.environment,
        EVENT_BUS_NAME: props.eventBus.eventBusName,
        EVENT_SOURCE: props.eventSource ?? 'action-tracking',
      },
      timeout: Duration.seconds(60),
      logRetention: props.logRetention,
    });
    this.function.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetterQueue),
        // Only new history entries are changes to publish; the action, counter and comment items are state.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { [sortKey.name]: { S: [{ prefix: itemKind.historyPrefix }] } } },
          }),
        ],
      }),
    );
  }
}
