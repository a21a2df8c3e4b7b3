import { vi } from 'vitest';

/**
 * The settings `getConfig` requires, stubbed for a unit test whose code reads the configuration
 * (a table's name, the user pool), with `more` beside them. Call it in `beforeAll`, before the
 * first read: the configuration is read once.
 */
export function stubConfigEnv(more: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries({
    TABLE_NAME: 'unit',
    USER_POOL_ID: 'unit',
    USER_POOL_CLIENT_ID: 'unit',
    ...more,
  }))
    vi.stubEnv(name, value);
}
