/**
 * How every handler is bundled, shared by the CDK function construct and the benchmark's size
 * report, so the sizes it prints are the sizes that deploy. No CDK import: cheap to load.
 */
import { readFile } from 'node:fs/promises';
import type { BuildOptions, Plugin } from 'esbuild';

/**
 * Credential providers the SDK's default chain imports lazily, and only when the environment
 * holds no credentials. Lambda always puts the function role's credentials in the environment,
 * which the chain reads first, so this code never runs there; leaving it out of the bundle
 * saves about 100 KB per function (SSO, profile files, web identity, container and instance
 * metadata, and the STS/SSO clients they carry).
 */
const unreachableCredentialProviders = [
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
  '@aws-sdk/nested-clients',
  '@aws-sdk/token-providers',
];

/** ESM bundles still meet CommonJS dependencies that call `require`. */
const esmRequireBanner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** Prefer packages' ES module builds, which esbuild can trim. */
const mainFields = ['module', 'main'];

/**
 * The SDK clients' generated schemas (`dist-es/schemas/schemas_0.js`) key their objects by
 * computed names, `{ [_hH]: "x-amz-acl" }`, where `_hH` is a string constant of the same file.
 * esbuild must assume a computed key may run code, so it keeps every operation's schema, used or
 * not: about 57 KB of each S3 function (aws-sdk-js-v3#7607). This makes the change the SDK's code
 * generator is to make (smithy-typescript#1889): each `[_x]:` whose `_x` is such a constant becomes
 * its string, `"httpHeader":`. A computed key naming anything else is left as it is.
 */
export const literalSchemaKeys: Plugin = {
  name: 'literal-schema-keys',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/ },
      async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const constants = new Map<string, string>();
        for (const [, name, value] of source.matchAll(/^const (_\w+) = ("[^"\\\n]*");$/gm)) {
          // A literal `__proto__:` would set the object's prototype, which the computed key does not.
          if (value !== '"__proto__"') constants.set(name!, value!);
        }
        const contents = source.replace(/\[(_\w+)\]:/g, (key, name: string) => {
          const value = constants.get(name);
          return value === undefined ? key : `${value}:`;
        });
        return { contents, loader: 'js' };
      },
    );
  },
};

/** esbuild's options for one handler: what deploys, and what `npm pack` ships. */
export function handlerBuild(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields,
    banner: { js: esmRequireBanner },
    external: unreachableCredentialProviders,
    plugins: [literalSchemaKeys],
    logLevel: 'warning',
  };
}
