import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
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
import { AccountRecovery, type IUserPool, type IUserPoolClient, Mfa, UserPool } from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, Operation, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { docsAssets, docsAssetsDirectory, docsAssetsPackage } from '../../lib/docs-assets';
import { fallbackRoute, ingestFunction, routes, type TableAccess } from '../../lib/routes';
import { indexList, type KeyType, tableKey } from '../../lib/store/table';
import { type FilesBesideBundle, ServiceFunction } from './service-function';

export interface ActionTrackingServiceProps {
  /** A user pool whose ID tokens the API accepts. Default: a new pool. */
  userPool?: IUserPool;
  /** An app client of `userPool` (only with `userPool`). Default: a new client of the pool. */
  userPoolClient?: IUserPoolClient;
  /** What deleting the stack does to the table and a created user pool. Default: `RETAIN`. */
  removalPolicy?: RemovalPolicy;
  /** Deletion protection on the table and a created user pool. Default: on. */
  deletionProtection?: boolean;
  /** CORS for browser clients. Default: none (same-origin or server-side callers only). */
  cors?: CorsPreflightOptions;
  /** Stage-wide request rate and burst. Default: 100 requests/second, bursts of 200. */
  throttle?: Required<ThrottleSettings>;
  /** JSON access logs of the API stage. Default: on. */
  accessLogs?: boolean;
  /** Retention of function and access logs. Default: one month. */
  logRetention?: RetentionDays;
  /** `source` of the events the service publishes. Default: `action-tracking`. */
  eventSource?: string;
  /** Where alarms notify. Default: nowhere (the alarms are still visible in CloudWatch). */
  alarmTopic?: ITopic;
}

