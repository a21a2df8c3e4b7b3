import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, type ILocalBundling, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PostingsAccess, TableAccess } from '../../lib/http/routes';

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
    this.function = new LambdaFunction(this, 'Function', {
      ...common,
      code: existsSync(entry)
        ? bundledFromSource(entry, props.filesBesideBundle)
        : Code.fromAsset(prebuiltDirectory(props.handler)),
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

/**
 * The handler bundled on this machine by `infra/bundle-handler.ts` (esbuild with the options of
 * `infra/bundling.ts`) when CDK stages it, as `NodejsFunction` would but with the plugin its
 * esbuild step cannot take. The asset is hashed by its output, so an unchanged bundle is not
 * uploaded again; the Docker image is never used (local bundling always answers).
 */
function bundledFromSource(entry: string, beside: FilesBesideBundle | undefined): Code {
  return Code.fromAsset(join(projectRoot, 'functions'), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
      local: new HandlerBundling(entry, beside),
    },
  });
}

/**
 * Local bundling of one handler. Its fields are what CDK's staging cache keys on (it serializes
 * the bundling options), so each handler is bundled once per synth, and only once.
 */
class HandlerBundling implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly beside: FilesBesideBundle | undefined,
  ) {}

  tryBundle(outputDir: string): boolean {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'infra', 'bundle-handler.ts'), this.entry, outputDir],
      { cwd: projectRoot, stdio: 'inherit' },
    );
    for (const file of this.beside?.files ?? []) {
      cpSync(join(projectRoot, this.beside!.from, file), join(outputDir, this.beside!.to, file));
    }
    return true;
  }
}
