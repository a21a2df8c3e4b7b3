import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexList } from '../../lib/store/indexes';

/**
 * Issue 16: the construct as a package a team installs. `npm pack` (its prepack builds the
 * function bundles, the construct's JavaScript and its types), then the tarball is installed with
 * aws-cdk-lib and constructs into an empty app outside this repository, which synthesizes one
 * stack with the defaults and one that brings its own table, user pool and bus, and checks them
 * with cdk-nag. Offline: the peers come from this repository's node_modules, as a team's would
 * come from theirs.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'actions-package-'));
const app = join(work, 'consumer-app');
let tarball: { filename: string; size: number; files: Array<{ path: string }> };
let synthesized: { findings: Array<{ stack: string; rule: string; path: string }> };

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The consumer's app: a few lines, as docs/deploy.md shows them. */
const consumerApp = `
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { AwsSolutionsChecks } from 'cdk-nag';
import { writeFileSync } from 'node:fs';
import { ActionTrackingService } from 'action-tracking-service/cdk';

const app = new App({ outdir: 'cdk.out' });
const defaults = new Stack(app, 'Defaults');
const service = new ActionTrackingService(defaults, 'Actions');

const own = new Stack(app, 'OwnResources', { env: { account: '123456789012', region: 'eu-west-1' } });
new ActionTrackingService(own, 'Actions', {
  table: Table.fromTableAttributes(own, 'Table', {
    tableName: 'team-actions',
    tableStreamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/team-actions/stream/2026-01-01T00:00:00.000',
  }),
  postingsTable: Table.fromTableName(own, 'Postings', 'team-actions-postings'),
  userPool: UserPool.fromUserPoolId(own, 'Pool', 'eu-west-1_Team'),
  userPoolClient: UserPoolClient.fromUserPoolClientId(own, 'Client', 'teamclient'),
  eventBus: EventBus.fromEventBusName(own, 'Bus', 'team-bus'),
  producerSources: ['sap.maintenance'],
});

const findings = [];
for (const stack of [defaults, own]) {
  for (const v of new AwsSolutionsChecks().validateScope(stack).violations) {
    for (const r of v.violatingResources) findings.push({ stack: stack.stackName, rule: v.ruleName, path: r.constructPath });
  }
}
app.synth();
writeFileSync('result.json', JSON.stringify({ findings, url: typeof service.url, alarms: service.alarms.length }));
`;

beforeAll(() => {
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', work], ROOT).replace(/^[^[]*/s, ''),
  ) as (typeof tarball)[];
  tarball = packed[0] as typeof tarball;
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true, type: 'module' }));
  const peer = (name: string) => join(ROOT, 'node_modules', name);
  run(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      join(work, tarball.filename),
      peer('aws-cdk-lib'),
      peer('constructs'),
      peer('cdk-nag'),
    ],
    app,
  );
  writeFileSync(join(app, 'app.mjs'), consumerApp);
  run(process.execPath, ['app.mjs'], app);
  synthesized = JSON.parse(readFileSync(join(app, 'result.json'), 'utf8'));
}, 240_000);

afterAll(() => (process.env.KEEP ? undefined : rmSync(work, { recursive: true, force: true })));

const template = (stack: string) =>
  JSON.parse(readFileSync(join(app, 'cdk.out', `${stack}.template.json`), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: Record<string, any>; Metadata?: Record<string, string> }>;
  };
const ofType = (stack: string, type: string) => Object.values(template(stack).Resources).filter((r) => r.Type === type);

