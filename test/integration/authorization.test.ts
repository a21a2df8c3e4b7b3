import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  actionBody,
  call,
  create,
  expectProblem,
  getOne,
  newUser,
  type TestUser,
  tokenFor,
  uniqueProducer,
} from '../support/client';

/**
 * Authorization (OWASP API1 broken object level, API3 broken object property level), contract
 * section 5: every editable field, for the owner, the assignee and people who are neither, on a
 * normal action and on one open to anonymous edits. Every refusal is a 403 after which a re-read
 * shows the action exactly as it was; every success shows the edit. Two fields carry rights:
 * `assignee` only the owner or the current assignee may change, `allowAnonymousEdits` only the
 * owner, even on an action open to anonymous edits.
 */

/** Someone whose token carries `user`'s name and email under another subject. */
function impostorOf(user: TestUser): TestUser {
  const sub = randomUUID();
  return { ...user, id: sub, sub, token: tokenFor({ sub, name: user.name, email: user.email }) };
}

const owner = newUser('Olive Owner');
const assignee = newUser('Andy Assignee');
const people: Record<string, TestUser> = {
  owner,
  assignee,
  stranger: newUser('Sam Stranger'),
  // Same name and email as the owner, another subject: identity is the token's sub, nothing else.
  impostor: impostorOf(owner),
};
type Role = keyof typeof people;
const roles = Object.keys(people) as Role[];

type Kind = 'normal' | 'anonymous';
const kinds: Kind[] = ['normal', 'anonymous'];

/** A fresh action per case, so no case depends on another's edit. */
async function fresh(kind: Kind) {
  const producer = uniqueProducer('authz');
  const id = await create(
    owner.token,
    actionBody(producer, {
      allowAnonymousEdits: kind === 'anonymous',
      assignee: { id: assignee.id, name: assignee.name, email: assignee.email },
      description: 'Before',
      tags: ['before'],
      attachments: [{ url: 'https://files.example.com/before.png' }],
    }),
  );
  const reply = await getOne(owner.token, id);
  return { id, producer, before: reply.body, etag: reply.headers.get('etag') };
}

interface Edit {
  name: string;
  /** The patch, or the patch a given caller sends. */
  patch: Record<string, unknown> | ((caller: TestUser) => Record<string, unknown>);
  /** What the re-read must show after a successful edit. */
  shows: Record<string, unknown> | ((caller: TestUser) => Record<string, unknown>);
  /** The narrower rights the patch needs: `assign` (owner or assignee), `owner` (owner alone). */
  rights?: 'assign' | 'owner';
}

const someoneElse = newUser('Nina New');
const edits: Edit[] = [
  { name: 'title', patch: { title: 'Renamed' }, shows: { title: 'Renamed' } },
  { name: 'description', patch: { description: 'After' }, shows: { description: 'After' } },
  { name: 'description (null resets)', patch: { description: null }, shows: { description: '' } },
  {
    name: 'dueAt',
    patch: { dueAt: '2027-01-02T03:04:05Z' },
    shows: { dueAt: '2027-01-02T03:04:05.000Z' },
  },
  { name: 'priority', patch: { priority: 7 }, shows: { priority: '7' } },
  { name: 'status', patch: { status: '3' }, shows: { status: '3' } },
  {
    name: 'assignee (someone else)',
    patch: { assignee: { id: someoneElse.id, name: someoneElse.name } },
    shows: { assignee: { id: someoneElse.id, name: someoneElse.name, email: null } },
    rights: 'assign',
  },
  {
    name: 'assignee (the caller)',
    patch: (caller) => ({ assignee: { id: caller.id, name: caller.name } }),
    shows: (caller) => ({ assignee: { id: caller.id, name: caller.name, email: null } }),
    rights: 'assign',
  },
  {
    name: 'assignee (null unassigns)',
    patch: { assignee: null },
    shows: { assignee: { id: 'undefined', name: 'Unknown user', email: '' } },
    rights: 'assign',
  },
  {
    name: 'assignee (named, unchanged: naming the field needs the right)',
    patch: { assignee: { id: assignee.id, name: assignee.name, email: assignee.email } },
    shows: { assignee: { id: assignee.id, name: assignee.name, email: assignee.email } },
    rights: 'assign',
  },
  {
    name: 'assignee with a title (all or nothing)',
    patch: { title: 'Handed on', assignee: { id: someoneElse.id } },
    shows: { title: 'Handed on', assignee: { id: someoneElse.id, name: someoneElse.id, email: null } },
    rights: 'assign',
  },
  {
    name: 'location (one field)',
    patch: { location: { site: 'South Pit' } },
    shows: { location: expect.objectContaining({ site: 'South Pit', businessUnit: 'Iron Ore' }) },
  },
  {
    name: 'actionProducer.url',
    patch: { actionProducer: { url: 'https://inspections.example.com/i/2' } },
    shows: { actionProducer: expect.objectContaining({ url: 'https://inspections.example.com/i/2' }) },
  },
  {
    name: 'attachments',
    patch: { attachments: [{ url: 'https://files.example.com/after.png', name: 'after' }] },
    shows: { attachments: [{ url: 'https://files.example.com/after.png', name: 'after' }] },
  },
  { name: 'attachments (null resets)', patch: { attachments: null }, shows: { attachments: [] } },
  { name: 'tags', patch: { tags: ['after', 'urgent'] }, shows: { tags: ['after', 'urgent'] } },
  { name: 'tags (null resets)', patch: { tags: null }, shows: { tags: [] } },
  {
    name: 'several fields at once',
    patch: { title: 'Many', priority: '9', tags: ['many'] },
    shows: { title: 'Many', priority: '9', tags: ['many'] },
  },
  {
    name: 'allowAnonymousEdits (flipped)',
    patch: {},
    shows: {},
    rights: 'owner',
  },
  {
    name: 'allowAnonymousEdits with a title (all or nothing)',
    patch: { title: 'With flag' },
    shows: { title: 'With flag' },
    rights: 'owner',
  },
];

