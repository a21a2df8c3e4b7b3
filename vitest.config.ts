process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { defineConfig } from 'vitest/config';
import { javaAvailable } from './infra/local/dynamodb-local';

/**
 * Two projects: every test against the embedded store (dynalite), and the store suites again
 * against AWS's DynamoDB Local engine, so nothing passes only because dynalite is lenient.
 * The second needs Java; without it the run says so and leaves it out.
 */

const storeSuites = [
  'test/integration/list.test.ts',
  'test/integration/sort-and-paging.test.ts',
  'test/integration/create.test.ts',
  'test/integration/one-action.test.ts',
  'test/integration/races.test.ts',
  'test/integration/events.test.ts',
  'test/integration/filter-oracle.test.ts',
];

const withJava = javaAvailable();
if (!withJava) console.log('DynamoDB Local suite skipped: no `java` on the PATH (install a Java 17 runtime to run it)');

const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'dynalite',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      ...(withJava
        ? [
            {
              test: {
                ...shared,
                name: 'dynamodb-local',
                include: storeSuites,
                globalSetup: ['test/support/global-setup-dynamodb-local.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
