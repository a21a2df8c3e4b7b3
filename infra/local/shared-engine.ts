/**
 * Where a stack whose store is `memory` keeps it: by default a DynamoDB Local of its own (a JVM,
 * seconds to start). The integration tests name an engine for each file instead
 * (test/support/file-engine.ts): every stack the file starts is then a table of its own (a
 * table is cheap; each has its own stream) on that one engine, started when the file first needs
 * it. Kept apart from `stack.ts` so naming the engine loads nothing of the stack.
 */

let engine: (() => Promise<string>) | undefined;

/**
 * Memory stores of this process become tables on the DynamoDB Local whose endpoint `endpoint()`
 * gives (starting it, the first time); `undefined` gives each its own engine again.
 */
export function shareMemoryStores(endpoint: (() => Promise<string>) | undefined): void {
  engine = endpoint;
}

/** The endpoint of the engine memory stores share, when one was named. */
export const sharedMemoryEngine = (): Promise<string> | undefined => engine?.();
