import { beforeAll, describe, expect, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { actionBody, create, dataDir, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 13: the common list shapes cost the page, not the matches. These run the real list code
 * in this process, against the stack's store, to read what a call cost (the HTTP answer does not
 * say); the actions themselves are created through HTTP.
 */

type ListModule = typeof import('../../lib/store/list');
type QueryModule = typeof import('../../lib/filter/query');
let listActions: ListModule['listActions'];
let parseListQuery: QueryModule['parseListQuery'];

beforeAll(async () => {
  const { inject } = await import('vitest');
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
  ({ listActions } = await import('../../lib/store/list'));
  ({ parseListQuery } = await import('../../lib/filter/query'));
});

describe('a count-only list', () => {
  it('reads only the counters, however far it skips', async () => {
    const ann = newUser();
    const producer = uniqueProducer('count-only');
    for (let i = 0; i < 6; i++) await create(ann.token, actionBody(producer));
    const scope = q('actionProducer.name', producer);

    for (const query of [`${scope}&limit=0`, `${scope}&skip=4&limit=0`, `${scope}&skip=50&limit=0`]) {
      const result = await listActions(parseListQuery(query));
      expect(result.strategy, query).toBe('counted');
      expect(result.totalCount, query).toBe(6);
      expect(result.actions, query).toEqual([]);
      // One strongly consistent Query of the counter's shards; not one index entry.
      expect(result.stats, query).toEqual({ itemsRead: 0, readUnits: 1, requests: 1 });
    }
    // The same count through HTTP.
    expect(await list(ann.token, `${scope}&skip=4&limit=0`)).toEqual({ actions: [], totalCount: 6 });
  });
});
