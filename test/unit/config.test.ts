import { afterAll, describe, expect, it } from 'vitest';
import { getConfig } from '../../lib/config';

/** lib/config.ts reads the environment once, at the first call: these settings are in place before it. */
const saved = { ...process.env };
Object.assign(process.env, {
  TABLE_NAME: 'actions',
  USER_POOL_ID: 'eu-west-1_Pool',
  // The construct sets the service's client and the console's; spaces and a trailing comma are forgiven.
  USER_POOL_CLIENT_ID: 'serviceclient, consoleclient ,',
});
afterAll(() => {
  process.env = saved;
});

describe('USER_POOL_CLIENT_ID', () => {
  it('names every app client whose ID tokens the API accepts, comma separated', () => {
    expect(getConfig().userPoolClientIds).toEqual(['serviceclient', 'consoleclient']);
  });
});
