import { Duration, Lazy, RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, type IEventBus } from 'aws-cdk-lib/aws-events';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from '../../lib/api-docs/docs-assets';
import {
  EDGE_ACCESS,
  fallbackRoute,
  ingestFunction,
  type PostingsAccess,
  routes,
  streamFunction,
  sweepFunction,
  type TableAccess,
} from '../../lib/http/routes';
import { type AlarmOptions, ServiceAlarms } from './alarms';
import {
  type ApiOptions,
  type AuthOptions,
  checkedQuotas,
  type QuotaOptions,
  quotaEnvironment,
  ServiceApi,
  ServiceAuth,
} from './api';
import { type ConsoleOptions, ServiceConsole } from './console';
import { checkedInterval, type DueDateOptions, DueDateSweep, dueDateEnvironment } from './due-dates';
import { type EventOptions, EventPublisher } from './events';
import { type EvidenceOptions, EvidenceStorage } from './evidence';
import { ServiceImports } from './imports';
import { INGEST_TIMEOUT, type IngestOptions, ServiceIngest } from './ingest';
import { ServiceNotifications } from './notifications';
import { ScanResults } from './scan-results';
import { type FilesBesideBundle, ServiceFunction } from './service-function';
import { definePostingsTable, defineServiceTable, type TableOptions, tablePermissions } from './tables';
import { ServiceTransfer } from './transfer';
import { ServiceWebhooks } from './webhooks';

/**
 * What a team may set. The props of one capability are declared (with their defaults) beside the
 * construct that uses them, and gathered here.
 */
export interface ActionTrackingServiceProps
  extends AuthOptions,
    ApiOptions,
    QuotaOptions,
    IngestOptions,
    DueDateOptions,
    EventOptions,
    AlarmOptions {
  /**
   * Bring your own table: it must have the key schema, indexes and stream (new and old images)
   * of `lib/store/table.ts` and `lib/store/indexes.ts`, as `ActionTrackingService.defineTable` makes them.
   *
   * @default - a new table (on-demand, point-in-time recovery, deletion protection per `deletionProtection`)
   */
  readonly table?: ITable;
  /**
   * Bring your own search postings' table: `id` and `sk` string keys and nothing else, as
   * `ActionTrackingService.definePostingsTable` makes it.
   *
   * @default - a new table (on-demand, point-in-time recovery, deletion protection per `deletionProtection`)
   */
  readonly postingsTable?: ITable;
  /**
   * The bus producers put `ActionRequested` on and the service publishes to.
   *
   * @default - a new bus
   */
  readonly eventBus?: IEventBus;
  /**
   * What deleting the stack does to the tables, the evidence and a created user pool.
   *
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Deletion protection on a created table and user pool.
   *
   * @default true
   */
  readonly deletionProtection?: boolean;
  /**
   * Reserved concurrency by handler name, e.g. `{ listActions: 20, getAction: 20 }`: a function
   * with some always has them, and never more.
   *
   * @default - none reserved (a new account has about 10 of its 1,000 to spare, and reserving takes them from every other function)
   */
  readonly reservedConcurrency?: Partial<Record<string, number>>;
  /**
   * Retention of function and access logs.
   *
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Who sees what (docs/access.md): `open`, everyone sees every action, or `scoped`, by grants.
   *
   * @default 'open'
   */
  readonly access?: 'open' | 'scoped';
  /**
   * The Cognito group whose members are admin of every scope.
   *
   * @default 'action-admins'
   */
  readonly adminGroup?: string;
  /**
   * The console (contract section 13): its files in S3 behind CloudFront, with `/api/*` and
   * `/docs*` passed to the API on the same origin, and sign-in by Cognito managed login (a public
   * app client and a domain of `userPool`); `false` leaves all of it out.
   *
   * @default true
   */
  readonly console?: boolean | ConsoleOptions;
  /**
   * GuardDuty Malware Protection for S3 on the evidence bucket (contract section 15).
   *
   * @default true
   */
  readonly malwareScan?: boolean;
  /**
   * Evidence limits and rules (`infra/cdk/evidence.ts`).
   *
   * @default - the defaults of `EvidenceOptions`
   */
  readonly evidence?: Omit<EvidenceOptions, 'removalPolicy' | 'malwareScan'>;
  /**
   * Email to people (contract section 16): the sender, e.g. `Actions <actions@example.com>`, an
   * address of `notificationsIdentity`, verified in SES.
   *
   * @default - none, and email is off
   */
  readonly notificationsFrom?: string;
  /**
   * The SES identity (verified domain or address) the notifier sends as.
   *
   * @default - the domain of `notificationsFrom`
   */
  readonly notificationsIdentity?: string;
}

