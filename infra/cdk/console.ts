import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, type CfnElement, Duration, Names, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  type ResponseHeadersPolicyProps,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  CfnManagedLoginBranding,
  type IUserPool,
  ManagedLoginVersion,
  OAuthScope,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_CONFIG_PATH, type ConsoleConfig, consoleSecurityHeaders } from '../../console/headers';
import { DOCS_SECURITY_HEADERS } from '../../lib/api-docs/docs-headers';
import { projectRoot } from './service-function';

/** How the console is deployed (prop `console` of the service). */
export interface ConsoleOptions {
  /**
   * The Cognito domain prefix of managed login, `https://<prefix>.auth.<region>.amazoncognito.com`:
   * unique in the region across AWS; lowercase letters, digits and hyphens, without `aws`,
   * `amazon` or `cognito`.
   * @default this construct's unique name and the account id
   */
  readonly domainPrefix?: string;
  /**
   * The built console (`index.html` and hashed files under `assets/`).
   * @default `console/dist` of this repository (`npm run build:console`), or in the installed package the build it ships
   */
  readonly assetsDirectory?: string;
}

export interface ServiceConsoleProps extends ConsoleOptions {
  readonly userPool: IUserPool;
  /** The HTTP API `/api/*` and `/docs*` are passed to, on the console's own origin. */
  readonly api: IHttpApi;
  /** What deleting the stack does to the buckets. */
  readonly removalPolicy: RemovalPolicy;
  /**
   * The attachment bucket's origin (`https://<bucket regional domain>`), where the console posts
   * uploads and reads files by presigned URLs (contract section 15): its CSP and its settings name it.
   * @default none: the console's CSP allows no storage origin
   */
  readonly storageOrigin?: string;
}

/** The console's built files: in this repository its build output, in the installed package the copy it ships. */
export const defaultConsoleAssets = () =>
  [join(projectRoot, 'console', 'dist'), join(projectRoot, 'dist', 'console')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );

/** Hashed file names never change content; `index.html` and the settings file change with every deployment. */
const IMMUTABLE = CacheControl.fromString('public, max-age=31536000, immutable');
const REVALIDATE = CacheControl.fromString('no-cache');

/**
 * Answers the console's screens (`/`, `/new`, `/actions/<id>`: a last path segment without a
 * dot) with `index.html`, so a copied address opens the same screen; files pass through. Better
 * than turning S3's 403 into index.html, which would also hide a missing asset behind a 200.
 */
export const screenRewrite = `function handler(event) {
  var request = event.request;
  if (!/\\.[^/]*$/.test(request.uri)) request.uri = '/index.html';
  return request;
}`;

/**
 * The console (contract section 13) in AWS: its built files in a private bucket behind CloudFront
 * (origin access control), `/api/*` and `/docs*` passed to the HTTP API on the same origin (no
 * CORS), security headers with the strict CSP of `console/headers.ts`, and sign-in by
 * Cognito managed login with a public app client (authorization code; the console always sends
 * an S256 PKCE challenge: Cognito has no client setting that requires one, and without a secret
 * a code is worthless without its verifier).
 */