describe('the npm package', () => {
  it('ships the construct, its types and the prebuilt functions, and no tests, fixtures or local stack', () => {
    const files = tarball.files.map((f) => f.path);
    console.info(`${tarball.filename}: ${(tarball.size / 1024 / 1024).toFixed(1)} MB packed, ${files.length} files`);
    expect(files).toContain('dist/cdk/index.js');
    expect(files).toContain('dist/types/infra/cdk/index.d.ts');
    expect(files).toContain('dist/functions/createAction/index.mjs');
    expect(files).toContain('dist/functions/docs/swagger-ui/swagger-ui-bundle.js');
    expect(files).toContain('dist/console/index.html');
    expect(files).toContain('LICENSE');
    for (const file of files) {
      expect(file).toMatch(
        /^(dist\/(cdk|types\/infra\/cdk|functions|console)\/|dist\/package\.json$|package\.json$|README\.md$|LICENSE$)/,
      );
    }
    expect(files.some((f) => /test|fixture|infra\/local|\.ts$/.test(f.replace(/\.d\.ts$/, '')))).toBe(false);
  });

  it('installs without esbuild or TypeScript: nothing but the construct and its peers', () => {
    const installed = readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['action-tracking-service', 'aws-cdk-lib', 'cdk-nag', 'constructs']);
    expect(existsSync(join(app, 'node_modules', 'esbuild'))).toBe(false);
  });

  it.each(['Defaults', 'OwnResources'])(
    '%s: every function deploys its prebuilt bundle, staged as an asset',
    (stack) => {
      // aws-cdk-lib's BucketDeployment copies the console's files with a Python function of its
      // own (at most one); every other function is the service's, from the prebuilt bundles.
      const all = ofType(stack, 'AWS::Lambda::Function');
      const functions = all.filter((fn) => !String(fn.Properties.Runtime).startsWith('python'));
      expect(all.length - functions.length).toBeLessThanOrEqual(1);
      expect(functions.length).toBeGreaterThanOrEqual(17);
      const manifest = JSON.parse(readFileSync(join(app, 'cdk.out', `${stack}.assets.json`), 'utf8')) as {
        files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
      };
      const staged = new Map(
        Object.values(manifest.files).flatMap((file) =>
          Object.values(file.destinations).map((d) => [d.objectKey, file.source.path] as const),
        ),
      );
      for (const fn of functions) {
        expect(fn.Properties.Runtime).toBe('nodejs22.x');
        expect(fn.Properties.Handler).toBe('index.handler');
        const asset = staged.get(fn.Properties.Code.S3Key) as string;
        expect(asset, fn.Properties.Description).toBeDefined();
        expect(existsSync(join(app, 'cdk.out', asset, 'index.mjs')), asset).toBe(true);
      }
    },
  );

  it('with the defaults: a table keyed and streamed as the service needs, and a Cognito JWT authorizer', () => {
    const tables = ofType('Defaults', 'AWS::DynamoDB::Table');
    // The table, and the search postings' table (keys only).
    expect(tables).toHaveLength(2);
    const table = tables.find((t) => t.Properties.StreamSpecification);
    expect(table?.Properties.KeySchema).toEqual([
      { AttributeName: 'id', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(table?.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    // Every index of the one table description (all 20 of DynamoDB's 20 since a site's due order).
    expect(table?.Properties.GlobalSecondaryIndexes).toHaveLength(indexList.length);
    expect(table?.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    const [authorizer] = ofType('Defaults', 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizer?.Properties.AuthorizerType).toBe('JWT');
    expect(ofType('Defaults', 'AWS::Cognito::UserPool')).toHaveLength(1);
    expect(ofType('Defaults', 'AWS::Events::EventBus')).toHaveLength(1);
  });

  it('with its own tables, user pool and bus: creates none of them, and uses them', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Cognito::UserPool', 'AWS::Events::EventBus']) {
      expect(ofType('OwnResources', type), type).toHaveLength(0);
    }
    const [authorizer] = ofType('OwnResources', 'AWS::ApiGatewayV2::Authorizer');
    expect(JSON.stringify(authorizer?.Properties.JwtConfiguration)).toContain('eu-west-1_Team');
    const streams = ofType('OwnResources', 'AWS::Lambda::EventSourceMapping').map((m) => m.Properties.EventSourceArn);
    expect(streams).toContain(
      'arn:aws:dynamodb:eu-west-1:123456789012:table/team-actions/stream/2026-01-01T00:00:00.000',
    );
    const [rule] = ofType('OwnResources', 'AWS::Events::Rule');
    expect(rule?.Properties.EventBusName).toBe('team-bus');
    expect(rule?.Properties.EventPattern.source).toEqual(['sap.maintenance']);
  });

  // One type check of two programs against aws-cdk-lib (10-20 s on a quiet machine, more on a
  // busy one; two checks, one per program, cost twice that): the right props compile without an
  // error, and a wrong one fails with the error on its line.
  it('types a TypeScript app: props are checked, a wrong one fails to compile', () => {
    const program = (props: string) => `import { App, Stack } from 'aws-cdk-lib';
import { ActionTrackingService, type ActionTrackingServiceProps } from 'action-tracking-service/cdk';
const props: ActionTrackingServiceProps = ${props};
const service = new ActionTrackingService(new Stack(new App(), 'S'), 'Actions', props);
export const url: string = service.url;
`;
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['consumer.ts', 'wrong.ts'],
      }),
    );
    writeFileSync(join(app, 'consumer.ts'), program("{ producerSources: ['sap'], deletionProtection: false }"));
    writeFileSync(join(app, 'wrong.ts'), program("{ producerSources: 'sap' }"));
    const errors = (() => {
      try {
        run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], app);
        return 'compiled';
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    })();
    // Every error is the wrong program's one: the right one compiles.
    expect(errors.split('\n').filter((line) => /error TS/.test(line))).toEqual([
      expect.stringMatching(
        /^wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type '(readonly )?string\[\]'/,
      ),
    ]);
  }, 180_000);

  it("leaves cdk-nag (AwsSolutions) nothing to report in the consumer's stacks", () => {
    expect(synthesized.findings).toEqual([]);
  });
});