/** Files handlers read beside their bundle: functions/docs.ts serves Swagger UI's from `swagger-ui/`. */
const filesBesideBundle: Record<string, FilesBesideBundle> = {
  docs: {
    from: `node_modules/${docsAssetsPackage}`,
    to: docsAssetsDirectory,
    files: Object.keys(docsAssets),
  },
};

const API_TIMEOUT = Duration.seconds(10);

/**
 * The action tracking service on AWS, composed of one construct per capability: the tables
 * (`tables.ts`), the API and its sign-in (`api.ts`), ingest (`ingest.ts`), due dates
 * (`due-dates.ts`), change events (`events.ts`), webhooks (`webhooks.ts`), evidence
 * (`evidence.ts`, `scan-results.ts`), the console (`console.ts`), email to people
 * (`notifications.ts`) and the alarms (`alarms.ts`). One Lambda function per handler
 * (`service-function.ts`), each allowed only the DynamoDB calls its route lists. This file is where
 * they are put together, in the order that keeps every logical ID of a deployed stack.
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
  readonly alarms: Alarm[];
  /** The API's base URL. */
  readonly url: string;
  /** The evidence bucket and its malware scanning. */
  readonly evidence: EvidenceStorage;
  /** The console, unless the `console` prop is `false`. */
  readonly console?: ServiceConsole;
  /** Email to people, when `notificationsFrom` is set. */
  readonly notifications?: ServiceNotifications;
  /** Imports (contract section 18): their queue and worker. */
  readonly imports: ServiceImports;
  /** Exports: their queue and worker (infra/cdk/transfer.ts). */
  readonly transfer: ServiceTransfer;
  /** The app clients whose ID tokens the API accepts: the service's, and the console's. */
  private readonly audience: IUserPoolClient[];
  /** What every handler of `functions/` is given: the table, the pool, the limits and the due-date settings. */
  private readonly environment: Record<string, string>;
  private readonly logRetention: RetentionDays;
  private readonly reservedConcurrency: Partial<Record<string, number>>;

  /**
   * Every construct is made in this scope under the id it has always had, in the same order, so
   * the synthesized template (test/infra/fixtures/) stays the same when a capability moves file.
   */
  constructor(scope: Construct, id: string, props: ActionTrackingServiceProps = {}) {
    super(scope, id);
    const reminderInterval = checkedProps(props);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const deletionProtection = props.deletionProtection ?? true;
    this.logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.table = props.table ?? ActionTrackingService.defineTable(this, 'Table', { removalPolicy, deletionProtection });
    this.postingsTable =
      props.postingsTable ??
      ActionTrackingService.definePostingsTable(this, 'PostingsTable', { removalPolicy, deletionProtection });
    ({ userPool: this.userPool, userPoolClient: this.userPoolClient } = new ServiceAuth(this, {
      userPool: props.userPool,
      userPoolClient: props.userPoolClient,
      removalPolicy,
      deletionProtection,
    }));
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
    this.addHandlerFunctions();

    const api = new ServiceApi(this, {
      fallback: this.functions[fallbackRoute.handler]!,
      cors: props.cors,
      throttle: props.throttle,
      publicThrottle: props.publicThrottle,
      accessLogs: props.accessLogs,
      logRetention: this.logRetention,
    });
    ({ api: this.api, stage: this.stage } = api);
    this.url = this.stage.url;
    // Before the routes: the authorizer reads its audience (the console's client too) when the first route binds it.
    if (props.console !== false)
      this.console = this.addConsole(props.console === true ? {} : (props.console ?? {}), removalPolicy);
    api.addRoutes({ functions: this.functions, userPool: this.userPool, audience: this.audience });

    const ingest = new ServiceIngest(this, {
      eventBus: this.eventBus,
      function: this.functions[ingestFunction.handler]!,
      producerSources: props.producerSources,
    });
    ({ queue: this.ingestQueue, deadLetterQueue: this.deadLetterQueue } = ingest);
    const dueDates = new DueDateSweep(this, {
      table: this.table,
      environment: this.environment,
      logRetention: this.logRetention,
      interval: reminderInterval,
    });
    this.functions[sweepFunction.handler] = dueDates.function;
    this.reminderSchedule = dueDates.schedule;
    const events = new EventPublisher(this, {
      table: this.table,
      eventBus: this.eventBus,
      eventSource: props.eventSource,
      permissions: tablePermissions(this, streamFunction.access, streamFunction.postings),
      environment: this.environment,
      logRetention: this.logRetention,
    });
    this.functions[streamFunction.handler] = events.function;
    this.eventsDeadLetterQueue = events.deadLetterQueue;
    const handlerFunction = this.handlerFunction.bind(this);
    ({ queue: this.webhookQueue, deadLetterQueue: this.webhookDeadLetterQueue } = new ServiceWebhooks(this, {
      eventBus: this.eventBus,
      eventSource: props.eventSource,
      handlerFunction,
    }));
    if (this.evidence.malwareProtectionPlan) new ScanResults(this, { bucket: this.evidence.bucket, handlerFunction });
    if (props.notificationsFrom) this.notifications = this.addNotifications(props, reminderInterval);

    this.imports = new ServiceImports(this, 'Imports', {
      eventBus: this.eventBus,
      evidence: this.evidence,
      functions: this.functions,
      notifications: this.notifications,
      eventSource: props.eventSource ?? 'action-tracking',
      handlerFunction: (handler, access, timeout) => this.handlerFunction(handler, access, timeout),
    });
    this.transfer = new ServiceTransfer(this, 'Transfer', {
      bucket: this.evidence.bucket,
      eventBus: this.eventBus,
      eventSource: props.eventSource ?? 'action-tracking',
      consoleUrl: this.console?.url,
      functions: this.functions,
      handlerFunction: (handler, access, timeout, postings) => this.handlerFunction(handler, access, timeout, postings),
    });
    // Last: every function made above gets its alarms.
    this.alarms = new ServiceAlarms(this, {
      api: this.api,
      functions: this.functions,
      table: this.table,
      deadLetterQueue: this.deadLetterQueue,
      eventsDeadLetterQueue: this.eventsDeadLetterQueue,
      webhookDeadLetterQueue: this.webhookDeadLetterQueue,
      exportDeadLetterQueue: this.transfer.deadLetterQueue,
      importDeadLetterQueue: this.imports.deadLetterQueue,
      alarmTopic: props.alarmTopic,
    }).alarms;
  }

  /**
   * The service's table: `id` + `sk` keys, every index of `lib/store/indexes.ts`, and a stream with
   * new and old images. A team that brings its own table makes it with this.
   */
  static defineTable(scope: Construct, id: string, options: TableOptions = {}): Table {
    return defineServiceTable(scope, id, options);
  }

  /**
   * The search postings' table: the service's keys and nothing else. A team that brings its own
   * makes it with this.
   */
  static definePostingsTable(scope: Construct, id: string, options: TableOptions = {}): Table {
    return definePostingsTable(scope, id, options);
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

  /** A handler of `functions/` with the service's environment and exactly the table calls it lists. */
  private handlerFunction(
    handler: string,
    access: readonly TableAccess[],
    timeout = API_TIMEOUT,
    postings: readonly PostingsAccess[] = [],
  ): ServiceFunction {
    this.functions[handler] ??= new ServiceFunction(this, handler, {
      handler,
      permissions: tablePermissions(this, access, postings),
      environment: this.environment,
      timeout,
      logRetention: this.logRetention,
      filesBesideBundle: filesBesideBundle[handler],
      reservedConcurrency: this.reservedConcurrency[handler],
    });
    return this.functions[handler];
  }

  /** The functions behind the routes and the fallback, and ingest: made before the API, which needs the fallback. */
  private addHandlerFunctions(): void {
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
    this.handlerFunction(ingestFunction.handler, ingestFunction.access, INGEST_TIMEOUT);
  }
}

/** The props checked before anything is built, and the reminder interval they give. */
function checkedProps(props: ActionTrackingServiceProps): Duration {
  if (props.userPoolClient && !props.userPool) throw new Error('userPoolClient needs the userPool it belongs to');
  if (props.table && !props.table.tableStreamArn)
    throw new Error('the table needs a stream (new and old images): events leave from it');
  checkedQuotas(props);
  return checkedInterval(props.reminderInterval);
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
    ...quotaEnvironment(props),
    ...dueDateEnvironment(props, reminderInterval),
    ACCESS: props.access ?? 'open',
    ADMIN_GROUP: props.adminGroup ?? 'action-admins',
  };
}