export class ServiceConsole extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** The public app client the console signs in with. */
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** `https://<distribution domain>`. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ServiceConsoleProps) {
    super(scope, id);
    const assets = props.assetsDirectory ?? defaultConsoleAssets();
    if (!assets || !existsSync(join(assets, 'index.html')))
      throw new Error(
        `the console's built files are missing (${assets ?? 'console/dist'}): run \`npm run build:console\`, or set console: false`,
      );

    this.domain = props.userPool.addDomain('SignIn', {
      cognitoDomain: {
        domainPrefix:
          props.domainPrefix ??
          `${Names.uniqueResourceName(this, { maxLength: 40, separator: '-' }).toLowerCase()}-${Aws.ACCOUNT_ID}`,
      },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    const signInOrigin = this.domain.baseUrl();

    const logs = new Bucket(this, 'Logs', {
      // CloudFront's standard logs are written with an ACL, so this bucket keeps ACLs for its owner.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'bucket/',
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
    });

    const screens = new CloudFrontFunction(this, 'Screens', {
      code: FunctionCode.fromInline(screenRewrite),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Console screens (paths without a file extension) are answered with index.html',
    });
    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'The console: security headers and its Content-Security-Policy',
      ...responseHeaders(consoleSecurityHeaders(signInOrigin, props.storageOrigin)),
    });
    // The docs page shares the console's origin, so it gets the console's strict headers here as
    // well as from its handler; the API's own answers (API Gateway's 413 or 429 included) nosniff.
    const docsHeaders = new ResponseHeadersPolicy(this, 'DocsHeaders', {
      comment: 'The API docs (/docs*): the console security headers and its Content-Security-Policy',
      ...responseHeaders(DOCS_SECURITY_HEADERS),
    });
    const apiHeaders = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'The API (/api/*): X-Content-Type-Options nosniff on every answer',
      securityHeadersBehavior: { contentTypeOptions: { override: true } },
    });
    const api = new HttpOrigin(`${props.api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    });
    // The API answers for itself: never cached, every header but Host passed on (the Authorization
    // header among them: allowed without caching), and its own response headers.
    const toApi = {
      origin: api,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Action tracking console, with the API on the same origin',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'distribution/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        // Caches by the files' own Cache-Control: no-cache for index.html, a year for hashed files.
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: screens, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': { ...toApi, allowedMethods: AllowedMethods.ALLOW_ALL, responseHeadersPolicy: apiHeaders },
        '/docs*': { ...toApi, allowedMethods: AllowedMethods.ALLOW_GET_HEAD, responseHeadersPolicy: docsHeaders },
      },
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the viewer TLS policy; a custom domain would need a certificate of its own.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The people who work actions may be anywhere; no country is excluded.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        'No WAF web ACL: the API behind /api/* has its own throttles and per-caller quotas, and the console is static files.',
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    this.client = props.userPool.addClient('ConsoleClient', {
      generateSecret: false,
      // No password flows: a person signs in on the managed login page only; tokens refresh.
      authFlows: { userSrp: false },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [`${this.url}/`],
        logoutUrls: [`${this.url}/`],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // A working day: the console keeps its refresh token in sessionStorage at most.
      refreshTokenValidity: Duration.hours(12),
      // Rotation: every refresh answers a new refresh token and the used one ends 10 s later (a
      // retry's grace), so a copied token dies with the next refresh; the local stand-in does the
      // same (infra/local/refresh-tokens.ts). Sign out revokes it (/oauth2/revoke, token revocation
      // above). With rotation Cognito refuses REFRESH_TOKEN_AUTH, so aws-cdk-lib leaves it out of the
      // explicit flows: the console refreshes at the token endpoint.
      refreshTokenRotationGracePeriod: Duration.seconds(10),
    });
    // Managed login (version 2) shows a page only for clients with a branding style: Cognito's own.
    new CfnManagedLoginBranding(this, 'Branding', {
      userPoolId: props.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });

    const settings: ConsoleConfig = {
      authority: signInOrigin,
      clientId: this.client.userPoolClientId,
      apiBase: '/api',
      ...(props.storageOrigin ? { storageOrigin: props.storageOrigin } : {}),
    };
    const { role, logGroup } = this.copier(props.removalPolicy);
    // Hashed files first, then the pages that name them, so no index.html points at a file not yet there.
    const files = new BucketDeployment(this, 'Files', {
      role,
      logGroup,
      destinationBucket: this.bucket,
      sources: [Source.asset(assets, { exclude: ['index.html'] })],
      cacheControl: [IMMUTABLE],
      // Earlier builds' hashed files stay: a browser holding an older index.html still finds them.
      prune: false,
    });
    const pages = new BucketDeployment(this, 'Pages', {
      role,
      logGroup,
      destinationBucket: this.bucket,
      sources: [
        Source.asset(assets, { exclude: ['*', '!index.html'] }),
        Source.jsonData(CONSOLE_CONFIG_PATH.replace(/^\//, ''), settings),
      ],
      cacheControl: [REVALIDATE],
      prune: false,
    });
    pages.node.addDependency(files);
    // aws-cdk-lib's copier: one function per stack and role, made at the stack's top level.
    const copier = Stack.of(this).node.children.find(
      (child) => child instanceof LambdaFunction && child.role === role,
    ) as LambdaFunction;
    Validations.of(copier).acknowledge({
      id: 'AwsSolutions-L1',
      reason: "aws-cdk-lib's own BucketDeployment function: its runtime is aws-cdk-lib's choice and moves with it.",
    });
  }

  /**
   * The role of the function that copies the files into the bucket: its own log group instead of
   * the managed AWSLambdaBasicExecutionRole policy. BucketDeployment grants it the rest: reading
   * the staged files, writing the console bucket.
   */
  private copier(removalPolicy: RemovalPolicy): { role: Role; logGroup: LogGroup } {
    const role = new Role(this, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the console files into its bucket (BucketDeployment)',
    });
    const logGroup = new LogGroup(this, 'DeploymentLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: removalPolicy === RemovalPolicy.DESTROY ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    logGroup.grantWrite(role);
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'])
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `BucketDeployment's read and write grants on the staged files and the console bucket name ${action}.`,
      });
    // The assets bucket's name holds the account and region: literal when the stack's environment
    // is known (the CLI fills in a default region), pseudo parameters when it is not.
    const { account, region } = Stack.of(this);
    const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${named(account, 'AccountId')}-${named(region, 'Region')}/*]`,
      reason: 'The staged console files are objects of the CDK assets bucket, under names known only at deploy time.',
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
      reason: 'The console bucket holds only the console: the copier writes any file of it.',
    });
    return { role, logGroup };
  }
}

/**
 * The console's headers as a CloudFront response headers policy: CloudFront takes the
 * security headers it knows in fields of their own and refuses them as custom headers.
 */
