import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EXPORTS_PREFIX, exportWorker } from '../../lib/http/export-routes';
import type { PostingsAccess, TableAccess } from '../../lib/http/routes';
import { EXPORT_REQUESTED } from '../../lib/transfer/export-queue';
import type { ServiceFunction } from './service-function';

/**
 * Getting data out (contract section 18) in AWS: asking for an export puts one event on the
 * service's bus (source `<eventSource>.exports`), a rule puts it on the export queue, and the
 * queue drives the worker, one export a message. A run that has written for its slice hands the
 * export on with another event; a run that fails is retried by the queue from the last part stored,
 * and a message that keeps failing waits in the dead-letter queue. Files go to the evidence bucket
 * under `exports/`, expired after 7 days by a lifecycle rule on that prefix.
 *
 * A queue rather than Step Functions: each run already keeps its whole state (upload id, parts,
 * cursor) in the export's record, so a run needs only "start this export" to be delivered at least
 * once and retried on failure, which is what a queue with a dead-letter queue does; a state
 * machine would add a second place holding the same state, and a cost per transition.
 */

export interface TransferProps {
  /** The evidence bucket: exports take its `exports/` prefix. */
  readonly bucket: Bucket;
  readonly eventBus: IEventBus;
  readonly eventSource: string;
  /**
   * The console's address, for each row's `url`.
   * @default none: rows carry no `url` (a deployment without the console)
   */
  readonly consoleUrl?: string;
  /** The route functions, by handler (`createExport` puts its event on the bus). */
  readonly functions: Record<string, ServiceFunction>;
  /** Makes a function of `functions/` with the service's environment and exactly these table calls. */
  readonly handlerFunction: (
    handler: string,
    access: readonly TableAccess[],
    timeout: Duration,
    postings: readonly PostingsAccess[],
  ) => ServiceFunction;
}

/** Lambda's longest: an XLSX file is written in one run. */
const WORKER_TIMEOUT = Duration.minutes(15);

export class ServiceTransfer extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: TransferProps) {
    super(scope, id);
    const source = `${props.eventSource}.exports`;
    props.bucket.addLifecycleRule({ id: 'exports', prefix: EXPORTS_PREFIX, expiration: Duration.days(7) });

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Queue', {
      // A failed run's message comes back a minute after the longest run could have ended.
      visibilityTimeout: WORKER_TIMEOUT.plus(Duration.minutes(1)),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The worker gives an export up after 3 failed runs in a row; past 5 receives it waits here.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    new Rule(this, 'ExportRequested', {
      eventBus: props.eventBus,
      description: 'Exports asked for and handed on, to the export queue (contract section 18)',
      eventPattern: { source: [source], detailType: [EXPORT_REQUESTED] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue })],
    });

    const { handler, access, postings, storage } = exportWorker;
    this.worker = props.handlerFunction(handler, access, WORKER_TIMEOUT, postings);
    const fn = this.worker.function;
    fn.addEnvironment('EVIDENCE_BUCKET', props.bucket.bucketName);
    if (props.consoleUrl) fn.addEnvironment('CONSOLE_URL', props.consoleUrl);
    fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
    for (const { prefix, actions } of storage)
      this.worker.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...actions], resources: [`${props.bucket.bucketArn}/${prefix}*`] }),
      );
    Validations.of(this.worker.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.logicalIdOf(props.bucket)}.Arn>/${EXPORTS_PREFIX}*]`,
      reason: 'Export files are named by their export: the worker writes the exports prefix only.',
    });

    // Asking for an export and handing one on put one event, of this source only, on the bus.
    for (const putter of [this.worker, props.functions.createExport]) {
      if (!putter) continue;
      putter.function.addEnvironment('EVENT_BUS_NAME', props.eventBus.eventBusName);
      putter.function.addEnvironment('EVENT_SOURCE', props.eventSource);
      putter.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['events:PutEvents'],
          resources: [props.eventBus.eventBusArn],
          conditions: { StringEquals: { 'events:source': source } },
        }),
      );
    }
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is a dead-letter queue: the export queue's and the rule's.",
    });
  }

  private logicalIdOf(bucket: Bucket): string {
    const stack = Stack.of(this);
    return stack.resolve(stack.getLogicalId(bucket.node.defaultChild as never)) as string;
  }
}
