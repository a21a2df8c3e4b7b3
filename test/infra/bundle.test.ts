import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerBuild, literalSchemaKeys } from '../../infra/bundling';
import { type BundleSize, budgetOf, bundleSizes } from '../../infra/cdk/bundle-sizes';
import { fallbackRoute, functionHandlers } from '../../lib/http/routes';

const run = promisify(execFile);
const handlers = functionHandlers;
const projectRoot = join(import.meta.dirname, '..', '..');

/**
 * The one test that bundles for real: `npx cdk synth` as a user runs it (the pinned CLI, the
 * app entry, cdk-nag as a synth-time check, esbuild on this machine, no network, no Docker),
 * then the bundles themselves are measured and two of them are loaded and invoked.
 *
 * Its synth bundles each function once, in turn: `infra/bundle-handler.ts` in a Node process of
 * its own (infra/cdk/service-function.ts), as a user's synth does.
 */
describe('npx cdk synth', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  let output: { stdout: string; stderr: string };
  let sizes: BundleSize[];
  let assembly: CloudAssembly;

  beforeAll(async () => {
    output = await run(
      'npx',
      ['cdk', 'synth', '--quiet', '--no-notices', '-c', 'notificationsFrom=actions@example.com', '--output', outdir],
      {
        env: {
          ...process.env,
          CDK_DISABLE_CLI_TELEMETRY: 'true',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    assembly = new CloudAssembly(outdir);
    sizes = bundleSizes(assembly);
  }, 240_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('bundles every function with esbuild and prints each bundle size', () => {
    expect(sizes.map((s) => s.function).sort()).toEqual(handlers.map((h) => `functions/${h}.ts`).sort());
    for (const size of sizes) expect(output.stderr).toMatch(new RegExp(`${size.function}\\s+\\d+\\.\\d KB`));
  });

  it.each(handlers)(
    'keeps %s within its budget minified, AWS SDK included (400 KB; 440 KB to create or attach an upload; 1,620 KB for the workers)',
    (handler) => {
      const size = sizes.find((s) => s.function === `functions/${handler}.ts`);
      expect(size?.bytes).toBeGreaterThan(1000);
      expect(size!.bytes, `${(size!.bytes / 1024).toFixed(1)} KB`).toBeLessThanOrEqual(
        budgetOf(`functions/${handler}.ts`),
      );
    },
  );

  /**
   * Issue 54: zod's classic API (83-88 KB) comes only with a body's schema, which lives beside the
   * one use case that validates it; a function that reads, lists or deletes carries none. A
   * module-level schema imported where it is not called would bring it back under the budgets
   * (getAction would still be under 400 KB), so the bundles are read for zod's own error name.
   */
  it('carries zod only in the functions that validate a body with it', () => {
    // Zod's error class: "ZodError" in the classic API, "$ZodError" in zod/mini.
    const withZod = handlers.filter((handler) => /"\$?ZodError"/.test(readFileSync(bundleOf(handler), 'utf8')));
    expect(withZod.sort()).toEqual(
      [
        'createAction',
        'updateAction',
        'ingestActions',
        'importActions',
        'addComment',
        'editComment',
        'createGrant',
        'createWebhook',
        'updateWebhook',
        'createUpload',
        'attachUpload',
        'createImportUpload',
        'createImport',
      ].sort(),
    );
  });

  /**
   * `literalSchemaKeys` rewrites generated SDK code, so a probe of the calls the service makes
   * (test/infra/fixtures/sdk-probe.ts) is bundled with and without it and run: the requests as they
   * would go on the wire, two presigned uploads and downloads, and the canned answers and errors as
   * the clients read them must be the same.
   */
  it('bundles the SDK with literal schema keys that change no request and no answer', async () => {
    const probe = async (plugins?: []) => {
      const outfile = join(outdir, 'probe', plugins ? 'stock' : 'literal', 'index.mjs');
      const options = handlerBuild(join(import.meta.dirname, 'fixtures', 'sdk-probe.ts'), outfile);
      await build({ ...options, sourcemap: false, ...(plugins ? { plugins } : {}) });
      const { stdout } = await run(process.execPath, [outfile], {
        env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      return JSON.parse(stdout) as Record<string, { error?: { name: string } }>;
    };
    const [literal, stock] = await Promise.all([probe(), probe([])]);
    expect(Object.keys(literal)).toHaveLength(21);
    expect(literal).toEqual(stock);
    expect((literal.head as { output: object }).output).toMatchObject({ ContentLength: 0, TagCount: 2 });
    expect(literal.transactCancelled?.error).toMatchObject({
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
    });
    expect(literal.putRefused?.error?.name).toBe('ConditionalCheckFailedException');
    expect(literal.missing?.error?.name).toBe('NotFound');
  }, 60_000);

  /**
   * And every schema of every client the service bundles, used or not: each client's
   * `schemas_0.js` loaded with and without the plugin must export the same values, and with it no
   * computed key is left (once the SDK ships literal keys itself, the plugin has nothing to do).
   */
  it.each(['client-s3', 'client-sesv2', 'client-dynamodb', 'client-eventbridge'])(
    'rewrites every schema of @aws-sdk/%s and changes none',
    async (client) => {
      const schemas = join(projectRoot, 'node_modules', '@aws-sdk', client, 'dist-es', 'schemas', 'schemas_0.js');
      const load = async (kind: string, plugins: Plugin[]) => {
        const outfile = join(outdir, 'schemas', `${client}-${kind}.mjs`);
        const print = "(_, v) => (typeof v === 'function' ? 'function ' + v.name : v)";
        await build({
          stdin: {
            contents: `import * as s from ${JSON.stringify(schemas)};\nconsole.log(JSON.stringify(s, ${print}));`,
            resolveDir: projectRoot,
            loader: 'js',
          },
          bundle: true,
          platform: 'node',
          format: 'esm',
          outfile,
          plugins,
          logLevel: 'warning',
        });
        const { stdout } = await run(process.execPath, [outfile], { maxBuffer: 64 * 1024 * 1024 });
        return { exported: stdout, source: readFileSync(outfile, 'utf8') };
      };
      const [literal, stock] = await Promise.all([load('literal', [literalSchemaKeys]), load('stock', [])]);
      expect(literal.exported.length).toBeGreaterThan(10_000);
      expect(literal.exported).toBe(stock.exported);
      expect(literal.source).not.toMatch(/\[_\w+\]:/);
    },
    60_000,
  );

  /** The bundle `cdk synth` staged for one handler. */
  function bundleOf(handler: string): string {
    const stack = assembly.getStackByName('ActionTracking');
    const resources = Object.values(stack.template.Resources) as {
      Type: string;
      Properties: { Description?: string };
      Metadata: Record<string, string>;
    }[];
    const fn = resources.find(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === `functions/${handler}.ts`,
    )!;
    return join(outdir, fn.Metadata['aws:asset:path']!, 'index.mjs');
  }

  /** Loads a bundle in a fresh Node process, as Lambda would, and invokes it with one event. */
  async function invoke(handler: string, event: unknown) {
    const bundle = bundleOf(handler);
    const script = `const { handler } = await import(${JSON.stringify(bundle)});
      process.stdout.write(JSON.stringify(await handler(${JSON.stringify(event)}, { awsRequestId: 'test' })));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'eu-west-1',
        TABLE_NAME: 'actions',
        USER_POOL_ID: 'eu-west-1_Example',
        USER_POOL_CLIENT_ID: 'exampleclient',
        EVENT_BUS_NAME: 'actions',
        EVENT_SOURCE: 'action-tracking',
        LOG_LEVEL: 'silent',
      },
    });
    return JSON.parse(stdout) as { statusCode: number; headers: Record<string, string>; body: string };
  }

  const request = (method: string, path: string, pathParameters?: Record<string, string>) => ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    pathParameters,
    requestContext: { requestId: 'test', http: { method, path } },
    isBase64Encoded: false,
  });

  it('produces ESM bundles that load and run: the fallback answers 405 for a known path', async () => {
    const response = await invoke(fallbackRoute.handler, request('PUT', '/api/actions/abc'));
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, PATCH, DELETE');
    expect(response.headers['content-type']).toBe('application/problem+json');
  });

  it('copies the Swagger UI files beside the docs bundle', async () => {
    const response = await invoke('docs', request('GET', '/docs/swagger-ui.css', { file: 'swagger-ui.css' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/css/);
    expect(response.body.length).toBeGreaterThan(10_000);
  });
});
