import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { rolesOf, viewerFor } from '../../lib/access/viewer';
import { getDocumentClient } from '../../lib/store/client';
import { deleteGrant, type Grant, getGrant, grantsHeldBy, grantsPage, putGrant } from '../../lib/store/grants';
import { knownPeople } from '../../lib/store/people';
import { eventFromEventBridge } from '../../lib/webhooks/eventbridge';
import { actionBody, type CallOptions, call } from '../support/client';

/**
 * Section 14's store: the people the service has seen, grants under their principals, the roles a
 * caller resolves to (cached for ACCESS_CACHE_SECONDS), and the sight every history entry keeps.
 * A stack of its own, scoped, with a 1-second role cache.
 */

let stack: LocalStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-access-store-'));
  Object.assign(process.env, { ACCESS: 'scoped', ACCESS_CACHE_SECONDS: '1', LOG_LEVEL: 'silent' });
  stack = await startLocalStack({ dataDir, store: 'memory', port: 0 });
});

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });
const tokenOf = (sub: string, groups?: string[]) =>
  issueToken(stack.issuer, { sub, name: `Person ${sub}`, email: `${sub}@example.com`, groups });
const me = () => ({ id: 'admin-1', name: 'Admin', email: null });

const grant = (over: Partial<Grant>): Grant => ({
  id: randomUUID(),
  principal: { type: 'person', id: 'p-x' },
  role: 'viewer',
  scope: {},
  grantedBy: me(),
  createdAt: new Date().toISOString(),
  ...over,
});

describe('people', () => {
  it('remembers a caller as their token describes them, groups and verified email included', async () => {
    const sub = `p-${randomUUID()}`;
    const before = Math.floor(Date.now() / 1000);
    expect((await send('GET', '/api/actions?limit=0', { token: tokenOf(sub, ['crew-a', 'crew-b']) })).status).toBe(200);
    const known = (await knownPeople([sub, 'never-seen'])).get(sub);
    expect(known).toMatchObject({ id: sub, name: `Person ${sub}`, email: `${sub}@example.com` });
    expect(known?.groups.sort()).toEqual(['crew-a', 'crew-b']);
    expect(known?.signedInAt).toBeGreaterThanOrEqual(before - 1);
    expect(known?.seenOn).toBe(new Date().toISOString().slice(0, 10));
    expect((await knownPeople(['never-seen'])).size).toBe(0);
    // New groups in a new token are written at once.
    await send('GET', '/api/actions?limit=0', { token: tokenOf(sub, ['crew-c']) });
    expect((await knownPeople([sub])).get(sub)?.groups).toEqual(['crew-c']);
  });
});

describe('grants', () => {
  it('are found under their principal, listed in pages, and gone from both when deleted', async () => {
    const person = `p-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    const direct = grant({ principal: { type: 'person', id: person }, scope: { businessUnit: 'Coal' } });
    const viaGroup = grant({ principal: { type: 'group', name: group }, role: 'manager' });
    expect(await putGrant(direct)).toBe(true);
    expect(await putGrant(viaGroup)).toBe(true);
    expect(await putGrant(direct)).toBe(false);
    expect(await getGrant(direct.id)).toEqual(direct);
    const held = await grantsHeldBy([
      { type: 'person', id: person },
      { type: 'group', name: group },
    ]);
    expect(held.map((g) => g.id).sort()).toEqual([direct.id, viaGroup.id].sort());
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await grantsPage(after, 1);
      seen.push(...page.grants.map((g) => g.id));
      after = page.last;
    } while (after !== undefined);
    expect(seen).toEqual(expect.arrayContaining([direct.id, viaGroup.id]));
    await deleteGrant(direct);
    expect(await getGrant(direct.id)).toBeUndefined();
    expect((await grantsHeldBy([{ type: 'person', id: person }])).length).toBe(0);
  });

  it('resolve into roles, with the admin group as admin of everything, and a revoke is felt within the cache time', async () => {
    const person = `p-${randomUUID()}`;
    expect(await rolesOf(person, ['action-admins'])).toEqual([{ role: 'admin', scope: {} }]);
    const given = grant({ principal: { type: 'person', id: person }, role: 'member', scope: { businessUnit: 'Coal' } });
    await putGrant(given);
    expect(await rolesOf(person, [])).toEqual([{ role: 'member', scope: { businessUnit: 'Coal' } }]);
    await deleteGrant(given);
    // Cached for one second here (ACCESS_CACHE_SECONDS=1); then the revoke holds.
    expect(await rolesOf(person, [])).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await rolesOf(person, [])).toEqual([]);
  });

  it('viewerFor a person who is not calling uses the groups remembered from their last sign-in', async () => {
    const sub = `p-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    await putGrant(
      grant({ principal: { type: 'group', name: group }, role: 'viewer', scope: { businessUnit: 'Coal' } }),
    );
    expect((await viewerFor(sub)).roles).toEqual([]);
    await send('GET', '/api/actions?limit=0', { token: tokenOf(sub, [group]) });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await viewerFor(sub)).toEqual({
      mode: 'scoped',
      person: { id: sub },
      roles: [{ role: 'viewer', scope: { businessUnit: 'Coal' } }],
    });
  });
});

describe('every history entry keeps where the action was and who was on it', () => {
  it('before and after each change, in the entry, on the bus, and never in a view or a webhook body', async () => {
    const owner = `p-${randomUUID()}`;
    const token = tokenOf(owner);
    const created = await send('POST', '/api/actions', { token, body: actionBody('sight') });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const moved = await send('PATCH', `/api/actions/${id}`, {
      token,
      body: { location: { site: 'South Pit' }, assignee: { id: 'p-bob' } },
    });
    expect(moved.status).toBe(200);
    expect((await send('DELETE', `/api/actions/${id}`, { token })).status).toBe(204);

    const { Items = [] } = await getDocumentClient().send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'id = :id AND begins_with(sk, :h)',
        ExpressionAttributeValues: { ':id': id, ':h': 'h#' },
      }),
    );
    const sights = Items.map((item) => item.sight);
    const north = expect.objectContaining({ businessUnit: 'Iron Ore', site: 'North Pit' });
    const south = expect.objectContaining({ businessUnit: 'Iron Ore', site: 'South Pit' });
    expect(sights).toEqual([
      { after: { location: north, ownerId: owner, assigneeId: null } },
      {
        before: { location: north, ownerId: owner, assigneeId: null },
        after: { location: south, ownerId: owner, assigneeId: 'p-bob' },
      },
      { before: { location: south, ownerId: owner, assigneeId: 'p-bob' } },
    ]);

    const history = await send('GET', `/api/actions/${id}/history`, { token });
    expect(JSON.stringify(history.body)).not.toContain('sight');

    // The bus (here its stand-in, the events file) carries the public detail alone: the sight stays in the entry.
    let line: string | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      line = readFileSync(stack.eventsFile, 'utf8')
        .split('\n')
        .find((l) => l.includes(id) && l.includes('ActionDeleted'));
      if (!line) await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse(line as string).detail).not.toHaveProperty('sight');
    const event = eventFromEventBridge(line as string);
    expect(event?.detail).toEqual(JSON.parse(line as string).detail);
  });
});
