import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../infra/local/issuer';
import { type LocalStack, startLocalStack } from '../../infra/local/stack';
import { actionBody, type CallOptions, call, expectProblem, locationAt, type Reply } from '../support/client';

/**
 * Contract section 14 on a scoped stack of its own: two business units, three sites, five people
 * and a group, every route under /api/actions/{id} asked by people who may and may not see, the
 * grants API, /api/me, and a revoke felt within the role cache's time (2 s here).
 */

const CACHE_SECONDS = 2;
let stack: LocalStack;
let dataDir: string;

const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

interface Person {
  id: string;
  token: string;
}
const person = (label: string, groups?: string[]): Person => {
  const id = `${label}-${randomUUID().slice(0, 8)}`;
  return { id, token: issueToken(stack.issuer, { sub: id, name: label, email: `${id}@example.com`, groups }) };
};

const place = (businessUnit: string, site: string) => locationAt(businessUnit, site);
const NORTH = place('Iron Ore', 'North Pit');
const SOUTH = place('Iron Ore', 'South Pit');
const EAST = place('Coal', 'East Pit');

let admin: Person; // in the deployment's admin group
let olga: Person; // reports actions; no grant
let mia: Person; // manager of Iron Ore / North Pit
let mel: Person; // member of Iron Ore
let vic: Person; // in the group coal-viewers: viewer of Coal
let sam: Person; // a stranger: no grant at all
let coalViewers: string;

