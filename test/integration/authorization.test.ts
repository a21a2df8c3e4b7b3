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
 * shows the action exactly as it was; every success shows the edit.
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
  patch: Record<string, unknown>;
  /** What the re-read must show after a successful edit. */
  shows: Record<string, unknown>;
  ownerOnly?: boolean;
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
  },
  {
    name: 'assignee (null unassigns)',
    patch: { assignee: null },
    shows: { assignee: { id: 'undefined', name: 'Unknown user', email: '' } },
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
    name: 'actionProducer.reference',
    patch: { actionProducer: { reference: 'REF-2' } },
    shows: { actionProducer: expect.objectContaining({ reference: 'REF-2' }) },
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
    ownerOnly: true,
  },
  {
    name: 'allowAnonymousEdits with a title (all or nothing)',
    patch: { title: 'With flag' },
    shows: { title: 'With flag' },
    ownerOnly: true,
  },
];

/** The status the edit rule gives `role` for `edit` on a `kind` action. */
function expected(role: Role, kind: Kind, edit: Edit): 200 | 403 {
  if (role === 'owner') return 200;
  if (edit.ownerOnly) return 403;
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
    const patch = edit.ownerOnly ? { ...edit.patch, allowAnonymousEdits: kind === 'normal' } : edit.patch;
    const shows = edit.ownerOnly ? { ...edit.shows, allowAnonymousEdits: kind === 'normal' } : edit.shows;
    const reply = await call('PATCH', `/api/actions/${id}`, { token: people[role]?.token, body: patch });

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
