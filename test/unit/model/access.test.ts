import { describe, expect, it } from 'vitest';
import {
  type Guarded,
  listed,
  listScopes,
  mayAdminister,
  mayMoveTo,
  placementOf,
  rightsOver,
  sawChange,
  scopeProblem,
  type Viewer,
} from '../../../lib/model/access';
import { type Location, locationFields } from '../../../lib/model/action';

const at = (businessUnit: string, site: string): Location => ({
  ...(Object.fromEntries(locationFields.map((f) => [f, ''])) as Location),
  businessUnit,
  site,
});
const person = (id: string) => ({ id, name: id, email: null });
const action = (over: Partial<Guarded> = {}): Guarded => ({
  owner: person('owner'),
  initiator: person('owner'),
  assignee: null,
  location: at('Iron Ore', 'North Pit'),
  allowAnonymousEdits: false,
  ...over,
});
const viewer = (roles: Viewer['roles'], mode: Viewer['mode'] = 'scoped'): Viewer => ({
  mode,
  person: { id: 'me' },
  roles,
});

describe('rightsOver', () => {
  it('open mode keeps section 5: everyone sees and comments, the owner edits and deletes', () => {
    const open = viewer([], 'open');
    expect(rightsOver(open, action())).toMatchObject({ see: true, comment: true, edit: false, delete: false });
    expect(rightsOver(open, action({ allowAnonymousEdits: true }))).toMatchObject({ edit: true, assign: false });
    expect(rightsOver(open, action({ owner: person('me') }))).toMatchObject({ edit: true, delete: true });
  });

  it('scoped mode hides what is outside every scope and not the caller’s own', () => {
    expect(rightsOver(viewer([]), action()).see).toBe(false);
    expect(rightsOver(viewer([{ role: 'viewer', scope: { businessUnit: 'Coal' } }]), action()).see).toBe(false);
    expect(rightsOver(viewer([{ role: 'viewer', scope: { businessUnit: 'Iron Ore' } }]), action()).see).toBe(true);
  });

  it('one’s own action is seen and commented on anywhere, with or without a grant', () => {
    for (const own of [{ initiator: person('me') }, { assignee: person('me') }, { owner: person('me') }]) {
      expect(rightsOver(viewer([]), action(own))).toMatchObject({ see: true, comment: true });
    }
  });

  it('viewers read, members comment and edit under section 5, managers edit, move and delete', () => {
    const scope = { businessUnit: 'Iron Ore', site: 'North Pit' };
    const anon = action({ allowAnonymousEdits: true });
    expect(rightsOver(viewer([{ role: 'viewer', scope }]), anon)).toMatchObject({
      see: true,
      comment: false,
      edit: false,
    });
    expect(rightsOver(viewer([{ role: 'member', scope }]), anon)).toMatchObject({
      comment: true,
      edit: true,
      assign: false,
    });
    expect(rightsOver(viewer([{ role: 'member', scope }]), action())).toMatchObject({ edit: false });
    expect(rightsOver(viewer([{ role: 'manager', scope }]), action())).toMatchObject({
      edit: true,
      assign: true,
      delete: true,
      move: true,
    });
  });

  it('a manager moves only between scopes they manage; the owner anywhere', () => {
    const manager = viewer([{ role: 'manager', scope: { businessUnit: 'Iron Ore', site: 'North Pit' } }]);
    expect(mayMoveTo(manager, action(), at('Iron Ore', 'South Pit'))).toBe(false);
    expect(mayMoveTo(manager, action(), at('Iron Ore', 'North Pit'))).toBe(true);
    expect(mayMoveTo(viewer([]), action({ owner: person('me') }), at('Coal', 'East'))).toBe(true);
  });
});

describe('scopes', () => {
  it('a field may be given only with every field before it', () => {
    expect(scopeProblem({})).toBeUndefined();
    expect(scopeProblem({ businessUnit: 'Iron Ore', site: 'North Pit' })).toBeUndefined();
    expect(scopeProblem({ site: 'North Pit' })).toMatch(/site/);
    expect(scopeProblem({ planet: 'Mars' })).toMatch(/planet/);
  });

  it('admins administer scopes inside their own', () => {
    const admin = viewer([{ role: 'admin', scope: { businessUnit: 'Iron Ore' } }]);
    expect(mayAdminister(admin, { businessUnit: 'Iron Ore', site: 'North Pit' })).toBe(true);
    expect(mayAdminister(admin, {})).toBe(false);
    expect(mayAdminister(admin, { businessUnit: 'Coal' })).toBe(false);
  });

  it('lists walk each scope once, and show exactly what rightsOver lets one see', () => {
    const v = viewer([
      { role: 'viewer', scope: { businessUnit: 'Iron Ore', site: 'North Pit' } },
      { role: 'manager', scope: { businessUnit: 'Iron Ore' } },
      { role: 'viewer', scope: { businessUnit: 'Coal' } },
      { role: 'member', scope: { businessUnit: 'Coal' } },
    ]);
    expect(listScopes(v)).toEqual([{ businessUnit: 'Iron Ore' }, { businessUnit: 'Coal' }]);
    expect(listScopes(viewer([{ role: 'viewer', scope: {} }]))).toBeUndefined();
    for (const a of [
      action(),
      action({ location: at('Gold', 'X') }),
      action({ location: at('Gold', 'X'), assignee: person('me') }),
    ]) {
      expect(listed(v, a)).toBe(rightsOver(v, a).see);
    }
  });
});

describe('sight', () => {
  it('an entry is heard by whoever could see the action before or after its change', () => {
    const north = placementOf(action());
    const moved = placementOf(action({ location: at('Coal', 'East') }));
    const coal = viewer([{ role: 'viewer', scope: { businessUnit: 'Coal' } }]);
    const iron = viewer([{ role: 'viewer', scope: { businessUnit: 'Iron Ore' } }]);
    const gold = viewer([{ role: 'viewer', scope: { businessUnit: 'Gold' } }]);
    expect(sawChange(coal, { before: north, after: moved })).toBe(true);
    expect(sawChange(iron, { before: north, after: moved })).toBe(true);
    expect(sawChange(iron, { before: moved, after: moved })).toBe(false);
    expect(sawChange(gold, { before: north, after: moved })).toBe(false);
    expect(sawChange(gold, {})).toBe(false);
    expect(sawChange(viewer([], 'open'), {})).toBe(true);
    // Their own, wherever it is: the assignee before a hand-over still hears of it.
    const handedOn = { before: { ...moved, assigneeId: 'me' }, after: moved };
    expect(sawChange(gold, handedOn)).toBe(true);
    expect(placementOf(action({ initiator: person('someone') }))).toMatchObject({ initiatorId: 'someone' });
    expect(sawChange(gold, { after: placementOf(action({ initiator: person('me') })) })).toBe(true);
  });
});
