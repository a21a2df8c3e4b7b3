import { describe, expect, it } from 'vitest';
import { patchRefusal, refusal } from '../../../lib/access/refusals';
import { openViewer, type Rights, type Viewer } from '../../../lib/model/access';
import type { ActionPatch } from '../../../lib/model/validation';
import { anAction } from '../action-fixture';

/**
 * The words a refused caller reads (lib/access/refusals.ts), and which right a patch is refused
 * for: pure, so every branch is tried here without a store.
 */

const all: Rights = {
  see: true,
  comment: true,
  edit: true,
  assign: true,
  setAnonymous: true,
  move: true,
  delete: true,
  removeAnyAttachment: true,
};
const none: Rights = Object.fromEntries(Object.keys(all).map((k) => [k, false])) as unknown as Rights;
const without = (...names: (keyof Rights)[]): Rights => ({
  ...all,
  ...Object.fromEntries(names.map((n) => [n, false])),
});

/** The action's owner in open mode: `mayMoveTo` asks the decision itself, and the owner may move. */
const open = openViewer({ id: 'owner-1' });
/** A manager of the North site, in scoped mode: may move North's actions, but only to places they manage. */
const northManager: Viewer = {
  mode: 'scoped',
  person: { id: 'manager-1' },
  roles: [{ role: 'manager', scope: { site: 'North' } }],
};
const action = anAction();
const patch = (value: object) => value as ActionPatch;

describe('refusal', () => {
  it("says section 5's words in open mode and names the managers of the place in scoped mode", () => {
    expect(refusal(open, 'edit')).toBe('Only the owner or the assignee of this action may edit it.');
    expect(refusal(northManager, 'edit')).toBe(
      'Only the owner or the assignee of this action, or a manager of its place, may edit it.',
    );
    for (const reason of ['edit', 'assign', 'owner', 'move', 'comment', 'deleteComment'] as const) {
      expect(refusal(northManager, reason)).toMatch(/manager of its place|members of its place/);
      expect(refusal(open, reason)).not.toMatch(/manager|member/);
    }
  });

  it('tells an open caller a refused move as an edit (open mode has no right to move of its own)', () => {
    expect(refusal(open, 'move')).toBe(refusal(open, 'edit'));
    expect(refusal(open, 'moveTo')).toBe(refusal(open, 'edit'));
    expect(refusal(northManager, 'move')).not.toBe(refusal(northManager, 'edit'));
  });
});

describe('patchRefusal', () => {
  it('refuses nothing to a caller with every right', () => {
    for (const p of [
      {},
      { title: 'New' },
      { assignee: null },
      { allowAnonymousEdits: true },
      { location: { site: 'X' } },
    ])
      expect(patchRefusal(open, patch(p), all, action)).toBeUndefined();
  });

  it('asks setAnonymous of allowAnonymousEdits, before any other field', () => {
    expect(patchRefusal(open, patch({ allowAnonymousEdits: true }), without('setAnonymous'), action)).toBe(
      refusal(open, 'owner'),
    );
    // Both refused: the first rule decides the words.
    expect(patchRefusal(open, patch({ allowAnonymousEdits: true, assignee: null }), none, action)).toBe(
      refusal(open, 'owner'),
    );
  });

  it('asks assign of assignee, and edit of nothing else in that patch', () => {
    expect(patchRefusal(open, patch({ assignee: null }), without('assign'), action)).toBe(refusal(open, 'assign'));
    expect(patchRefusal(open, patch({ assignee: null }), without('edit'), action)).toBeUndefined();
  });

  it('asks move only of a location that changes', () => {
    const same = patch({ location: { site: action.location.site } });
    expect(patchRefusal(open, same, none, action)).toBeUndefined();
    const elsewhere = patch({ location: { site: 'South' } });
    expect(patchRefusal(open, elsewhere, without('move'), action)).toBe(refusal(open, 'move'));
    expect(patchRefusal(open, elsewhere, without('edit'), action)).toBeUndefined();
  });

  it("judges where to by the caller's own rights over the action, not the rights it is given", () => {
    const stranger = openViewer({ id: 'someone-else' });
    expect(patchRefusal(stranger, patch({ location: { site: 'South' } }), all, action)).toBe(
      refusal(stranger, 'moveTo'),
    );
  });

  it("refuses a scoped manager's move to a place they do not manage, with the moveTo words", () => {
    const toSouth = patch({ location: { site: 'South' } });
    expect(patchRefusal(northManager, toSouth, all, action)).toBe(refusal(northManager, 'moveTo'));
    // Within their site: allowed.
    expect(patchRefusal(northManager, patch({ location: { team: 'Red' } }), all, action)).toBeUndefined();
  });

  it('asks edit of every other field, and of an empty patch', () => {
    expect(patchRefusal(open, patch({ title: 'New' }), without('edit'), action)).toBe(refusal(open, 'edit'));
    expect(patchRefusal(open, patch({}), without('edit'), action)).toBe(refusal(open, 'edit'));
    expect(patchRefusal(open, patch({}), all, action)).toBeUndefined();
    // One refused field refuses the whole patch, whatever the others may do.
    expect(patchRefusal(open, patch({ assignee: null, status: 3 }), without('edit'), action)).toBe(
      refusal(open, 'edit'),
    );
  });
});
