import middy from '@middy/core';
import { startSweeper } from '../lib/webhooks/sweeper';

/**
 * Runs every minute (an EventBridge schedule) and sweeps the attempts due every second for 50
 * seconds, so retries, redeliveries and pings leave about on time. Two runs that overlap share
 * the work: each attempt due is claimed by one of them.
 */
const SWEEP_FOR_MS = 50_000;

export const handler = middy().handler(async () => {
  await startSweeper({ until: Date.now() + SWEEP_FOR_MS }).done;
});
