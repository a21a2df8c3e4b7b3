import { inject } from 'vitest';
import { shareMemoryStores } from '../../infra/local/shared-engine';

/**
 * Runs before every integration file (`setupFiles`): the stacks this file starts with a store in
 * memory (`useOwnStack`, `startLocalStack`, `startSeededStack`) become tables on its worker's
 * DynamoDB Local (test/support/global-setup.ts), instead of each starting a JVM. Files run one at a
 * time per worker (`VITEST_POOL_ID`, 1 to maxWorkers), so an engine serves one file at a time.
 */
const engines = inject('storeEngines');
const worker = Number(process.env.VITEST_POOL_ID ?? '1');
shareMemoryStores(engines[(worker - 1) % engines.length]);
