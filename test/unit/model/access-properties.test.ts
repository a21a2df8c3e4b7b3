import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Guarded,
  includes,
  inScope,
  listed,
  mayAdminister,
  mayMoveTo,
  placementOf,
  rightsOver,
  roles,
  type Scope,
  sawChange,
  type Viewer,
  within,
} from '../../../lib/model/access';
import { type Location, locationFields } from '../../../lib/model/action';

/**
 * Section 14's decision over every combination (roles x scopes x owner/assignee/initiator x
 * allowAnonymousEdits x open/scoped), on a small world so that scopes and locations collide often.
 */

const value = fc.constantFrom('A', 'B');
const location = fc
  .tuple(...locationFields.map(() => value))
  .map((values) => Object.fromEntries(locationFields.map((f, i) => [f, values[i]])) as unknown as Location);
/** A prefix of a location: its first `depth` fields. */
const scope = fc
  .tuple(location, fc.integer({ min: 0, max: 3 }))
  .map(([l, depth]): Scope => Object.fromEntries(locationFields.slice(0, depth).map((f) => [f, l[f]])));
const who = fc.constantFrom('me', 'ann', 'bob');
const person = (id: string) => ({ id, name: id, email: null });
const action = fc
  .record({ owner: who, initiator: who, assignee: fc.option(who), location, allowAnonymousEdits: fc.boolean() })
  .map(
    (a): Guarded => ({
      owner: person(a.owner),
      initiator: person(a.initiator),
      assignee: a.assignee === null ? null : person(a.assignee),
      location: a.location,
      allowAnonymousEdits: a.allowAnonymousEdits,
    }),
  );
const viewer = fc
  .record({
    mode: fc.constantFrom('open', 'scoped' as const),
    roles: fc.array(fc.record({ role: fc.constantFrom(...roles), scope }), { maxLength: 4 }),
  })
  .map((v): Viewer => ({ mode: v.mode as Viewer['mode'], person: { id: 'me' }, roles: v.roles }));

const own = (a: Guarded) => [a.owner.id, a.initiator.id, a.assignee?.id].includes('me');
const best = (v: Viewer, a: Guarded) => v.roles.filter((r) => inScope(a.location, r.scope)).map((r) => r.role);

describe('rightsOver, over every combination', () => {
  it('a list shows exactly what rightsOver lets one see', () => {
    fc.assert(fc.property(viewer, action, (v, a) => listed(v, a) === rightsOver(v, a).see));
  });

  it('open mode is section 5 exactly', () => {
    fc.assert(
      fc.property(viewer, action, (v, a) => {
        const r = rightsOver({ ...v, mode: 'open' }, a);
        const owner = a.owner.id === 'me';
        const assignee = a.assignee?.id === 'me';
        expect(r).toEqual({
          see: true,
          comment: true,
          edit: owner || assignee || a.allowAnonymousEdits,
          assign: owner || assignee,
          setAnonymous: owner,
          move: owner || assignee || a.allowAnonymousEdits,
          delete: owner,
          removeAnyAttachment: owner,
        });
      }),
    );
  });

  it('scoped mode: seeing is one’s own or any role here; every right implies seeing; rights grow with the role', () => {
    fc.assert(
      fc.property(viewer, action, (v, a) => {
        const scoped = { ...v, mode: 'scoped' as const };
        const r = rightsOver(scoped, a);
        const here = best(scoped, a);
        expect(r.see).toBe(own(a) || here.length > 0);
        for (const right of Object.values(r)) if (right) expect(r.see).toBe(true);
        expect(r.comment).toBe(own(a) || here.some((role) => includes(role, 'member')));
        const manager = here.some((role) => includes(role, 'manager'));
        if (manager) expect(r).toMatchObject({ edit: true, assign: true, move: true, delete: true });
        const personal = a.owner.id === 'me' || a.assignee?.id === 'me';
        if (!manager && !personal) expect(r).toMatchObject({ assign: false, delete: false, setAnonymous: false });
        // A viewer alone never edits, even an action that allows anonymous edits.
        if (!own(a) && here.every((role) => role === 'viewer')) expect(r.edit).toBe(false);
        // More roles never take a right away.
        const more = { ...scoped, roles: [...scoped.roles, { role: 'viewer' as const, scope: {} }] };
        const r2 = rightsOver(more, a);
        for (const [right, had] of Object.entries(r)) if (had) expect(r2[right as keyof typeof r2]).toBe(true);
      }),
    );
  });

  it('a move needs the move right, and a manager who is not on the action moves it only to a place they manage', () => {
    fc.assert(
      fc.property(viewer, action, location, (v, a, to) => {
        const may = mayMoveTo(v, a, to);
        if (may) expect(rightsOver(v, a).move).toBe(true);
        const personal = a.owner.id === 'me' || a.assignee?.id === 'me';
        if (v.mode === 'scoped' && may && !personal)
          expect(v.roles.some((r) => (r.role === 'manager' || r.role === 'admin' ? inScope(to, r.scope) : false))).toBe(
            true,
          );
      }),
    );
  });

  it('an admin administers exactly the scopes inside one they are admin of', () => {
    fc.assert(
      fc.property(viewer, scope, (v, s) => {
        expect(mayAdminister(v, s)).toBe(v.roles.some((r) => r.role === 'admin' && within(s, r.scope)));
      }),
    );
  });

  it('an entry is heard exactly when the action was seen before or after it', () => {
    fc.assert(
      fc.property(viewer, action, action, (v, before, after) => {
        const heard = sawChange(v, { before: placementOf(before), after: placementOf(after) });
        expect(heard).toBe(rightsOver(v, before).see || rightsOver(v, after).see);
      }),
    );
  });
});
