process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { defineConfig } from 'vitest/config';

/**
 * One run: unit tests (no I/O), integration tests through HTTP against the local stack that
 * `test/support/global-setup.ts` starts once (AWS's DynamoDB Local engine, in memory), and
 * infrastructure tests against the synthesized template.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    coverage: {
      provider: 'v8',
      include: ['functions/**', 'lib/**', 'infra/**'],
      reporter: ['text-summary'],
    },
  },
});
