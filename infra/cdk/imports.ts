import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { IMPORTS_PREFIX } from '../../lib/http/evidence-routes';
import { importFunction } from '../../lib/http/import-routes';
import type { TableAccess } from '../../lib/http/routes';
import { ACTIONS_IMPORTED } from '../../lib/notifications/imported';
import { IMPORT_QUEUED, importEventSource } from '../../lib/transfer/import/queue';
import type { EvidenceStorage } from './evidence';
import type { ServiceNotifications } from './notifications';
import type { ServiceFunction } from './service-function';

/**
 * Imports in AWS (contract section 18): `POST /api/imports` puts an `ImportQueued` event on the
 * service's bus; a rule sends it to the imports queue, which drives the worker one import at a
 * time. An invocation that runs out of time (15 minutes) or meets a busy store reports its message
 * as failed, so the queue delivers it again after the visibility timeout and the worker resumes
 * from its last saved row; after `maxReceives` deliveries it waits in the dead-letter queue.
 * Files and problem reports live under `imports/` in the evidence bucket, deleted after 7 days by
 * a lifecycle rule; the records expire after 7 days through the table's TTL. Least privilege: the
 * worker reads and writes only that prefix and the table calls `importFunction` lists, and puts
 * only its own source's events on the bus: one `ActionsImported` per assignee, which a rule
 * hands to the notifier's queue (with email on). The notifier is the one sender; the worker has
 * no SES rights.
 */

export interface ImportsProps {
  readonly eventBus: IEventBus;
  /** The service's event source; imports use `<source>.imports`, which no other rule matches. */
  readonly eventSource: string;
  readonly evidence: EvidenceStorage;
  /** The route functions, by handler: `createImport` gets to put the event. */
  readonly functions: Record<string, ServiceFunction>;
  /** Makes a function of `functions/` with the service's environment and exactly these table calls. */
  readonly handlerFunction: (handler: string, access: readonly TableAccess[], timeout: Duration) => ServiceFunction;
  /**
   * The notifier, when the deployment sends email: its queue takes the import's notices to assignees.
   * @default none: an import tells no one
   */
  readonly notifications?: ServiceNotifications;
}

/** A worker invocation: Lambda's longest. The queue hides a message a little longer than that. */
const WORKER_TIMEOUT = Duration.minutes(15);

export class ServiceImports extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: ImportsProps) {
    super(scope, id);
    props.evidence.bucket.addLifecycleRule({ id: 'imports', prefix: IMPORTS_PREFIX, expiration: Duration.days(7) });

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: WORKER_TIMEOUT.plus(Duration.minutes(1)),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: importFunction.maxReceives },
    });
    new Rule(this, 'Queued', {
      eventBus: props.eventBus,
      description: 'Imports asked for (POST /api/imports), to the import worker',
      eventPattern: { source: [importEventSource(props.eventSource)], detailType: [IMPORT_QUEUED] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue })],
    });

    const start = props.functions.createImport;
    if (start) {
      // Only its own source: no request path can put an ActionRequested or any other event.
      start.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['events:PutEvents'],
          resources: [props.eventBus.eventBusArn],
          conditions: { StringEquals: { 'events:source': importEventSource(props.eventSource) } },
        }),
      );
      start.function.addEnvironment('EVENT_BUS_NAME', props.eventBus.eventBusName);
      start.function.addEnvironment('EVENT_SOURCE', props.eventSource);
    }

    this.worker = props.handlerFunction(importFunction.handler, importFunction.access, WORKER_TIMEOUT);
    const fn = this.worker.function;
    for (const [name, value] of Object.entries(props.evidence.environment)) fn.addEnvironment(name, value);
    fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
    for (const { prefix, actions } of importFunction.storage)
      this.worker.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...actions], resources: [`${props.evidence.bucket.bucketArn}/${prefix}*`] }),
      );
    const bucketId = Stack.of(this).resolve(
      Stack.of(this).getLogicalId(props.evidence.bucket.node.defaultChild as never),
    ) as string;
    Validations.of(this.worker.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${IMPORTS_PREFIX}*]`,
      reason: 'Imported files have no fixed names: the worker reads and writes the imports prefix only.',
    });
    // The worker tells assignees through the notifier: it may put only its own source's events
    // (`ActionsImported`, and nothing another rule takes for a change or a producer's request),
    // and sends no email itself.
    this.worker.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['events:PutEvents'],
        resources: [props.eventBus.eventBusArn],
        conditions: { StringEquals: { 'events:source': importEventSource(props.eventSource) } },
      }),
    );
    fn.addEnvironment('EVENT_BUS_NAME', props.eventBus.eventBusName);
    fn.addEnvironment('EVENT_SOURCE', props.eventSource);
    if (props.notifications)
      new Rule(this, 'Assigned', {
        eventBus: props.eventBus,
        description: "An import's notices to its assignees (one per assignee), to the notifier",
        eventPattern: { source: [importEventSource(props.eventSource)], detailType: [ACTIONS_IMPORTED] },
        targets: [new SqsQueue(props.notifications.queue, { deadLetterQueue: props.notifications.deadLetterQueue })],
      });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is a dead-letter queue: the imports queue's and the rule's.",
    });
  }
}
