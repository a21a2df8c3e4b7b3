/**
 * How every handler is bundled, shared by the CDK function construct and the benchmark's size
 * report, so the sizes it prints are the sizes that deploy. No CDK import: cheap to load.
 */

/**
 * Credential providers the SDK's default chain imports lazily, and only when the environment
 * holds no credentials. Lambda always puts the function role's credentials in the environment,
 * which the chain reads first, so this code never runs there; leaving it out of the bundle
 * saves about 100 KB per function (SSO, profile files, web identity, container and instance
 * metadata, and the STS/SSO clients they carry).
 */
export const unreachableCredentialProviders = [
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
export const esmRequireBanner =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** Prefer packages' ES module builds, which esbuild can trim. */
export const mainFields = ['module', 'main'];
