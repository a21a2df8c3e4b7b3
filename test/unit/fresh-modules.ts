import { afterAll, vi } from 'vitest';

/**
 * Runs before every unit file (`setupFiles`). Unit files share their worker's process
 * (`isolate: false` in vitest.config.ts: a fresh process for each of 70-odd files spent most of
 * the project's time importing the same dependencies again), so each file starts from fresh copies
 * of our own modules (a configuration read once, a `vi.mock` of the store client) while the
 * dependencies stay loaded, and leaves no stubbed setting behind.
 */
vi.resetModules();
afterAll(() => {
  vi.unstubAllEnvs();
});
