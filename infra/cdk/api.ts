import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
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
import {
  AccountRecovery,
  ClientAttributes,
  type IUserPool,
  type IUserPoolClient,
  Mfa,
  UserPool,
} from 'aws-cdk-lib/aws-cognito';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { routes } from '../../lib/http/routes';
import type { ServiceFunction } from './service-function';

/**
 * The API and its sign-in in AWS: the Cognito user pool whose ID tokens the API accepts, and the
 * HTTP API with exactly the routes of `lib/http/routes.ts`, each to its handler, behind a JWT
 * authorizer unless public, with access logs and throttles.
 *
 * Like every capability of `ActionTrackingService` except the evidence, notifications and the
 * console, these build in the service's own scope rather than a scope of their own: a scope adds
 * a step to every construct path under it, so every logical ID would change and CloudFormation
 * would replace the pool (and its users), the API and its routes. Built where they always were,
 * a deployed stack keeps every resource.
 */

/** Who may sign in: the props of `ActionTrackingService` about the user pool. */
export interface AuthOptions {
  /**
   * A user pool whose ID tokens the API accepts.
   *
   * @default - a new pool
   */
  readonly userPool?: IUserPool;
  /**
   * An app client of `userPool` (only with `userPool`), for the CLI and scripts.
   *
   * @default - a new client of the pool
   */
  readonly userPoolClient?: IUserPoolClient;
}

export interface ServiceAuthProps extends AuthOptions {
  /** What deleting the stack does to a created pool. */
  readonly removalPolicy: RemovalPolicy;
  /** Deletion protection on a created pool. */
  readonly deletionProtection: boolean;
}

/** The people who use the service and the app client they sign in with. */
export class ServiceAuth {
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;

  constructor(scope: Construct, props: ServiceAuthProps) {
    this.userPool = props.userPool ?? newUserPool(scope, props);
    this.userPoolClient = props.userPoolClient ?? newClient(this.userPool);
  }
}