/** The status the edit rule gives `role` for `edit` on a `kind` action. */
function expected(role: Role, kind: Kind, edit: Edit): 200 | 403 {
  if (role === 'owner') return 200;
  if (edit.rights === 'owner') return 403;
  if (edit.rights === 'assign') return role === 'assignee' ? 200 : 403;
  if (kind === 'anonymous') return 200;
  return role === 'assignee' ? 200 : 403;
}

const cases = kinds.flatMap((kind) =>
  edits.flatMap((edit) => roles.map((role) => ({ kind, role, edit, status: expected(role, kind, edit) }))),
);

/** After a refusal, the action is exactly as it was (body and ETag). */
async function expectUnchanged(id: string, before: unknown, etag: string | null) {
  const after = await getOne(owner.token, id);
  expect(after.body).toEqual(before);
  expect(after.headers.get('etag')).toBe(etag);
}

describe('PATCH /api/actions/{id}: who may change which field', () => {
  it.each(cases)('$kind action, $edit.name, by the $role -> $status', async ({ kind, role, edit, status }) => {
    const { id, before, etag } = await fresh(kind);
    const caller = people[role] as TestUser;
    const sent = typeof edit.patch === 'function' ? edit.patch(caller) : edit.patch;
    const wanted = typeof edit.shows === 'function' ? edit.shows(caller) : edit.shows;
    const flag = edit.rights === 'owner' ? { allowAnonymousEdits: kind === 'normal' } : {};
    const patch = { ...sent, ...flag };
    const shows = { ...wanted, ...flag };
    const reply = await call('PATCH', `/api/actions/${id}`, { token: caller.token, body: patch });

    if (status === 403) {
      expectProblem(reply, 403);
      await expectUnchanged(id, before, etag);
      return;
    }
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject(shows);
    const after = await getOne(owner.token, id);
    expect(after.body).toEqual(reply.body);
    expect(after.body.updatedAt > before.updatedAt).toBe(true);
    expect(after.headers.get('etag')).not.toBe(etag);
    // Who edited never changes who owns or who raised it.
    expect(after.body.owner).toEqual(before.owner);
    expect(after.body.initiator).toEqual(before.initiator);
  });

  it('a refused edit with If-Match is still a 403 and changes nothing', async () => {
    const { id, before, etag } = await fresh('normal');
    const reply = await call('PATCH', `/api/actions/${id}`, {
      token: people.stranger?.token,
      body: { title: 'Sneaky' },
      headers: { 'if-match': etag as string },
    });
    expectProblem(reply, 403);
    await expectUnchanged(id, before, etag);
  });

  it('an assignee who hands the action on loses the right to edit it', async () => {
    const { id } = await fresh('normal');
    const handOver = await call('PATCH', `/api/actions/${id}`, {
      token: assignee.token,
      body: { assignee: { id: someoneElse.id } },
    });
    expect(handOver.status).toBe(200);
    const { body: before, headers } = await getOne(owner.token, id);
    expectProblem(await call('PATCH', `/api/actions/${id}`, { token: assignee.token, body: { title: 'Late' } }), 403);
    await expectUnchanged(id, before, headers.get('etag'));
    expect(
      (await call('PATCH', `/api/actions/${id}`, { token: someoneElse.token, body: { title: 'Mine' } })).status,
    ).toBe(200);
  });

  it('once the owner closes an action to anonymous edits, strangers are refused again', async () => {
    const { id } = await fresh('anonymous');
    expect(
      (await call('PATCH', `/api/actions/${id}`, { token: owner.token, body: { allowAnonymousEdits: false } })).status,
    ).toBe(200);
    const { body: before, headers } = await getOne(owner.token, id);
    expectProblem(
      await call('PATCH', `/api/actions/${id}`, { token: people.stranger?.token, body: { title: 'x' } }),
      403,
    );
    await expectUnchanged(id, before, headers.get('etag'));
  });
});

