process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Every DynamoDB Local a test starts lives minutes, not hours: the client compiler alone (no C2
// compiles competing for the two cores) and the serial collector. location-counts alone, on a
// loaded machine: 77 s of CPU instead of 102 s (infra/local/store.ts).
process.env.STORE_JAVA_OPTIONS ??= '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

import { defineConfig } from 'vitest/config';

/**
 * Five projects, run together by `npm test` (with coverage) and one at a time by
 * `npx vitest run --project <name>`:
 * - unit: pure tests, no I/O; no stack starts, so a run takes seconds.
 * - integration: through HTTP against the local stack `test/support/global-setup.ts` starts once
 *   (AWS's DynamoDB Local engine, in memory); only this project pays for it. Its files run in
 *   parallel on that one stack: each sees only its own users and producers. A file whose subject
 *   is the whole stack (every write, every event, the stack's own settings) starts its own, once,
 *   with `useOwnStack()` (test/support/client.ts), `startLocalStack` or `startSeededStack`: a
 *   table of its own on a DynamoDB Local the file starts once (test/support/file-engine.ts).
 * - integration-bulk: the files that bulk-load hundreds to thousands of actions into stacks of
 *   their own first (list-scaled, readme-examples...): two at a time, after the projects above.
 * - integration-alone: the few integration files that measure a burst of concurrent writes
 *   (contention, races, counters) or delays (webhook fairness, due-date sweeps, stream restarts):
 *   on two cores, other files at work take the CPU their DynamoDB Local needs and turn the
 *   burst's retries into 503s. They run one at a time, last (`sequence.groupOrder`), with the
 *   machine to themselves.
 * - infra: the synthesized template; no stack either.
 */
/** The integration files that run alone (see above). */
const alone = [
  'test/integration/contention.test.ts',
  'test/integration/races.test.ts',
  'test/integration/webhooks-fairness.test.ts',
  // 200 concurrent creates on one stack: beside other files, their queued transactions passed
  // the store timeout (503s) in a full run.
  'test/integration/counters.test.ts',
  // Its last test is 200 concurrent creates on the shared stack, all to answer 201: beside another
  // file's writes a few of them met the store timeout (503) in a quiet full run.
  'test/integration/create.test.ts',
  // Two sweeps at once, and a sweep cut off half way: under a loaded machine the sweep's own store
  // calls timed out (a reminder counted failed) and a close landed after its due time.
  'test/integration/due-dates.test.ts',
  // A stack killed mid-burst and a bus that fails for a while: timed waits for a fresh npm start.
  'test/integration/stream-events.test.ts',
  // 50 concurrent comments and 25 endorsements on one action: they take turns, one transaction a
  // turn, within 8 s; beside other files a turn took too long and the last of them were 503s
  // (three full runs).
  'test/integration/comments.test.ts',
];

/**
 * The integration files that bulk-load hundreds to thousands of actions into a stack of their own
 * (a DynamoDB Local each) before they read: two at a time, after `integration` and before the
 * bursts of `alone`. Beside the files of `integration` on the shared engine their loads met the
 * store timeout (503s) and the shared stack's stream fell behind; beside each other, each on its
 * own engine, they only share the cores.
 */
const bulk = [
  // 3,000 and 800 actions with their search postings (35 items an action).
  'test/integration/list-scaled.test.ts',
  // 1,200 actions, read with a small LOCATION_READ_LIMIT.
  'test/integration/list-many-locations.test.ts',
  'test/integration/readme-examples.test.ts',
  'test/integration/counts.test.ts',
  'test/integration/list-scoped.test.ts',
  'test/integration/list-edges.test.ts',
  'test/integration/date-counts.test.ts',
  'test/integration/list-daily.test.ts',
  'test/integration/list-daily-walk.test.ts',
  // 1,500 actions with their postings: a title search walked inside a large site.
  'test/integration/search-walk.test.ts',
];

const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

export default defineConfig({
  test: {
    // Most of an integration file's time is spent waiting (on the store, a child process, a
    // receiver, a timer), so more files than cores run at once; vitest's default on a 2-core
    // machine is one file at a time. Two: at three (four before), the shared stack's stream reader
    // (events and search postings) fell more than 10 s behind once every write also moved the
    // section 14 prefix counters and sights, and 200-write bursts met the store timeout (two full
    // runs, 2,103 s and 2,262 s, 12-18 files failing). `--maxWorkers=N` overrides it.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          isolate: false,
          setupFiles: ['test/unit/fresh-modules.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          // Two files share two cores and the shared store, so a test takes longer than it would alone.
          testTimeout: 60_000,
          include: ['test/integration/**/*.test.ts'],
          exclude: [...alone, ...bulk],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/file-engine.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      { test: { ...shared, name: 'infra', include: ['test/infra/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      {
        test: {
          ...shared,
          name: 'integration-bulk',
          include: bulk,
          // Two loads share two cores: a test's reads after its load may take twice as long.
          testTimeout: 120_000,
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'integration-alone',
          include: alone,
          globalSetup: ['test/support/global-setup.ts'],
          // No engine a file: each stack these files start is a DynamoDB Local of its own (a JVM),
          // as when they last passed; on one shared engine, a burst file after counters' 1,200
          // writes met 503s on every burst that followed.

          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['functions/**', 'lib/**', 'infra/**'],
      reporter: ['text-summary'],
    },
  },
});
