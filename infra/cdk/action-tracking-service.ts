import { Duration, Lazy, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  type HttpStage,
  LogGroupLogDestination,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import {
  AccountRecovery,
  ClientAttributes,
  type IUserPool,
  type IUserPoolClient,
  Mfa,
  UserPool,
} from 'aws-cdk-lib/aws-cognito';
import {
  AttributeType,
  BillingMode,
  type ITable,
  Operation,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from '../../lib/api-docs/docs-assets';
import { SCAN_RESULT_DETAIL_TYPE } from '../../lib/evidence/scan-results';
import { ATTACHMENTS_PREFIX } from '../../lib/http/evidence-routes';
import {
  EDGE_ACCESS,
  fallbackRoute,
  ingestFunction,
  type PostingsAccess,
  routes,
  scanResultFunction,
  streamFunction,
  sweepFunction,
  type TableAccess,
  webhookFunctions,
} from '../../lib/http/routes';
import { indexList } from '../../lib/store/indexes';
import { attr, itemKind, type KeyType, sortKey, tableKey } from '../../lib/store/table';
import { type ConsoleOptions, ServiceConsole } from './console';
import { type EvidenceOptions, EvidenceStorage } from './evidence';
import { ServiceNotifications } from './notifications';
import { type FilesBesideBundle, ServiceFunction } from './service-function';
import { ServiceTransfer } from './transfer';

export interface ActionTrackingServiceProps {
  /**
   * Bring your own table: it must have the key schema, indexes and stream (new and old images)
   * of `lib/store/table.ts` and `lib/store/indexes.ts`, as `ActionTrackingService.defineTable` makes them. Default: a new
   * table (on-demand, point-in-time recovery, deletion protection per `deletionProtection`).
   */
  table?: ITable;
  /**
   * Bring your own search postings' table: `id` and `sk` string keys and nothing else, as
   * `ActionTrackingService.definePostingsTable` makes it. Default: a new table (on-demand,
   * point-in-time recovery, deletion protection per `deletionProtection`).
   */
  postingsTable?: ITable;
  /** A user pool whose ID tokens the API accepts. Default: a new pool. */
  userPool?: IUserPool;
  /** An app client of `userPool` (only with `userPool`). Default: a new client of the pool. */
  userPoolClient?: IUserPoolClient;
  /** The bus producers put `ActionRequested` on and the service publishes to. Default: a new bus. */
  eventBus?: IEventBus;
  /** `source` values of the producer events ingested. Default: any source. */
  producerSources?: string[];
  /** What deleting the stack does to the table and a created user pool. Default: `RETAIN`. */
  removalPolicy?: RemovalPolicy;
  /** Deletion protection on a created table and user pool. Default: on. */
  deletionProtection?: boolean;
  /** CORS for browser clients. Default: none (same-origin or server-side callers only). */
  cors?: CorsPreflightOptions;
  /** Stage-wide request rate and burst. Default: 100 requests/second, bursts of 200. */
  throttle?: Required<ThrottleSettings>;
  /**
   * Rate and burst of each public route (the API description, the docs, and `$default`, which
   * answers unknown paths), route by route, so anonymous traffic cannot spend the authenticated
   * routes' throttle. Default: 10 requests/second, bursts of 20.
   */
  publicThrottle?: Required<ThrottleSettings>;
  /** Requests one caller (token `sub`) may make a minute (`RATE_LIMIT_REQUESTS`). Default: 600. */
  rateLimitRequests?: number;
  /** Index entries one caller's lists may read a minute (`RATE_LIMIT_READS`). Default: 2,000,000. */
  rateLimitReads?: number;
  /** The most index entries one list may read (`LIST_READ_BUDGET`). Default: 200,000. */
  listReadBudget?: number;
  /**
   * Reserved concurrency by handler name, e.g. `{ listActions: 20, getAction: 20 }`: a function
   * with some always has them, and never more. Default: none reserved (a new account has about
   * 10 of its 1,000 to spare, and reserving takes them from every other function).
   */
  reservedConcurrency?: Partial<Record<string, number>>;
  /** JSON access logs of the API stage. Default: on. */
  accessLogs?: boolean;
  /** Retention of function and access logs. Default: one month. */
  logRetention?: RetentionDays;
  /** `source` of the events the service publishes. Default: `action-tracking`. */
  eventSource?: string;
  /** Where alarms notify. Default: nowhere (the alarms are still visible in CloudWatch). */
  alarmTopic?: ITopic;
  /** Statuses that close an action: closed actions get no reminders and are never overdue. Default: `[3, 4]`. */
  closedStatuses?: number[];
  /** How many hours before `dueAt` an open action is due soon (decimals allowed). Default: 24. */
  dueSoonHours?: number;
  /** How many hours after `dueAt` an overdue action is escalated (decimals allowed). Default: 168. */
  escalateAfterHours?: number;
  /** How often the due-date sweep runs (EventBridge Scheduler: at least a minute). Default: every minute. */
  reminderInterval?: Duration;
  /** Who sees what (README "Who sees what"): `open`, everyone sees every action, or `scoped`, by grants. Default: `open`. */
  access?: 'open' | 'scoped';
  /** The Cognito group whose members are admin of every scope. Default: `action-admins`. */
  adminGroup?: string;
  /**
   * The console (contract section 13): its files in S3 behind CloudFront, with `/api/*` and
   * `/docs*` passed to the API on the same origin, and sign-in by Cognito managed login (a public
   * app client and a domain of `userPool`). Default: on; `false` leaves all of it out.
   */
  console?: boolean | ConsoleOptions;
  /** GuardDuty Malware Protection for S3 on the evidence bucket (contract section 15). Default: on. */
  malwareScan?: boolean;
  /** Evidence limits and rules (`infra/cdk/evidence.ts`). Default: its defaults. */
  evidence?: Omit<EvidenceOptions, 'removalPolicy' | 'malwareScan'>;
  /**
   * Email to people (contract section 16): the sender, e.g. `Actions <actions@example.com>`, an
   * address of `notificationsIdentity`, verified in SES. Default: none, and email is off.
   */
  notificationsFrom?: string;
  /** The SES identity (verified domain or address) the notifier sends as. Default: the domain of `notificationsFrom`. */
  notificationsIdentity?: string;
}

const attributeType: Record<KeyType, AttributeType> = { S: AttributeType.STRING, N: AttributeType.NUMBER };
const operation: Record<TableAccess, Operation> = {
  GetItem: Operation.GET_ITEM,
  PutItem: Operation.PUT_ITEM,
  UpdateItem: Operation.UPDATE_ITEM,
  DeleteItem: Operation.DELETE_ITEM,
  Query: Operation.QUERY,
  QueryTable: Operation.QUERY,
  BatchGetItem: Operation.BATCH_GET_ITEM,
  BatchWriteItem: Operation.BATCH_WRITE_ITEM,
};

/** Files handlers read beside their bundle: functions/docs.ts serves Swagger UI's from `swagger-ui/`. */
const filesBesideBundle: Record<string, FilesBesideBundle> = {
  docs: {
    from: `node_modules/${docsAssetsPackage}`,
    to: docsAssetsDirectory,
    files: Object.keys(docsAssets),
  },
};

const API_TIMEOUT = Duration.seconds(10);
/** Request headers the API reads, so a browser client may send them across origins. */
const CORS_REQUEST_HEADERS = ['authorization', 'content-type', 'if-match', 'idempotency-key'];
const INGEST_TIMEOUT = Duration.seconds(30);
/** The sweep stops starting reminders after 40 s (functions/sweepDueDates.ts); a minute leaves room to finish. */
const DUE_DATE_SWEEP_TIMEOUT = Duration.seconds(60);
/** First attempts run in parallel, each at most 10 seconds, plus storing them. */
const DELIVER_TIMEOUT = Duration.seconds(30);
/** A sweep runs for 50 seconds and lets its last attempts (10 seconds each) finish. */
const WEBHOOK_SWEEP_TIMEOUT = Duration.seconds(75);

/**
 * The action tracking service on AWS: the DynamoDB table as `lib/store/table.ts` describes it,
 * one Lambda function per handler, an HTTP API with exactly the routes of `lib/http/routes.ts`
 * behind a Cognito JWT authorizer, the EventBridge bus with the `ActionRequested` ingest path,
 * and alarms. Each function may make only the DynamoDB calls its route lists.
 */
export class ActionTrackingService extends Construct {
  readonly table: ITable;
  /** The search postings (`lib/store/search/postings.ts`): keys only, no index, no stream. */
  readonly postingsTable: ITable;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly eventBus: IEventBus;
  readonly ingestQueue: Queue;
  /** Producer events that could not be ingested. */
  readonly deadLetterQueue: Queue;
  /** Stream batches the event publisher gave up on (their records, to replay). */
  readonly eventsDeadLetterQueue: Queue;
  /** Runs the due-date sweep every `reminderInterval`. */
  readonly reminderSchedule: CfnSchedule;
  /** Published events on their way to webhook delivery. */
  readonly webhookQueue: Queue;
  /** Published events whose webhook deliveries could not be stored. */
  readonly webhookDeadLetterQueue: Queue;
  /** Every function, by handler name. */
  readonly functions: Record<string, ServiceFunction> = {};
  readonly alarms: Alarm[] = [];
  /** The API's base URL. */
  readonly url: string;
  /** The evidence bucket and its malware scanning. */
  readonly evidence: EvidenceStorage;
  /** The console, unless the `console` prop is `false`. */
  readonly console?: ServiceConsole;
  /** Email to people, when `notificationsFrom` is set. */
  readonly notifications?: ServiceNotifications;
  /** Exports: their queue and worker (infra/cdk/transfer.ts). */
  readonly transfer: ServiceTransfer;
  /** The app clients whose ID tokens the API accepts: the service's, and the console's. */
  private readonly audience: IUserPoolClient[];
  /** What every handler of `functions/` is given: the table, the pool, the limits and the due-date settings. */
  private readonly environment: Record<string, string>;
  private readonly logRetention: RetentionDays;
  private readonly reservedConcurrency: Partial<Record<string, number>>;

  constructor(scope: Construct, id: string, props: ActionTrackingServiceProps = {}) {
    super(scope, id);
    const reminderInterval = checkedReminderInterval(props);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const deletionProtection = props.deletionProtection ?? true;
    this.logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.table = props.table ?? ActionTrackingService.defineTable(this, 'Table', { removalPolicy, deletionProtection });
    this.postingsTable =
      props.postingsTable ??
      ActionTrackingService.definePostingsTable(this, 'PostingsTable', { removalPolicy, deletionProtection });
    this.userPool = props.userPool ?? this.addUserPool(removalPolicy, deletionProtection);
    this.userPoolClient = props.userPoolClient ?? this.addUserPoolClient();
    this.eventBus = props.eventBus ?? new EventBus(this, 'Bus');
    this.audience = [this.userPoolClient];
    this.evidence = new EvidenceStorage(this, 'Evidence', {
      ...props.evidence,
      malwareScan: props.malwareScan,
      removalPolicy,
    });
    this.environment = functionEnvironment(this, props, reminderInterval, () =>
      this.audience.map((client) => client.userPoolClientId).join(','),
    );
    this.reservedConcurrency = props.reservedConcurrency ?? {};

    this.addHandlerFunctions(props);
    ({ api: this.api, stage: this.stage } = this.addApi(props));
    this.url = this.stage.url;
    // Before the routes: the authorizer reads its audience (the console's client too) when the first route binds it.
    if (props.console !== false)
      this.console = this.addConsole(props.console === true ? {} : (props.console ?? {}), removalPolicy);
    this.addRoutes();
    ({ deadLetterQueue: this.deadLetterQueue, ingestQueue: this.ingestQueue } = this.addIngest(props));
    this.reminderSchedule = this.addDueDateSweep(reminderInterval);
    this.eventsDeadLetterQueue = this.addEventPublisher(props);
    ({ webhookDeadLetterQueue: this.webhookDeadLetterQueue, webhookQueue: this.webhookQueue } =
      this.addWebhooks(props));
    if (this.evidence.malwareProtectionPlan) this.addScanResults();
    if (props.notificationsFrom) this.notifications = this.addNotifications(props, reminderInterval);
    this.transfer = new ServiceTransfer(this, 'Transfer', {
      bucket: this.evidence.bucket,
      eventBus: this.eventBus,
      eventSource: props.eventSource ?? 'action-tracking',
      consoleUrl: this.console?.url,
      functions: this.functions,
      handlerFunction: (handler, access, timeout, postings) => this.handlerFunction(handler, access, timeout, postings),
    });
    this.addAlarms(props);
  }

  /** Email to people, when the props name a sender (infra/cdk/notifications.ts). */
  private addNotifications(props: ActionTrackingServiceProps, interval: Duration): ServiceNotifications {
    const from = props.notificationsFrom as string;
    return new ServiceNotifications(this, 'Notifications', {
      from,
      identity: props.notificationsIdentity ?? from.replace(/^.*<(.*)>\s*$/, '$1').split('@')[1] ?? from,
      eventBus: this.eventBus,
      eventSource: props.eventSource ?? 'action-tracking',
      interval,
      ...(this.console ? { consoleUrl: this.console.url } : {}),
      handlerFunction: (handler, access, timeout) => this.handlerFunction(handler, access, timeout),
    });
  }

  /** The pool of the people who use the service, when the props bring none. */
  private addUserPool(removalPolicy: RemovalPolicy, deletionProtection: boolean): UserPool {
    const userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      // The service records the `name` claim as owner and initiator, so every user has one.
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection,
      removalPolicy,
    });
    Validations.of(userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'MFA is optional (TOTP), so that service users and scripts can sign in with a password alone.',
    });
    Validations.of(userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus feature plan (threat protection) costs per monthly active user; pass a Plus pool as userPool to use it.',
    });
    return userPool;
  }

  /** The app client the CLI and scripts sign in with, when the props bring none. */
  private addUserPoolClient(): IUserPoolClient {
    return this.userPool.addClient('Client', {
      // USER_PASSWORD_AUTH lets the CLI fetch a token (docs/deploy.md); SRP is for browser sign-in.
      authFlows: { userPassword: true, userSrp: true },
      generateSecret: false,
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      // The service records a caller's name and email from the ID token as who did what, so a
      // user must not be able to change them: only an administrator can. Locale and time zone stay theirs.
      writeAttributes: new ClientAttributes().withStandardAttributes({ locale: true, timezone: true }),
    });
  }

  /** A handler of `functions/` with the service's environment and exactly the table calls it lists. */
  private handlerFunction(
    handler: string,
    access: readonly TableAccess[],
    timeout = API_TIMEOUT,
    postings: readonly PostingsAccess[] = [],
  ): ServiceFunction {
    this.functions[handler] ??= new ServiceFunction(this, handler, {
      handler,
      permissions: this.permissions(access, postings),
      environment: this.environment,
      timeout,
      logRetention: this.logRetention,
      filesBesideBundle: filesBesideBundle[handler],
      reservedConcurrency: this.reservedConcurrency[handler],
    });
    return this.functions[handler];
  }

  /** The functions behind the routes and the fallback, and ingest. */
  private addHandlerFunctions(props: ActionTrackingServiceProps): void {
    // Every authenticated route also updates its caller's quota window.
    for (const route of routes)
      this.handlerFunction(
        route.handler,
        route.public ? route.access : [...new Set([...route.access, ...EDGE_ACCESS])],
        API_TIMEOUT,
        route.postings,
      );
    this.evidence.configure(this.functions);
    this.handlerFunction(fallbackRoute.handler, []);
    const ingest = this.handlerFunction(ingestFunction.handler, ingestFunction.access, INGEST_TIMEOUT);
    // The rule of addIngest routes only these sources; ingest also refuses any other, whatever the way in.
    if (props.producerSources) ingest.function.addEnvironment('PRODUCER_SOURCES', props.producerSources.join(','));
  }

  /** The HTTP API and its one stage, with access logs and the public routes' own throttles. */
  private addApi(props: ActionTrackingServiceProps): { api: HttpApi; stage: HttpStage } {
    const api = new HttpApi(this, 'Api', {
      description: 'Action tracking service',
      corsPreflight: props.cors && {
        ...props.cors,
        // A browser may send these to the API whatever else the props allow.
        allowHeaders: [...new Set([...(props.cors.allowHeaders ?? []), ...CORS_REQUEST_HEADERS])],
      },
      createDefaultStage: false,
      // Unmatched requests get the service's own 404/405 problem+json, without a token.
      defaultIntegration: new HttpLambdaIntegration('NotFound', this.functions[fallbackRoute.handler]!.function),
    });
    const accessLogs =
      (props.accessLogs ?? true)
        ? new LogGroup(this, 'AccessLogs', { retention: this.logRetention, removalPolicy: RemovalPolicy.DESTROY })
        : undefined;
    const stage = api.addStage('Stage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: accessLogs && {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    if (!accessLogs) {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG1',
        reason: 'Access logging was turned off by the accessLogs prop.',
      });
    }
    // Each public route (and $default) gets a throttle of its own, so it never spends the stage's.
    const publicThrottle = props.publicThrottle ?? { rateLimit: 10, burstLimit: 20 };
    const publicRouteKeys = [...routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`), '$default'];
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      publicRouteKeys.map((key) => [
        key,
        { ThrottlingRateLimit: publicThrottle.rateLimit, ThrottlingBurstLimit: publicThrottle.burstLimit },
      ]),
    );
    return { api, stage };
  }

  /** The console on its own origin, whose app client the API then accepts too. */
  private addConsole(options: ConsoleOptions, removalPolicy: RemovalPolicy): ServiceConsole {
    const site = new ServiceConsole(this, 'Console', {
      ...options,
      userPool: this.userPool,
      api: this.api,
      removalPolicy,
    });
    this.audience.push(site.client);
    return site;
  }

  /** Exactly the routes of lib/http/routes.ts, each to its handler, behind the JWT authorizer unless public. */
  private addRoutes(): void {
    const authorizer = new HttpUserPoolAuthorizer('Cognito', this.userPool, { userPoolClients: this.audience });
    const integrations: Record<string, HttpLambdaIntegration> = {};
    for (const route of routes) {
      integrations[route.handler] ??= new HttpLambdaIntegration(route.handler, this.functions[route.handler]!.function);
      const [created] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrations[route.handler]!,
        authorizer: route.public ? new HttpNoneAuthorizer() : authorizer,
      });
      if (route.public) {
        // CloudFormation checks a stage's route settings against routes that exist already.
        this.stage.node.addDependency(created!);
        Validations.of(created!).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${route.path} is public by design (lib/http/routes.ts).`,
        });
      }
    }
    this.stage.node.addDependency(this.api.node.findChild('DefaultRoute'));
    Validations.of(this.api.node.findChild('DefaultRoute')).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'The $default route only answers 404/405 problem+json for paths no route serves; it reads no data.',
    });
  }

  /** Ingest: ActionRequested events -> rule -> queue -> ingestActions, with a dead-letter queue. */
  private addIngest(props: ActionTrackingServiceProps): { deadLetterQueue: Queue; ingestQueue: Queue } {
    const deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const ingestQueue = new Queue(this, 'IngestQueue', {
      // AWS's advice for Lambda consumers: six times the function timeout, so a retried batch is not redelivered mid-flight.
      visibilityTimeout: Duration.seconds(INGEST_TIMEOUT.toSeconds() * 6),
      // SQS-managed keys: EventBridge cannot deliver to a queue encrypted with the AWS managed KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: ingestFunction.maxReceives },
    });
    new Rule(this, 'ActionRequested', {
      eventBus: this.eventBus,
      description: 'Producer events that ask for an action, to the ingest queue',
      eventPattern: {
        detailType: ['ActionRequested'],
        ...(props.producerSources ? { source: props.producerSources } : {}),
      },
      // Events EventBridge cannot deliver land in the same dead-letter queue as those ingest gives up on.
      targets: [new SqsQueue(ingestQueue, { deadLetterQueue })],
    });
    this.functions[ingestFunction.handler]!.function.addEventSource(
      new SqsEventSource(ingestQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    return { deadLetterQueue, ingestQueue };
  }

  /** The due-date sweep, on a schedule: reads only its queue's index, writes as every change does. */
  private addDueDateSweep(reminderInterval: Duration): CfnSchedule {
    const sweep = new ServiceFunction(this, sweepFunction.handler, {
      handler: sweepFunction.handler,
      permissions: [
        new PolicyStatement({
          // `QueryTable` is `Query` on the table itself: the counters the day ends are read from.
          actions: sweepFunction.access.map((a) => `dynamodb:${a === 'QueryTable' ? 'Query' : a}`),
          resources: [this.table.tableArn],
        }),
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [`${this.table.tableArn}/index/${sweepFunction.queries}`],
        }),
      ],
      environment: this.environment,
      timeout: DUE_DATE_SWEEP_TIMEOUT,
      logRetention: this.logRetention,
    });
    this.functions[sweepFunction.handler] = sweep;
    // A role of its own: the scheduler may invoke this one function (its unqualified ARN) and
    // nothing else, only for schedules of this account. (The L2 target also grants every version, `:*`.)
    const schedulerRole = new Role(this, 'DueDateSweepRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: 'EventBridge Scheduler: invokes the due-date sweep',
    });
    schedulerRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [sweep.function.functionArn] }),
    );
    const minutes = reminderInterval.toMinutes();
    return new CfnSchedule(this, 'DueDateSweep', {
      description: 'Due-date reminders: due soon, overdue, escalated (contract section 10)',
      scheduleExpression: `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
      flexibleTimeWindow: { mode: 'OFF' },
      state: 'ENABLED',
      target: {
        arn: sweep.function.functionArn,
        roleArn: schedulerRole.roleArn,
        // A run that fails is not retried: the next one, an interval later, finds the same queue.
        retryPolicy: { maximumRetryAttempts: 0 },
      },
    });
  }

  /**
   * Events leave from the table's stream: each new history entry is one event, published by the
   * one function allowed to put events on the bus. Per action, records arrive in version order
   * (one shard per partition, one batch at a time per shard); a batch that fails is split to find
   * the record that fails, retried, and past the retries sent to the dead-letter queue returned.
   */
  private addEventPublisher(props: ActionTrackingServiceProps): Queue {
    const eventsDeadLetterQueue = new Queue(this, 'EventsDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(eventsDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is a dead-letter queue: the stream event source mapping's on-failure destination.",
    });
    const publisher = new ServiceFunction(this, streamFunction.handler, {
      handler: streamFunction.handler,
      permissions: [
        new PolicyStatement({ actions: ['events:PutEvents'], resources: [this.eventBus.eventBusArn] }),
        ...this.permissions(streamFunction.access, streamFunction.postings),
      ],
      // The service's settings too: indexing for search reads the configuration (the tables' names).
      environment: {
        ...this.environment,
        EVENT_BUS_NAME: this.eventBus.eventBusName,
        EVENT_SOURCE: props.eventSource ?? 'action-tracking',
      },
      timeout: Duration.seconds(60),
      logRetention: this.logRetention,
    });
    this.functions[streamFunction.handler] = publisher;
    publisher.function.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(eventsDeadLetterQueue),
        // Only new history entries are changes to publish; the action, counter and comment items are state.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { [sortKey.name]: { S: [{ prefix: itemKind.historyPrefix }] } } },
          }),
        ],
      }),
    );
    return eventsDeadLetterQueue;
  }

  /**
   * Webhooks: every event the service publishes -> rule -> queue -> deliverWebhooks, which
   * stores one delivery per subscription naming its type and makes each first attempt. Retries,
   * redeliveries and pings are due items in the table that sweepWebhooks runs: started every
   * minute, it sweeps every second for most of that minute. No VPC: the functions reach the
   * receivers over the internet and nothing else; lib/webhooks/send.ts refuses private addresses.
   */
  private addWebhooks(props: ActionTrackingServiceProps): { webhookDeadLetterQueue: Queue; webhookQueue: Queue } {
    const webhookDeadLetterQueue = new Queue(this, 'WebhookDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const webhookQueue = new Queue(this, 'WebhookQueue', {
      visibilityTimeout: Duration.seconds(DELIVER_TIMEOUT.toSeconds() * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: webhookDeadLetterQueue, maxReceiveCount: 5 },
    });
    new Rule(this, 'PublishedEvents', {
      eventBus: this.eventBus,
      description: 'Every event the service publishes, to webhook delivery',
      eventPattern: { source: [props.eventSource ?? 'action-tracking'] },
      targets: [new SqsQueue(webhookQueue, { deadLetterQueue: webhookDeadLetterQueue })],
    });
    const { deliver, sweep } = webhookFunctions;
    this.handlerFunction(deliver.handler, deliver.access, DELIVER_TIMEOUT).function.addEventSource(
      new SqsEventSource(webhookQueue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
      }),
    );
    const webhookSweep = this.handlerFunction(sweep.handler, sweep.access, WEBHOOK_SWEEP_TIMEOUT);
    new Rule(this, 'SweepWebhooks', {
      description: 'Runs the webhook attempts due (retries, redeliveries, pings)',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(webhookSweep.function, { retryAttempts: 0 })],
    });
    return { webhookDeadLetterQueue, webhookQueue };
  }

  /**
   * GuardDuty's malware scan results for the evidence bucket's attached files, from the account's
   * default bus (where GuardDuty publishes them), to the function that records each verdict on its
   * attachment. A failed run is retried by EventBridge for up to a day; its errors raise the
   * function's alarm like any other's.
   */
  private addScanResults(): void {
    const { bucket } = this.evidence;
    const record = this.handlerFunction(scanResultFunction.handler, scanResultFunction.access);
    record.function.addEnvironment('EVIDENCE_BUCKET', bucket.bucketName);
    new Rule(this, 'ScanResults', {
      description: "GuardDuty's malware scan results for attached files, recorded on their attachments",
      eventPattern: {
        source: ['aws.guardduty'],
        detailType: [SCAN_RESULT_DETAIL_TYPE],
        detail: { s3ObjectDetails: { bucketName: [bucket.bucketName], objectKey: [{ prefix: ATTACHMENTS_PREFIX }] } },
      },
      targets: [new LambdaFunction(record.function, { retryAttempts: 20, maxEventAge: Duration.hours(24) })],
    });
  }

  /** Alarms: any 5xx, any function error or throttle, any table throttle, anything dead-lettered. */
  private addAlarms(props: ActionTrackingServiceProps): void {
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    this.alarm('Api5xx', this.api.metricServerError(fiveMinutes), 'The API answered 5xx.');
    for (const [handler, fn] of Object.entries(this.functions)) {
      this.alarm(`${handler}Errors`, fn.function.metricErrors(fiveMinutes), `${handler} failed.`);
      this.alarm(`${handler}Throttles`, fn.function.metricThrottles(fiveMinutes), `${handler} was throttled.`);
    }
    const operations = new Set([
      ...routes.flatMap((r) => r.access),
      ...ingestFunction.access,
      ...sweepFunction.access,
      ...webhookFunctions.deliver.access,
    ]);
    this.alarm(
      'TableThrottles',
      this.table.metricThrottledRequestsForOperations({
        operations: [...new Set([...operations].map((access) => operation[access]))],
        period: Duration.minutes(5),
      }),
      'DynamoDB throttled requests to the action table.',
    );
    const waiting = (queue: Queue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' });
    this.alarm(
      'DeadLetters',
      waiting(this.deadLetterQueue),
      'ActionRequested events could not be ingested; they wait in the dead-letter queue.',
    );
    this.alarm(
      'EventsDeadLetters',
      waiting(this.eventsDeadLetterQueue),
      'Change events could not be published; the stream records to replay wait in the events dead-letter queue.',
    );
    this.alarm(
      'WebhookDeadLetters',
      waiting(this.webhookDeadLetterQueue),
      'Published events could not be turned into webhook deliveries; they wait in the webhook dead-letter queue.',
    );
    this.alarm(
      'EventsBehind',
      this.functions[streamFunction.handler]!.function.metric('IteratorAge', {
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      'Change events are published more than 5 minutes after their change.',
      5 * 60 * 1000,
    );
    if (props.alarmTopic) for (const alarm of this.alarms) alarm.addAlarmAction(new SnsAction(props.alarmTopic));
  }

  /**
   * The service's table: `id` + `sk` keys, every index of `lib/store/indexes.ts`, and a stream with
   * new and old images. A team that brings its own table makes it with this.
   */
  static defineTable(
    scope: Construct,
    id: string,
    options: { removalPolicy?: RemovalPolicy; deletionProtection?: boolean } = {},
  ): Table {
    const table = new Table(scope, id, {
      ...keptTable(options),
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      // Items that only count something for a while (quota windows, endorsement toggles), webhook
      // deliveries (30 days) and idempotency keys (a day) expire; reads ignore expired ones, and
      // DynamoDB deletes them for free.
      timeToLiveAttribute: attr.expiresAt,
    });
    for (const index of indexList) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey.name, type: attributeType[index.partitionKey.type] },
        sortKey: { name: index.sortKey.name, type: attributeType[index.sortKey.type] },
        ...(index.projection === 'keys'
          ? { projectionType: ProjectionType.KEYS_ONLY }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      });
    }
    return table;
  }

  /**
   * The search postings' table: the service's keys and nothing else (no index, no stream; TTL is
   * not needed, a posting goes when its action's text does). A team that brings its own makes it with this.
   */
  static definePostingsTable(
    scope: Construct,
    id: string,
    options: { removalPolicy?: RemovalPolicy; deletionProtection?: boolean } = {},
  ): Table {
    return new Table(scope, id, keptTable(options));
  }

  /**
   * Exactly the calls a handler needs: `Query` on the table and its indexes, the rest on the table
   * itself, and its `postings` calls on the postings' table.
   */
  private permissions(access: readonly TableAccess[], postings: readonly PostingsAccess[] = []): PolicyStatement[] {
    const statements: PolicyStatement[] = [];
    if (postings.length > 0)
      statements.push(
        new PolicyStatement({
          actions: postings.map((a) => `dynamodb:${a}`),
          resources: [this.postingsTable.tableArn],
        }),
      );
    // `QueryTable` is `Query` on the table alone; with `Query` it is already granted below.
    const onTable = access
      .filter((a) => a !== 'Query' && !(a === 'QueryTable' && access.includes('Query')))
      .map((a) => (a === 'QueryTable' ? 'Query' : a));
    if (onTable.length > 0) {
      statements.push(
        new PolicyStatement({ actions: onTable.map((a) => `dynamodb:${a}`), resources: [this.table.tableArn] }),
      );
    }
    if (access.includes('Query')) {
      statements.push(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [this.table.tableArn, ...indexList.map((index) => `${this.table.tableArn}/index/${index.name}`)],
        }),
      );
    }
    return statements;
  }

  private alarm(id: string, metric: IMetric, description: string, threshold = 0): void {
    this.alarms.push(
      new Alarm(this, `${id}Alarm`, {
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }),
    );
  }
}

/**
 * What both tables are: `id` + `sk` keys, on-demand, point-in-time recovery, and deletion
 * protection and retention unless the options say otherwise.
 */
const keptTable = (options: { removalPolicy?: RemovalPolicy; deletionProtection?: boolean }) => ({
  partitionKey: { name: tableKey.name, type: attributeType[tableKey.type] },
  sortKey: { name: sortKey.name, type: attributeType[sortKey.type] },
  billingMode: BillingMode.PAY_PER_REQUEST,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  deletionProtection: options.deletionProtection ?? true,
  removalPolicy: options.removalPolicy ?? RemovalPolicy.RETAIN,
});

/** The props checked before anything is built, and the reminder interval they give. */
function checkedReminderInterval(props: ActionTrackingServiceProps): Duration {
  if (props.userPoolClient && !props.userPool) throw new Error('userPoolClient needs the userPool it belongs to');
  if (props.table && !props.table.tableStreamArn)
    throw new Error('the table needs a stream (new and old images): events leave from it');
  const limits = {
    rateLimitRequests: props.rateLimitRequests,
    rateLimitReads: props.rateLimitReads,
    listReadBudget: props.listReadBudget,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0))
      throw new Error(`${name} must be a positive whole number`);
  }
  const reminderInterval = props.reminderInterval ?? Duration.minutes(1);
  if (reminderInterval.toSeconds() < 60 || reminderInterval.toSeconds() % 60 !== 0)
    throw new Error('reminderInterval must be a whole number of minutes, at least one (EventBridge Scheduler rates)');
  return reminderInterval;
}

/** The environment of every handler of `functions/`. */
function functionEnvironment(
  service: ActionTrackingService,
  props: ActionTrackingServiceProps,
  reminderInterval: Duration,
  clientIds: () => string,
): Record<string, string> {
  return {
    TABLE_NAME: service.table.tableName,
    POSTINGS_TABLE_NAME: service.postingsTable.tableName,
    USER_POOL_ID: service.userPool.userPoolId,
    // Read when the template is written: the console adds its client after the functions exist.
    USER_POOL_CLIENT_ID: Lazy.string({ produce: clientIds }),
    ...(props.rateLimitRequests ? { RATE_LIMIT_REQUESTS: String(props.rateLimitRequests) } : {}),
    ...(props.rateLimitReads ? { RATE_LIMIT_READS: String(props.rateLimitReads) } : {}),
    ...(props.listReadBudget ? { LIST_READ_BUDGET: String(props.listReadBudget) } : {}),
    // Every write keeps the reminder state (which statuses close an action) in step, so every function reads them.
    CLOSED_STATUSES: (props.closedStatuses ?? [3, 4]).join(','),
    DUE_SOON_HOURS: String(props.dueSoonHours ?? 24),
    ESCALATE_AFTER_HOURS: String(props.escalateAfterHours ?? 168),
    REMINDER_INTERVAL_SECONDS: String(reminderInterval.toSeconds()),
    ACCESS: props.access ?? 'open',
    ADMIN_GROUP: props.adminGroup ?? 'action-admins',
  };
}

/** One JSON object per request; `authorizerError` says why the JWT authorizer refused a token. */
const accessLogFields = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
};
