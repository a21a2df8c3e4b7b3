import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnConfigurationSet, CfnConfigurationSetEventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { notificationFunctions } from '../../lib/http/notification-routes';
import type { TableAccess } from '../../lib/http/routes';
import type { ServiceFunction } from './service-function';

/**
 * People are told (contract section 16) in AWS: every published event -> rule -> queue -> the
 * notifier, the one function allowed `ses:SendEmail`, and only from the deployment's verified
 * identity; the same function sends the daily digests on the due-date sweep's interval. SES
 * reports bounces and complaints through a configuration set to an encrypted SNS topic, whose
 * subscriber stops email to those addresses until their person signs in again.
 */

export interface NotificationsProps {
  /** The sender, e.g. `Actions <actions@example.com>`: an address of `identity`. */
  readonly from: string;
  /** The SES identity (a verified domain or email address) the notifier may send as. */
  readonly identity: string;
  readonly eventBus: IEventBus;
  readonly eventSource: string;
  /** How often the digests due are sent (the due-date sweep's interval). */
  readonly interval: Duration;
  /**
   * The console's address, for the links in emails.
   * @default none: emails carry no links (a deployment without the console)
   */
  readonly consoleUrl?: string;
  /** Makes a function of `functions/` with the service's environment and exactly these table calls. */
  readonly handlerFunction: (handler: string, access: readonly TableAccess[], timeout: Duration) => ServiceFunction;
}

/** The notifier's batches: 10 events, each a few store calls and an email; well inside a minute. */
const NOTIFY_TIMEOUT = Duration.seconds(60);

export class ServiceNotifications extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly notifier: ServiceFunction;
  readonly feedbackTopic: Topic;
  readonly configurationSet: CfnConfigurationSet;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    const { account, region, partition } = Stack.of(this);
    this.configurationSet = new CfnConfigurationSet(this, 'ConfigurationSet', {});

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(NOTIFY_TIMEOUT.toSeconds() * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SES throttling the SDK could not ride out comes back this many times before it waits here.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    new Rule(this, 'PublishedEvents', {
      eventBus: props.eventBus,
      description: 'Every event the service publishes, to the notifier',
      eventPattern: { source: [props.eventSource] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue })],
    });

    const { notify, feedback } = notificationFunctions;
    this.notifier = props.handlerFunction(notify.handler, notify.access, NOTIFY_TIMEOUT);
    const fn = this.notifier.function;
    fn.addEnvironment('NOTIFICATIONS_FROM', props.from);
    fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.ref);
    if (props.consoleUrl) fn.addEnvironment('CONSOLE_URL', props.consoleUrl);
    fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
      }),
    );
    // Only the notifier sends, only as the deployment's identity, only through its configuration set.
    this.notifier.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          `arn:${partition}:ses:${region}:${account}:identity/${props.identity}`,
          `arn:${partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.ref}`,
        ],
      }),
    );
    new Rule(this, 'Digests', {
      description: 'Sends the daily digests that are due (contract section 16)',
      schedule: Schedule.rate(props.interval),
      targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
    });

    // Bounces and complaints: SES -> an encrypted topic -> recordEmailFeedback.
    const key = new Key(this, 'FeedbackKey', {
      enableKeyRotation: true,
      description: 'Encrypts the SES bounce and complaint notices (they name email addresses)',
    });
    key.grant(new ServicePrincipal('ses.amazonaws.com'), 'kms:GenerateDataKey*', 'kms:Decrypt');
    this.feedbackTopic = new Topic(this, 'Feedback', { masterKey: key, enforceSSL: true });
    this.feedbackTopic.addToResourcePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        resources: [this.feedbackTopic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    const destination = new CfnConfigurationSetEventDestination(this, 'FeedbackDestination', {
      configurationSetName: this.configurationSet.ref,
      eventDestination: {
        enabled: true,
        matchingEventTypes: ['bounce', 'complaint'],
        snsDestination: { topicArn: this.feedbackTopic.topicArn },
      },
    });
    destination.node.addDependency(this.feedbackTopic);
    const recorder = props.handlerFunction(feedback.handler, feedback.access, Duration.seconds(30));
    this.feedbackTopic.addSubscription(new LambdaSubscription(recorder.function));
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is a dead-letter queue: the notifier queue's and the rule's.",
    });
  }
}
