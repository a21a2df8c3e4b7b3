import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { webhookFunctions } from '../../lib/http/routes';
import type { EventOptions } from './events';
import type { HandlerFunction, ServiceFunction } from './service-function';

/**
 * Webhooks in AWS (contract section 9): every event the service publishes -> rule -> queue ->
 * deliverWebhooks, which stores one delivery per subscription naming its type and makes each
 * first attempt. Retries, redeliveries and pings are due items in the table that sweepWebhooks
 * runs: started every minute, it sweeps every second for most of that minute. No VPC: the
 * functions reach the receivers over the internet and nothing else; lib/webhooks/send.ts refuses
 * private addresses. Built in the service's own scope, so its logical IDs are the ones a deployed
 * stack has (see `infra/cdk/api.ts`).
 */

/** First attempts run in parallel, each at most 10 seconds, plus storing them. */
const DELIVER_TIMEOUT = Duration.seconds(30);
/** A sweep runs for 50 seconds and lets its last attempts (10 seconds each) finish. */
const WEBHOOK_SWEEP_TIMEOUT = Duration.seconds(75);

export interface ServiceWebhooksProps extends EventOptions {
  /** The bus the service publishes its events to: the rule takes every event of `eventSource`. */
  readonly eventBus: IEventBus;
  /** Makes deliverWebhooks and sweepWebhooks with the service's environment and their table calls. */
  readonly handlerFunction: HandlerFunction;
}

export class ServiceWebhooks {
  /** Published events on their way to webhook delivery. */
  readonly queue: Queue;
  /** Published events whose webhook deliveries could not be stored. */
  readonly deadLetterQueue: Queue;
  readonly deliver: ServiceFunction;
  readonly sweep: ServiceFunction;

  constructor(scope: Construct, props: ServiceWebhooksProps) {
    this.deadLetterQueue = new Queue(scope, 'WebhookDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(scope, 'WebhookQueue', {
      visibilityTimeout: Duration.seconds(DELIVER_TIMEOUT.toSeconds() * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    new Rule(scope, 'PublishedEvents', {
      eventBus: props.eventBus,
      description: 'Every event the service publishes, to webhook delivery',
      eventPattern: { source: [props.eventSource ?? 'action-tracking'] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue })],
    });
    const { deliver, sweep } = webhookFunctions;
    this.deliver = props.handlerFunction(deliver.handler, deliver.access, DELIVER_TIMEOUT);
    this.deliver.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
      }),
    );
    this.sweep = props.handlerFunction(sweep.handler, sweep.access, WEBHOOK_SWEEP_TIMEOUT);
    new Rule(scope, 'SweepWebhooks', {
      description: 'Runs the webhook attempts due (retries, redeliveries, pings)',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.sweep.function, { retryAttempts: 0 })],
    });
  }
}