describe('PATCH: the producer name and reference never change', () => {
  const producerEdits = kinds.flatMap((kind) =>
    roles.flatMap((role) =>
      [{ name: 'other' }, { reference: 'REF-2' }, { reference: null }].map((actionProducer) => ({
        kind,
        role,
        actionProducer,
        field: `actionProducer.${Object.keys(actionProducer)[0]}`,
        value: JSON.stringify(Object.values(actionProducer)[0]),
      })),
    ),
  );

  it.each(producerEdits)(
    '$kind action, $field set to $value, by the $role -> 400',
    async ({ kind, role, actionProducer, field }) => {
      const { id, before, etag } = await fresh(kind);
      const reply = await call('PATCH', `/api/actions/${id}`, {
        token: people[role]?.token,
        body: { title: 'Along', actionProducer },
      });
      expectProblem(reply, 400, { field });
      await expectUnchanged(id, before, etag);
    },
  );
});

describe('race: a stranger self-assigning while the owner closes anonymous edits', () => {
  it('the stranger never takes the action, in any order, and can never edit it afterwards', async () => {
    const stranger = people.stranger as TestUser;
    const selfAssign = { assignee: { id: stranger.id, name: stranger.name } };
    for (let round = 0; round < 8; round++) {
      const { id, before } = await fresh('anonymous');
      const patchAs = (user: TestUser, body: unknown) =>
        call('PATCH', `/api/actions/${id}`, { token: user.token, body });
      const [grab, close, grabWithTitle, plainEdit] = await Promise.all([
        patchAs(stranger, selfAssign),
        patchAs(owner, { allowAnonymousEdits: false }),
        patchAs(stranger, { ...selfAssign, title: 'Mine now' }),
        patchAs(stranger, { description: `Stranger was here ${round}` }),
      ]);
      expect(close.status, JSON.stringify(close.body)).toBe(200);
      expectProblem(grab, 403);
      expectProblem(grabWithTitle, 403);
      // An anonymous edit may win the race, but only onto a version that was still open.
      expect([200, 403]).toContain(plainEdit.status);
      if (plainEdit.status === 200) {
        expect(plainEdit.body.allowAnonymousEdits).toBe(true);
        const version = (r: typeof close) => Number(r.headers.get('etag')?.replace(/"/g, ''));
        expect(version(plainEdit)).toBeLessThan(version(close));
      }

      const { body: after, headers } = await getOne(owner.token, id);
      expect(after.assignee).toEqual(before.assignee);
      expect(after.title).toBe(before.title);
      expect(after.allowAnonymousEdits).toBe(false);
      for (const body of [{ title: 'Later' }, selfAssign, { description: 'Later' }]) {
        expectProblem(await patchAs(stranger, body), 403);
      }
      await expectUnchanged(id, after, headers.get('etag'));
    }
  });
});

describe('DELETE /api/actions/{id}: the owner only', () => {
  const deletes = kinds.flatMap((kind) => roles.map((role) => ({ kind, role, status: role === 'owner' ? 204 : 403 })));

  it.each(deletes)('$kind action, by the $role -> $status', async ({ kind, role, status }) => {
    const { id, before, etag } = await fresh(kind);
    const reply = await call('DELETE', `/api/actions/${id}`, { token: people[role]?.token });
    if (status === 403) {
      expectProblem(reply, 403);
      await expectUnchanged(id, before, etag);
      return;
    }
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    expectProblem(await call('GET', `/api/actions/${id}`, { token: owner.token }), 404);
  });
});
