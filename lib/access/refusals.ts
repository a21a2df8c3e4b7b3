import { mayMoveTo, type Rights, type Viewer } from '../model/access';
import type { Action } from '../model/action';
import { applyPatch } from '../model/edits';
import type { ActionPatch } from '../model/validation';

/**
 * What a caller who sees an action is told when the decision (`rightsOver`) refuses what they
 * ask: section 5's words in open mode, exactly as before section 14, and the same rules with
 * the managers of the action's place in scoped mode.
 */

type Refusal = 'edit' | 'assign' | 'owner' | 'move' | 'moveTo' | 'comment' | 'deleteComment';

const open: Record<Refusal, string> = {
  edit: 'Only the owner or the assignee of this action may edit it.',
  assign: 'Only the owner or the current assignee of this action may change its assignee.',
  owner: 'Only the owner of this action may do this.',
  move: 'Only the owner or the assignee of this action may edit it.',
  moveTo: 'Only the owner or the assignee of this action may edit it.',
  comment: 'You may not comment on or endorse this action.',
  deleteComment: "Only a comment's author or the action's owner may delete it.",
};

const scoped: Record<Refusal, string> = {
  edit: 'Only the owner or the assignee of this action, or a manager of its place, may edit it.',
  assign: 'Only the owner or the current assignee of this action, or a manager of its place, may change its assignee.',
  owner: 'Only the owner of this action or a manager of its place may do this.',
  move: 'Only the owner or the assignee of this action, or a manager of its place, may move it.',
  moveTo: 'A manager may move this action only to a place they manage too.',
  comment: 'Only the people on this action and the members of its place may comment on or endorse it.',
  deleteComment: "Only a comment's author, the action's owner or a manager of its place may delete it.",
};

/** The words for a refusal, in the viewer's mode. */
export const refusal = (viewer: Viewer, reason: Refusal): string => (viewer.mode === 'open' ? open : scoped)[reason];

/** Fields that carry rights of their own; every other field of a patch needs `edit`. */
const NARROW = ['allowAnonymousEdits', 'assignee', 'location'];

/**
 * Why a patch is refused, or `undefined`: `allowAnonymousEdits` needs `setAnonymous`, `assignee`
 * needs `assign`, a `location` that changes needs `move` and `mayMoveTo` the new place, and any
 * other field (or an empty patch) needs `edit`. Any field refused refuses the whole patch.
 */
export function patchRefusal(viewer: Viewer, patch: ActionPatch, rights: Rights, current: Action): string | undefined {
  if (patch.allowAnonymousEdits !== undefined && !rights.setAnonymous) return refusal(viewer, 'owner');
  if (patch.assignee !== undefined && !rights.assign) return refusal(viewer, 'assign');
  if (patch.location !== undefined) {
    const to = applyPatch(current, patch, current.updatedAt).location;
    const moves = Object.keys(to).some((f) => to[f as keyof typeof to] !== current.location[f as keyof typeof to]);
    if (moves && !rights.move) return refusal(viewer, 'move');
    if (moves && !mayMoveTo(viewer, current, to)) return refusal(viewer, 'moveTo');
  }
  const others = Object.keys(patch).filter((field) => !NARROW.includes(field));
  if ((others.length > 0 || Object.keys(patch).length === 0) && !rights.edit) return refusal(viewer, 'edit');
  return undefined;
}