const attributeType: Record<KeyType, AttributeType> = { S: AttributeType.STRING, N: AttributeType.NUMBER };
const operation: Record<TableAccess, Operation> = {
  GetItem: Operation.GET_ITEM,
  PutItem: Operation.PUT_ITEM,
  Query: Operation.QUERY,
  BatchGetItem: Operation.BATCH_GET_ITEM,
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
const INGEST_TIMEOUT = Duration.seconds(30);

/**
 * The action tracking service on AWS: the DynamoDB table as `lib/store/table.ts` describes it,
 * one Lambda function per handler, an HTTP API with exactly the routes of `infra/routes.ts`
 * behind a Cognito JWT authorizer, the EventBridge bus with the `ActionRequested` ingest path,
 * and alarms. Each function may make only the DynamoDB calls its route lists.
 */
export class ActionTrackingService extends Construct {
  readonly table: Table;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly eventBus: EventBus;
  readonly ingestQueue: Queue;
  readonly deadLetterQueue: Queue;
  /** Every function, by handler name. */
  readonly functions: Record<string, ServiceFunction> = {};
  readonly alarms: Alarm[] = [];
  /** The API's base URL. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ActionTrackingServiceProps = {}) {
    super(scope, id);
    if (props.userPoolClient && !props.userPool) throw new Error('userPoolClient needs the userPool it belongs to');
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const deletionProtection = props.deletionProtection ?? true;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableKey.name, type: attributeType[tableKey.type] },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection,
      removalPolicy,
    });
    for (const index of indexList) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey.name, type: attributeType[index.partitionKey.type] },
        sortKey: { name: index.sortKey.name, type: attributeType[index.sortKey.type] },
        ...(index.projection === 'keys'
          ? { projectionType: ProjectionType.KEYS_ONLY }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      });
    }

    this.userPool =
      props.userPool ??
      new UserPool(this, 'UserPool', {
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
    this.userPoolClient =
      props.userPoolClient ??
      this.userPool.addClient('Client', {
        // USER_PASSWORD_AUTH lets the CLI fetch a token (docs/deploy.md); SRP is for browser sign-in.
        authFlows: { userPassword: true, userSrp: true },
        generateSecret: false,
        disableOAuth: true,
        preventUserExistenceErrors: true,
        enableTokenRevocation: true,
        idTokenValidity: Duration.hours(1),
        accessTokenValidity: Duration.hours(1),
        refreshTokenValidity: Duration.days(30),
      });

    this.eventBus = new EventBus(this, 'Bus');
    const environment = {
      TABLE_NAME: this.table.tableName,
      USER_POOL_ID: this.userPool.userPoolId,
      USER_POOL_CLIENT_ID: this.userPoolClient.userPoolClientId,
      EVENT_BUS_NAME: this.eventBus.eventBusName,
      EVENT_SOURCE: props.eventSource ?? 'action-tracking',
    };
    const handlerFunction = (
      handler: string,
      access: readonly TableAccess[],
      publishes: boolean,
      timeout = API_TIMEOUT,
    ) =>
      (this.functions[handler] ??= new ServiceFunction(this, handler, {
        handler,
        permissions: this.permissions(access, publishes),
        environment,
        timeout,
        logRetention,
        filesBesideBundle: filesBesideBundle[handler],
      }));

    for (const route of routes) handlerFunction(route.handler, route.access, route.publishes);
    const notFound = handlerFunction(fallbackRoute.handler, [], false);
    const ingest = handlerFunction(
      ingestFunction.handler,
      ingestFunction.access,
      ingestFunction.publishes,
      INGEST_TIMEOUT,
    );

    // The HTTP API: exactly the routes of infra/routes.ts, and the fallback for everything else.
    this.api = new HttpApi(this, 'Api', {
      description: 'Action tracking service',
      corsPreflight: props.cors,
      createDefaultStage: false,
      // Unmatched requests get the service's own 404/405 problem+json, without a token.
      defaultIntegration: new HttpLambdaIntegration('NotFound', notFound.function),
    });
    const accessLogs =
      (props.accessLogs ?? true)
        ? new LogGroup(this, 'AccessLogs', { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY })
        : undefined;
    this.stage = this.api.addStage('Stage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: accessLogs && {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    this.url = this.stage.url;

    const authorizer = new HttpUserPoolAuthorizer('Cognito', this.userPool, {
      userPoolClients: [this.userPoolClient],
    });
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
        Validations.of(created!).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${route.path} is public by design (infra/routes.ts).`,
        });
      }
    }
    Validations.of(this.api.node.findChild('DefaultRoute')).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'The $default route only answers 404/405 problem+json for paths no route serves; it reads no data.',
    });

    // Ingest: ActionRequested events -> rule -> queue -> ingestActions, with a dead-letter queue.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.ingestQueue = new Queue(this, 'IngestQueue', {
      // AWS's advice for Lambda consumers: six times the function timeout, so a retried batch is not redelivered mid-flight.
      visibilityTimeout: Duration.seconds(INGEST_TIMEOUT.toSeconds() * 6),
      // SQS-managed keys: EventBridge cannot deliver to a queue encrypted with the AWS managed KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 3 },
    });
    new Rule(this, 'ActionRequested', {
      eventBus: this.eventBus,
      description: 'Producer events that ask for an action, to the ingest queue',
      eventPattern: { detailType: ['ActionRequested'] },
      // Events EventBridge cannot deliver land in the same dead-letter queue as those ingest gives up on.
      targets: [new SqsQueue(this.ingestQueue, { deadLetterQueue: this.deadLetterQueue })],
    });
    ingest.function.addEventSource(
      new SqsEventSource(this.ingestQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    // Alarms: any 5xx, any function error or throttle, any table throttle, anything dead-lettered.
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    this.alarm('Api5xx', this.api.metricServerError(fiveMinutes), 'The API answered 5xx.');
    for (const [handler, fn] of Object.entries(this.functions)) {
      this.alarm(`${handler}Errors`, fn.function.metricErrors(fiveMinutes), `${handler} failed.`);
      this.alarm(`${handler}Throttles`, fn.function.metricThrottles(fiveMinutes), `${handler} was throttled.`);
    }
    const operations = new Set([...routes.flatMap((r) => r.access), ...ingestFunction.access]);
    this.alarm(
      'TableThrottles',
      this.table.metricThrottledRequestsForOperations({
        operations: [...operations].map((access) => operation[access]),
        period: Duration.minutes(5),
      }),
      'DynamoDB throttled requests to the action table.',
    );
    this.alarm(
      'DeadLetters',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: 'Maximum',
      }),
      'ActionRequested events could not be ingested; they wait in the dead-letter queue.',
    );
    if (props.alarmTopic) for (const alarm of this.alarms) alarm.addAlarmAction(new SnsAction(props.alarmTopic));

    if (!props.userPool) {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason: 'MFA is optional (TOTP), so that service users and scripts can sign in with a password alone.',
      });
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan (threat protection) costs per monthly active user; pass a Plus pool as userPool to use it.',
      });
    }
    if (!accessLogs) {
      Validations.of(this.stage).acknowledge({
        id: 'AwsSolutions-APIG1',
        reason: 'Access logging was turned off by the accessLogs prop.',
      });
    }
  }

  /** Exactly the calls a handler needs: `Query` on the indexes only, the rest on the table itself. */
  private permissions(access: readonly TableAccess[], publishes: boolean): PolicyStatement[] {
    const statements: PolicyStatement[] = [];
    const onTable = access.filter((a) => a !== 'Query');
    if (onTable.length > 0) {
      statements.push(
        new PolicyStatement({ actions: onTable.map((a) => `dynamodb:${a}`), resources: [this.table.tableArn] }),
      );
    }
    if (access.includes('Query')) {
      statements.push(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: indexList.map((index) => `${this.table.tableArn}/index/${index.name}`),
        }),
      );
    }
    if (publishes) {
      statements.push(new PolicyStatement({ actions: ['events:PutEvents'], resources: [this.eventBus.eventBusArn] }));
    }
    return statements;
  }

  private alarm(id: string, metric: IMetric, description: string): void {
    this.alarms.push(
      new Alarm(this, `${id}Alarm`, {
        metric,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }),
    );
  }
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
