import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PostingsAccess, TableAccess } from '../../lib/http/routes';
import { esmRequireBanner, mainFields, unreachableCredentialProviders } from '../bundling';

/**
 * The repository root (handler entries are `functions/<handler>.ts` under it), or, in the
 * installed package, the package root, where `npm pack` put the prebuilt bundles.
 */
export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where `npm pack` (scripts/build-package.ts) puts each handler's prebuilt bundle. */
export const prebuiltDirectory = (handler: string) => join(projectRoot, 'dist', 'functions', handler);

/** Files a handler reads at run time, copied from the project into a folder beside its bundle. */
export interface FilesBesideBundle {
  /** A folder relative to the project root, e.g. `node_modules/swagger-ui-dist`. */
  readonly from: string;
  /** The folder beside the bundle, e.g. `swagger-ui`. */
  readonly to: string;
  readonly files: readonly string[];
}

export interface ServiceFunctionProps {
  /** The handler module: `functions/<handler>.ts`. */
  readonly handler: string;
  /** Everything the function may do beyond writing its own logs and traces. */
  readonly permissions: readonly PolicyStatement[];
  readonly environment: Record<string, string>;
  /**
   * How long an invocation may run: the store gives up after 5 s, so an API caller gets an answer well before 30.
   * @default 10 seconds
   */
  readonly timeout?: Duration;
  /**
   * The function's memory, in MB.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * How long its log group keeps logs.
   * @default one month
   */
  readonly logRetention?: RetentionDays;
  /**
   * Files copied beside the bundle (the ones it reads at run time).
   * @default none
   */
  readonly filesBesideBundle?: FilesBesideBundle;
  /**
   * Concurrency reserved for this function (and its ceiling).
   * @default none
   */
  readonly reservedConcurrency?: number;
}

/**
 * Makes, once, the function of `functions/<handler>.ts` with the service's environment and exactly
 * the table calls it lists (and its `postings` calls on the postings' table): what
 * `ActionTrackingService` hands each capability that adds functions.
 */
export type HandlerFunction = (
  handler: string,
  access: readonly TableAccess[],
  timeout?: Duration,
  postings?: readonly PostingsAccess[],
) => ServiceFunction;

/**
 * A handler of `functions/` as a Lambda function. Fixes what every function shares (Node.js 22
 * on arm64, esbuild bundling on this machine into minified ESM with source maps, the AWS SDK
 * bundled at the version the tests ran against, X-Ray tracing, a log group with a retention)
 * so that each handler is one line naming its entry and its permissions. The role holds only
 * the given statements plus its own log group and X-Ray; no managed policy.
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      // Logs age out anyway; a torn-down service should not leave them behind.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);
    for (const statement of props.permissions) this.role.addToPrincipalPolicy(statement);

    const common = {
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      role: this.role,
      // Stack traces in the logs point at the TypeScript sources, through the bundled source maps.
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      description: `functions/${props.handler}.ts`,
      ...(props.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
    };
    const entry = join(projectRoot, 'functions', `${props.handler}.ts`);
    // In this repository the handler is bundled from its source at synth time; an installed
    // package has no sources, only the bundles `npm pack` built with the same settings.
    this.function = existsSync(entry)
      ? new NodejsFunction(this, 'Function', {
          ...common,
          entry,
          handler: 'handler',
          projectRoot,
          depsLockFilePath: join(projectRoot, 'package-lock.json'),
          bundling: {
            forceDockerBundling: false,
            format: OutputFormat.ESM,
            minify: true,
            sourceMap: true,
            sourcesContent: false,
            mainFields,
            // Bundled CommonJS dependencies call require(), which ESM output does not define.
            banner: esmRequireBanner,
            // Empty would leave the runtime's SDK to be used; the bundle carries the tested one instead.
            externalModules: unreachableCredentialProviders,
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir, outputDir) => copyCommands(inputDir, outputDir, props.filesBesideBundle),
            },
          },
        })
      : new LambdaFunction(this, 'Function', {
          ...common,
          code: Code.fromAsset(prebuiltDirectory(props.handler)),
          handler: 'index.handler',
        });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to Node.js 22 on purpose: the runtime the handlers are tested against.',
    });
  }
}

function copyCommands(inputDir: string, outputDir: string, copy: FilesBesideBundle | undefined): string[] {
  if (!copy) return [];
  const target = join(outputDir, copy.to);
  return [`mkdir -p "${target}"`, ...copy.files.map((file) => `cp "${join(inputDir, copy.from, file)}" "${target}/"`)];
}