/** The pool of the people who use the service, when the props bring none. */
function newUserPool(scope: Construct, props: ServiceAuthProps): UserPool {
  const userPool = new UserPool(scope, 'UserPool', {
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
    deletionProtection: props.deletionProtection,
    removalPolicy: props.removalPolicy,
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
function newClient(userPool: IUserPool): IUserPoolClient {
  return userPool.addClient('Client', {
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

/** Request headers the API reads, so a browser client may send them across origins. */
const CORS_REQUEST_HEADERS = ['authorization', 'content-type', 'if-match', 'idempotency-key'];

/** The HTTP API's settings: the props of `ActionTrackingService` about the API. */
export interface ApiOptions {
  /**
   * CORS for browser clients; the headers the API reads are always allowed.
   *
   * @default - none (same-origin or server-side callers only)
   */
  readonly cors?: CorsPreflightOptions;
  /**
   * Stage-wide request rate and burst.
   *
   * @default - 100 requests a second, bursts of 200
   */
  readonly throttle?: Required<ThrottleSettings>;
  /**
   * Rate and burst of each public route (the API description, the docs, and `$default`, which
   * answers unknown paths), route by route, so anonymous traffic cannot spend the authenticated
   * routes' throttle.
   *
   * @default - 10 requests a second, bursts of 20
   */
  readonly publicThrottle?: Required<ThrottleSettings>;
  /**
   * JSON access logs of the API stage.
   *
   * @default true
   */
  readonly accessLogs?: boolean;
}

/** The per-caller quotas and the list budget (docs/list-cost.md): the props of `ActionTrackingService` every function reads. */
export interface QuotaOptions {
  /**
   * Requests one caller (token `sub`) may make a minute (`RATE_LIMIT_REQUESTS`).
   *
   * @default 600
   */
  readonly rateLimitRequests?: number;
  /**
   * Index entries one caller's lists may read a minute (`RATE_LIMIT_READS`).
   *
   * @default 2000000
   */
  readonly rateLimitReads?: number;
  /**
   * The most index entries one list may read (`LIST_READ_BUDGET`).
   *
   * @default 200000
   */
  readonly listReadBudget?: number;
}

/** Each quota, when given, a positive whole number. */
export function checkedQuotas(options: QuotaOptions): void {
  const limits = {
    rateLimitRequests: options.rateLimitRequests,
    rateLimitReads: options.rateLimitReads,
    listReadBudget: options.listReadBudget,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0))
      throw new Error(`${name} must be a positive whole number`);
  }
}

/** The quotas given, as the variables `lib/config.ts` reads (the rest take its defaults). */
export const quotaEnvironment = (options: QuotaOptions): Record<string, string> => ({
  ...(options.rateLimitRequests ? { RATE_LIMIT_REQUESTS: String(options.rateLimitRequests) } : {}),
  ...(options.rateLimitReads ? { RATE_LIMIT_READS: String(options.rateLimitReads) } : {}),
  ...(options.listReadBudget ? { LIST_READ_BUDGET: String(options.listReadBudget) } : {}),
});

export interface ServiceApiProps extends ApiOptions {
  /** The function that answers unmatched requests (404/405 problem+json), without a token. */
  readonly fallback: ServiceFunction;
  /** Retention of the access logs. */
  readonly logRetention: RetentionDays;
}

export interface ServiceRoutesProps {
  /** Every function, by handler name: each route goes to its handler's. */
  readonly functions: Readonly<Record<string, ServiceFunction>>;
  readonly userPool: IUserPool;
  /** The app clients whose ID tokens the authorizer accepts (read when the first route binds it). */
  readonly audience: IUserPoolClient[];
}

/**
 * The HTTP API and its one stage, with access logs and the public routes' own throttles. The
 * routes come in a second step, `addRoutes`: the console is made between the two, since it needs
 * the API, and its app client must be in the authorizer's audience before the first route binds it.
 */
export class ServiceApi {
  readonly api: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, props: ServiceApiProps) {
    this.api = new HttpApi(scope, 'Api', {
      description: 'Action tracking service',
      corsPreflight: props.cors && {
        ...props.cors,
        // A browser may send these to the API whatever else the props allow.
        allowHeaders: [...new Set([...(props.cors.allowHeaders ?? []), ...CORS_REQUEST_HEADERS])],
      },
      createDefaultStage: false,
      // Unmatched requests get the service's own 404/405 problem+json, without a token.
      defaultIntegration: new HttpLambdaIntegration('NotFound', props.fallback.function),
    });
    const accessLogs =
      (props.accessLogs ?? true)
        ? new LogGroup(scope, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY })
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
    if (!accessLogs) {
      Validations.of(this.stage).acknowledge({
        id: 'AwsSolutions-APIG1',
        reason: 'Access logging was turned off by the accessLogs prop.',
      });
    }
    // Each public route (and $default) gets a throttle of its own, so it never spends the stage's.
    const publicThrottle = props.publicThrottle ?? { rateLimit: 10, burstLimit: 20 };
    const publicRouteKeys = [...routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`), '$default'];
    (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      publicRouteKeys.map((key) => [
        key,
        { ThrottlingRateLimit: publicThrottle.rateLimit, ThrottlingBurstLimit: publicThrottle.burstLimit },
      ]),
    );
  }

  /** Exactly the routes of lib/http/routes.ts, each to its handler, behind the JWT authorizer unless public. */
  addRoutes(props: ServiceRoutesProps): void {
    const authorizer = new HttpUserPoolAuthorizer('Cognito', props.userPool, { userPoolClients: props.audience });
    const integrations: Record<string, HttpLambdaIntegration> = {};
    for (const route of routes) {
      integrations[route.handler] ??= new HttpLambdaIntegration(
        route.handler,
        props.functions[route.handler]!.function,
      );
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