const createAt = async (who: Person, location: object, overrides: Record<string, unknown> = {}) => {
  const reply = await send('POST', '/api/actions', {
    token: who.token,
    body: actionBody('access', { location, ...overrides }),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};
const grant = async (body: object, by: Person = admin) => {
  const reply = await send('POST', '/api/grants', { token: by.token, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'actions-access-'));
  process.env.LOG_LEVEL = 'silent';
  stack = await startLocalStack({
    dataDir,
    store: 'memory',
    port: 0,
    access: { mode: 'scoped', cacheSeconds: CACHE_SECONDS },
  });
  coalViewers = `coal-viewers-${randomUUID().slice(0, 8)}`;
  admin = person('admin', ['action-admins']);
  olga = person('olga');
  mia = person('mia');
  mel = person('mel');
  vic = person('vic', [coalViewers]);
  sam = person('sam');
  await grant({
    principal: { type: 'person', id: mia.id },
    role: 'manager',
    scope: { businessUnit: 'Iron Ore', site: 'North Pit' },
  });
  await grant({ principal: { type: 'person', id: mel.id }, role: 'member', scope: { businessUnit: 'Iron Ore' } });
  await grant({ principal: { type: 'group', name: coalViewers }, role: 'viewer', scope: { businessUnit: 'Coal' } });
});

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every route under /api/actions/{id}, with a body that passes validation, for a comment `commentId`. */
const routes = (commentId: string) =>
  [
    ['GET', ''],
    ['PATCH', '', { title: 'Edited' }],
    ['DELETE', ''],
    ['GET', '/comments'],
    ['POST', '/comments', { text: 'A comment' }],
    ['PATCH', `/comments/${commentId}`, { text: 'Edited comment' }],
    ['DELETE', `/comments/${commentId}`],
    ['PUT', '/endorsements/me'],
    ['DELETE', '/endorsements/me'],
    ['GET', '/history'],
  ] as const;

/** What a reply shows a client, with the id it asked about replaced, and nothing that differs per request. */
const shown = (reply: Reply, id: string) => ({
  status: reply.status,
  body: JSON.parse(JSON.stringify(reply.body ?? null).replaceAll(id, '<id>')),
  etag: reply.headers.get('etag'),
});

describe('an action the caller may not see does not exist for them', () => {
  it('on every route under /api/actions/{id}, the same 404 as an id that never existed', async () => {
    const id = await createAt(olga, NORTH, { allowAnonymousEdits: true });
    const comment = await send('POST', `/api/actions/${id}/comments`, { token: olga.token, body: { text: 'Mine' } });
    expect(comment.status).toBe(201);
    const never = randomUUID();
    for (const who of [sam, vic]) {
      for (const [method, path, body] of routes(comment.body.id)) {
        const real = await send(method, `/api/actions/${id}${path}`, { token: who.token, body });
        const none = await send(method, `/api/actions/${never}${path}`, { token: who.token, body });
        expect(real.status, `${method} ${path}`).toBe(404);
        expect(shown(real, id), `${method} ${path}`).toEqual(shown(none, never));
      }
    }
    // Nothing they tried changed it.
    const after = await send('GET', `/api/actions/${id}`, { token: olga.token });
    expect(after.body).toMatchObject({ title: 'Replace worn conveyor belt', commentCount: 1, endorsedBy: [] });
    expect(after.body.version).toBe(2);
  }, 300_000);

  it('a deleted action’s history is read by whoever could see it, and a 404 for anyone else', async () => {
    const id = await createAt(olga, NORTH);
    expect((await send('DELETE', `/api/actions/${id}`, { token: mia.token })).status).toBe(204);
    const history = await send('GET', `/api/actions/${id}/history`, { token: mia.token });
    expect(history.body.entries.map((e: { type: string }) => e.type)).toEqual(['created', 'deleted']);
    expect((await send('GET', `/api/actions/${id}/history`, { token: olga.token })).status).toBe(200);
    const hidden = await send('GET', `/api/actions/${id}/history`, { token: vic.token });
    const never = randomUUID();
    expect(shown(hidden, id)).toEqual(
      shown(await send('GET', `/api/actions/${never}/history`, { token: vic.token }), never),
    );
  });
});

describe('roles', () => {
  it('viewers read but cannot comment, endorse or edit', async () => {
    const id = await createAt(olga, EAST, { allowAnonymousEdits: true });
    expect((await send('GET', `/api/actions/${id}`, { token: vic.token })).status).toBe(200);
    expect((await send('GET', `/api/actions/${id}/comments`, { token: vic.token })).status).toBe(200);
    expect((await send('GET', `/api/actions/${id}/history`, { token: vic.token })).status).toBe(200);
    expectProblem(await send('POST', `/api/actions/${id}/comments`, { token: vic.token, body: { text: 'Hi' } }), 403);
    expectProblem(await send('PUT', `/api/actions/${id}/endorsements/me`, { token: vic.token }), 403);
    expectProblem(await send('PATCH', `/api/actions/${id}`, { token: vic.token, body: { status: '2' } }), 403);
    expectProblem(await send('DELETE', `/api/actions/${id}`, { token: vic.token }), 403);
  });

  it('members comment and endorse, and edit only under section 5', async () => {
    const plain = await createAt(olga, SOUTH);
    const open = await createAt(olga, SOUTH, { allowAnonymousEdits: true });
    expect(
      (await send('POST', `/api/actions/${plain}/comments`, { token: mel.token, body: { text: 'On it' } })).status,
    ).toBe(201);
    expect((await send('PUT', `/api/actions/${plain}/endorsements/me`, { token: mel.token })).status).toBe(200);
    const refused = await send('PATCH', `/api/actions/${plain}`, { token: mel.token, body: { status: '2' } });
    expectProblem(refused, 403);
    expect(refused.body.detail).toMatch(/owner or the assignee/);
    expect((await send('PATCH', `/api/actions/${open}`, { token: mel.token, body: { status: '2' } })).status).toBe(200);
    expectProblem(
      await send('PATCH', `/api/actions/${open}`, { token: mel.token, body: { assignee: { id: mel.id } } }),
      403,
    );
    expectProblem(
      await send('PATCH', `/api/actions/${open}`, { token: mel.token, body: { allowAnonymousEdits: false } }),
      403,
    );
    expectProblem(await send('DELETE', `/api/actions/${open}`, { token: mel.token }), 403);
  });

  it('managers edit every field and move within their scopes, never outside', async () => {
    const id = await createAt(olga, NORTH);
    const edited = await send('PATCH', `/api/actions/${id}`, {
      token: mia.token,
      body: { status: '2', assignee: { id: mel.id }, location: { crew: 'B' } },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.location.crew).toBe('B');
    const outside = await send('PATCH', `/api/actions/${id}`, {
      token: mia.token,
      body: { location: { site: 'South Pit' } },
    });
    expectProblem(outside, 403);
    expect(outside.body.detail).toMatch(/place they manage/);
    // An action outside their scope they do not even see.
    const south = await createAt(olga, SOUTH);
    expect((await send('GET', `/api/actions/${south}`, { token: mia.token })).status).toBe(404);
    // Its owner moves it anywhere: reporting is never blocked.
    expect(
      (await send('PATCH', `/api/actions/${south}`, { token: olga.token, body: { location: { site: 'North Pit' } } }))
        .status,
    ).toBe(200);
    expect((await send('GET', `/api/actions/${south}`, { token: mia.token })).status).toBe(200);
    expect((await send('DELETE', `/api/actions/${south}`, { token: mia.token })).status).toBe(204);
  });

  it('everyone sees, comments on and endorses their own, anywhere; assigning someone shows them the action', async () => {
    const mine = await createAt(sam, EAST);
    expect((await send('GET', `/api/actions/${mine}`, { token: sam.token })).status).toBe(200);
    const theirs = await createAt(olga, SOUTH);
    expect((await send('GET', `/api/actions/${theirs}`, { token: sam.token })).status).toBe(404);
    await send('PATCH', `/api/actions/${theirs}`, { token: olga.token, body: { assignee: { id: sam.id } } });
    expect((await send('GET', `/api/actions/${theirs}`, { token: sam.token })).status).toBe(200);
    expect(
      (await send('POST', `/api/actions/${theirs}/comments`, { token: sam.token, body: { text: 'Mine now' } })).status,
    ).toBe(201);
    expect((await send('PATCH', `/api/actions/${theirs}`, { token: sam.token, body: { status: '2' } })).status).toBe(
      200,
    );
    // Handing it on: gone from their sight.
    await send('PATCH', `/api/actions/${theirs}`, { token: sam.token, body: { assignee: null } });
    expect((await send('GET', `/api/actions/${theirs}`, { token: sam.token })).status).toBe(404);
  });
});

describe('grants', () => {
  it('POST /api/grants: 201 with Location, the same grant again is a 200, bad bodies name their field', async () => {
    const body = {
      principal: { type: 'person', id: sam.id },
      role: 'viewer',
      scope: { businessUnit: 'Coal', site: 'East Pit' },
    };
    const made = await send('POST', '/api/grants', { token: admin.token, body });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(`/api/grants/${made.body.id}`);
    expect(made.body).toMatchObject({ ...body, grantedBy: { id: admin.id } });
    const again = await send('POST', '/api/grants', { token: admin.token, body });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(made.body.id);
    expectProblem(
      await send('POST', '/api/grants', { token: admin.token, body: { ...body, scope: { site: 'East Pit' } } }),
      400,
      { field: 'scope.site' },
    );
    expectProblem(await send('POST', '/api/grants', { token: admin.token, body: { ...body, role: 'owner' } }), 400, {
      field: 'role',
    });
    expectProblem(await send('POST', '/api/grants', { token: admin.token, body: { role: 'viewer', scope: {} } }), 400, {
      field: 'principal',
    });
    expectProblem(
      await send('POST', '/api/grants', { token: admin.token, body: { ...body, scope: { planet: 'Mars' } } }),
      400,
      { field: 'scope.planet' },
    );
    expectProblem(await send('POST', '/api/grants', { token: mia.token, body }), 403);
    expect((await send('DELETE', `/api/grants/${made.body.id}`, { token: admin.token })).status).toBe(204);
    expectProblem(await send('DELETE', `/api/grants/${made.body.id}`, { token: admin.token }), 404);
  });

  it('an admin of a scope grants inside it only, lists only its grants, and revokes only those', async () => {
    const cora = person('cora');
    await grant({ principal: { type: 'person', id: cora.id }, role: 'admin', scope: { businessUnit: 'Coal' } });
    const inside = await grant(
      { principal: { type: 'person', id: sam.id }, role: 'member', scope: { businessUnit: 'Coal', site: 'East Pit' } },
      cora,
    );
    expectProblem(
      await send('POST', '/api/grants', {
        token: cora.token,
        body: { principal: { type: 'person', id: sam.id }, role: 'viewer', scope: { businessUnit: 'Iron Ore' } },
      }),
      403,
    );
    const listed = await send('GET', '/api/grants?limit=100', { token: cora.token });
    expect(listed.status).toBe(200);
    expect(listed.body.grants.every((g: { scope: { businessUnit?: string } }) => g.scope.businessUnit === 'Coal')).toBe(
      true,
    );
    expect(listed.body.grants.map((g: { id: string }) => g.id)).toContain(inside);
    const miaGrant = (await send('GET', `/api/grants?principal.id=${mia.id}`, { token: admin.token })).body.grants[0];
    expectProblem(await send('DELETE', `/api/grants/${miaGrant.id}`, { token: cora.token }), 404);
    expect((await send('GET', '/api/grants', { token: mia.token })).body).toEqual({ grants: [] });
    expect((await send('DELETE', `/api/grants/${inside}`, { token: cora.token })).status).toBe(204);
  });

  it('GET /api/grants filters exactly and pages with a cursor bound to its filters', async () => {
    const byRole = await send('GET', '/api/grants?role=manager', { token: admin.token });
    expect(byRole.body.grants.map((g: { principal: { id: string } }) => g.principal.id)).toContain(mia.id);
    expect(byRole.body.grants.every((g: { role: string }) => g.role === 'manager')).toBe(true);
    const bySite = await send('GET', '/api/grants?scope.site=North%20Pit', { token: admin.token });
    expect(bySite.body.grants.every((g: { scope: { site: string } }) => g.scope.site === 'North Pit')).toBe(true);
    const byGroup = await send('GET', `/api/grants?principal.name=${coalViewers}`, { token: admin.token });
    expect(byGroup.body.grants).toHaveLength(1);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await send('GET', `/api/grants?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token: admin.token });
      expect(page.status).toBe(200);
      seen.push(...page.body.grants.map((g: { id: string }) => g.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = (await send('GET', '/api/grants?limit=100', { token: admin.token })).body.grants.map(
      (g: { id: string }) => g.id,
    );
    expect(seen).toEqual(all);
    expectProblem(await send('GET', '/api/grants?planet=Mars', { token: admin.token }), 400, { parameter: 'planet' });
    expectProblem(await send('GET', '/api/grants?limit=0', { token: admin.token }), 400, { parameter: 'limit' });
    expectProblem(await send('GET', '/api/grants?role=boss', { token: admin.token }), 400, { parameter: 'role' });
  });

  it('GET /api/me: the caller, their groups and effective grants, direct and through groups', async () => {
    const mine = await send('GET', '/api/me', { token: vic.token });
    expect(mine.body).toMatchObject({ id: vic.id, name: 'vic', email: `${vic.id}@example.com`, groups: [coalViewers] });
    expect(mine.body.grants).toEqual([expect.objectContaining({ role: 'viewer', scope: { businessUnit: 'Coal' } })]);
    const boss = await send('GET', '/api/me', { token: admin.token });
    expect(boss.body.grants).toContainEqual({
      principal: { type: 'group', name: 'action-admins' },
      role: 'admin',
      scope: {},
    });
    expect((await send('GET', '/api/me', { token: sam.token })).body.grants).toEqual([]);
  });

  it('a revoked grant stops working within the cache time', async () => {
    const rita = person('rita');
    const id = await createAt(olga, EAST);
    const granted = await grant({
      principal: { type: 'person', id: rita.id },
      role: 'viewer',
      scope: { businessUnit: 'Coal' },
    });
    // A new grant, too, is felt within the cache time (rita's roles were never cached before).
    expect((await send('GET', `/api/actions/${id}`, { token: rita.token })).status).toBe(200);
    expect((await send('DELETE', `/api/grants/${granted}`, { token: admin.token })).status).toBe(204);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 60_000) {
      status = (await send('GET', `/api/actions/${id}`, { token: rita.token })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(404);
    expect(Date.now() - revokedAt).toBeLessThan((CACHE_SECONDS + 5) * 1000);
  });
});
