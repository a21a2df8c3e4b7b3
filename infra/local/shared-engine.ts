/**
 * Where a stack whose store is `memory` keeps it: by default a DynamoDB Local of its own (a JVM,
 * seconds to start). The tests start one engine per vitest worker and call `shareMemoryStores`
 * in every file (test/support/worker-engine.ts): a file's stacks then make a table of their own
 * on their worker's engine (a table is cheap; each has its own stream), so no file waits for a
 * JVM. Kept apart from `stack.ts` so naming the engine loads nothing of the stack.
 */

let engine: string | undefined;

/** Memory stores of this process become tables on the DynamoDB Local at `endpoint` (already running). */
export function shareMemoryStores(endpoint: string | undefined): void {
  engine = endpoint;
}

/** The engine memory stores share, when one was named. */
export const sharedMemoryEngine = (): string | undefined => engine;