function responseHeaders(
  headers: Record<string, string>,
): Pick<ResponseHeadersPolicyProps, 'securityHeadersBehavior' | 'customHeadersBehavior'> {
  const {
    'content-security-policy': contentSecurityPolicy,
    'strict-transport-security': hsts,
    'x-content-type-options': contentTypeOptions,
    'x-frame-options': frameOptions,
    'referrer-policy': referrerPolicy,
    ...custom
  } = headers;
  const maxAge = /max-age=(\d+)/.exec(hsts ?? '')?.[1];
  if (!contentSecurityPolicy || !maxAge || contentTypeOptions !== 'nosniff')
    throw new Error('the console headers need a CSP, HSTS with max-age and nosniff');
  return {
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(Number(maxAge)),
        includeSubdomains: /includeSubDomains/i.test(hsts ?? ''),
        preload: /preload/i.test(hsts ?? ''),
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: frameOption(frameOptions), override: true },
      referrerPolicy: { referrerPolicy: referrerPolicyOf(referrerPolicy), override: true },
    },
    customHeadersBehavior: {
      customHeaders: Object.entries(custom).map(([header, value]) => ({ header, value, override: true })),
    },
  };
}

function frameOption(value: string | undefined): HeadersFrameOption {
  if (value === 'DENY') return HeadersFrameOption.DENY;
  if (value === 'SAMEORIGIN') return HeadersFrameOption.SAMEORIGIN;
  throw new Error(`x-frame-options ${value} has no CloudFront equivalent`);
}

function referrerPolicyOf(value: string | undefined): HeadersReferrerPolicy {
  const policy = Object.values(HeadersReferrerPolicy).find((p) => p === value);
  if (!policy) throw new Error(`referrer-policy ${value} has no CloudFront equivalent`);
  return policy;
}
