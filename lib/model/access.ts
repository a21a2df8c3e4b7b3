import { type Action, type Location, type LocationField, locationFields, type Person } from './action';

/**
 * Who sees what, and may do what (contract section 14): the one decision every route, list,
 * feed, webhook fan-out, reminder and notification asks. Pure: a function of the caller, the
 * roles they hold (their grants, direct and through groups, already resolved) and the action.
 * Lists apply the same rule as a filter built from `listScopes` (an action is listed when it is
 * in one of those scopes or is the caller's own), and a test compares the two on random data.
 */

/** `ACCESS`: `open` keeps the rules of sections 1-13 (everyone sees everything); `scoped` applies section 14. */
export type AccessMode = 'open' | 'scoped';

/** The roles, each including the ones before it. */
export const roles = ['viewer', 'member', 'manager', 'admin'] as const;
export type Role = (typeof roles)[number];

/**
 * A location prefix in the order of `locationFields`: `{}` is everything, `{businessUnit}` one
 * business unit, `{businessUnit, site}` one site of it. A field is given only with every field
 * before it (`scopeProblem` says what is wrong with one that is not); values compare exactly.
 */
export type Scope = Partial<Location>;

/** One role on one scope: what a grant gives its principal. */
export interface RoleInScope {
  role: Role;
  scope: Scope;
}

/** The caller as the decision sees them: who they are and every role they hold. */
export interface Viewer {
  mode: AccessMode;
  person: Pick<Person, 'id'>;
  /** The caller's effective roles: their grants, direct and through groups (the admin group included). */
  roles: readonly RoleInScope[];
}

/** A signed-in caller and how the decision sees them: what every route acting on one action passes on. */
export interface Who {
  caller: Person;
  viewer: Viewer;
}

/**
 * The viewer of sections 1-13: sees every action, and section 5 decides the rest. What the
 * service does on its own (the due-date sweep) acts with it, whatever the mode.
 */
export const openViewer = (person: Pick<Person, 'id'>): Viewer => ({
  mode: 'open',
  person: { id: person.id },
  roles: [],
});

/** What the decision needs of an action: the people on it, where it is, and its anonymous-edit flag. */
export type Guarded = Pick<Action, 'owner' | 'initiator' | 'assignee' | 'location' | 'allowAnonymousEdits'>;

/** What a caller may do with one action. An action the caller may not `see` does not exist for them (404). */
export interface Rights {
  see: boolean;
  /** Comment and endorse (and upload evidence, section 15). */
  comment: boolean;
  /** Change the ordinary fields (title, description, dueAt, priority, status, tags, attachments, producer URL). */
  edit: boolean;
  /** Change `assignee`. */
  assign: boolean;
  /** Change `allowAnonymousEdits`. */
  setAnonymous: boolean;
  /** Change `location`; where to is asked of `mayMoveTo` as well. */
  move: boolean;
  delete: boolean;
  /** Remove any uploaded attachment, not just one's own (section 15: the owner or a manager). */
  removeAnyAttachment: boolean;
}

const rank = (role: Role): number => roles.indexOf(role);

/** Whether `role` includes `least` (a manager is also a member and a viewer). */
export const includes = (role: Role | undefined, least: Role): boolean =>
  role !== undefined && rank(role) >= rank(least);

/** The fields a scope gives, in order; a scope is a prefix, so these are its first fields. */
export const scopeFields = (scope: Scope): LocationField[] => locationFields.filter((f) => scope[f] !== undefined);

/**
 * What is wrong with a scope, or `undefined` when it is a prefix: a field given without every
 * field before it, an unknown field, or a value that is not a string.
 */
export function scopeProblem(scope: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(scope)) {
    if (!(locationFields as readonly string[]).includes(key)) return `'${key}' is not a location field`;
    if (typeof scope[key] !== 'string') return `'${key}' must be a string`;
  }
  const given = locationFields.map((f) => scope[f] !== undefined);
  const gap = given.findIndex((g, i) => !g && given.slice(i + 1).some(Boolean));
  if (gap >= 0) {
    const after = locationFields.slice(gap + 1).find((f) => scope[f] !== undefined);
    return `'${after}' may be given only with '${locationFields[gap]}' and every field before it`;
  }
  return undefined;
}

/** Whether a location starts with the scope's prefix. */
export const inScope = (location: Location, scope: Scope): boolean =>
  scopeFields(scope).every((f) => location[f] === scope[f]);

/** Whether scope `inner` lies inside `outer` (every action in `inner` is in `outer`). */
export const within = (inner: Scope, outer: Scope): boolean => scopeFields(outer).every((f) => inner[f] === outer[f]);

/** The highest role the viewer holds over a location, if any. */
export function roleAt(viewer: Viewer, location: Location): Role | undefined {
  let best: Role | undefined;
  for (const held of viewer.roles) {
    if (inScope(location, held.scope) && (best === undefined || rank(held.role) > rank(best))) best = held.role;
  }
  return best;
}

/** Whether the caller owns, initiated or is assigned to the action: their own, wherever it is. */
export const isOwn = (viewer: Viewer, action: Guarded): boolean =>
  action.owner.id === viewer.person.id ||
  action.initiator.id === viewer.person.id ||
  action.assignee?.id === viewer.person.id;

/**
 * What `viewer` may do with `action`. In open mode: everyone sees and comments; section 5 for
 * edits (owner or assignee, or anyone when the action allows anonymous edits; `assignee` by the
 * owner or the assignee; `allowAnonymousEdits` and deletes by the owner). In scoped mode: one
 * sees what is in a scope they hold any role on, and their own; comments need `member` or their
 * own; members edit under section 5; managers edit every field, delete and move; `location`
 * carries rights like `assignee` (the owner, the assignee, or a manager of both ends).
 */
export function rightsOver(viewer: Viewer, action: Guarded): Rights {
  const id = viewer.person.id;
  const owner = action.owner.id === id;
  const assignee = action.assignee?.id === id;
  if (viewer.mode === 'open') {
    const edit = owner || assignee || action.allowAnonymousEdits;
    return {
      see: true,
      comment: true,
      edit,
      assign: owner || assignee,
      setAnonymous: owner,
      move: edit,
      delete: owner,
      removeAnyAttachment: owner,
    };
  }
  const own = isOwn(viewer, action);
  const role = roleAt(viewer, action.location);
  const see = own || includes(role, 'viewer');
  const comment = own || includes(role, 'member');
  const manager = includes(role, 'manager');
  // Section 5 for people: anonymous edits need the right to take part (their own, or a member).
  const edit = manager || owner || assignee || (action.allowAnonymousEdits && comment);
  return {
    see,
    comment,
    edit,
    assign: manager || owner || assignee,
    setAnonymous: manager || owner,
    move: manager || owner || assignee,
    delete: manager || owner,
    removeAnyAttachment: manager || owner,
  };
}

/**
 * Whether a move of `action` to `to` is allowed to a caller who has the `move` right: in scoped
 * mode a manager who is neither owner nor assignee may move an action only into a scope they
 * manage too; the owner and the assignee may move their own anywhere (reporting is never blocked).
 */
export function mayMoveTo(viewer: Viewer, action: Guarded, to: Location): boolean {
  const rights = rightsOver(viewer, action);
  if (!rights.move) return false;
  if (viewer.mode === 'open') return true;
  const personal = action.owner.id === viewer.person.id || action.assignee?.id === viewer.person.id;
  return personal || includes(roleAt(viewer, to), 'manager');
}

/**
 * Where an action was and who was on it: everything `see` depends on, kept on each history entry
 * (before and after its change), so the change feed, webhooks and notifications can judge an
 * entry without reading the action. `initiatorId` only when it differs from the owner.
 */
export interface Placement {
  location: Location;
  ownerId: string;
  initiatorId?: string;
  assigneeId: string | null;
}

/** A history entry's placements: `before` absent on a create, `after` absent on a delete. */
export interface Sight {
  before?: Placement;
  after?: Placement;
  /**
   * On a create made by an import (contract section 18): the import's id. Its assignee is told
   * once for the whole import ("N actions were assigned to you"), not for this one action.
   */
  importId?: string;
}

/** The placement of an action. */
export const placementOf = (action: Guarded): Placement => ({
  location: action.location,
  ownerId: action.owner.id,
  ...(action.initiator.id !== action.owner.id ? { initiatorId: action.initiator.id } : {}),
  assigneeId: action.assignee?.id ?? null,
});

const personOf = (id: string): Person => ({ id, name: id, email: null });

/** An action as the decision sees it, from a placement (for `see`: it carries no anonymous-edit flag). */
export const guardedAt = (placement: Placement): Guarded => ({
  location: placement.location,
  owner: personOf(placement.ownerId),
  initiator: personOf(placement.initiatorId ?? placement.ownerId),
  assignee: placement.assigneeId === null ? null : personOf(placement.assigneeId),
  allowAnonymousEdits: false,
});

/**
 * Whether the viewer could see the action before or after an entry's change (contract section
 * 14: the feed, webhooks and reminders). In scoped mode an entry with no placement (recorded
 * before sights were kept) is seen by nobody: the caller reads the action's placement instead.
 */
export function sawChange(viewer: Viewer, sight: Sight): boolean {
  if (viewer.mode === 'open') return true;
  return [sight.before, sight.after].some((p) => p !== undefined && rightsOver(viewer, guardedAt(p)).see);
}

/** Whether the viewer may grant or revoke roles on `scope` (admin of a scope that contains it). */
export const mayAdminister = (viewer: Viewer, scope: Scope): boolean =>
  viewer.roles.some((held) => held.role === 'admin' && within(scope, held.scope));

/**
 * The scopes whose actions a scoped list shows the viewer besides their own: those they hold any
 * role on, without the ones inside another (so no action is walked twice). `undefined` in open
 * mode, and when one of them is `{}` (everything): such a list is an open list.
 */
export function listScopes(viewer: Viewer): Scope[] | undefined {
  if (viewer.mode === 'open') return undefined;
  const scopes = viewer.roles.map((held) => held.scope);
  if (scopes.some((s) => scopeFields(s).length === 0)) return undefined;
  const kept: Scope[] = [];
  for (const [i, scope] of scopes.entries()) {
    const inside = scopes.some(
      (other, j) => j !== i && within(scope, other) && (!within(other, scope) || j < i), // equal ones: keep the first
    );
    if (!inside) kept.push(scope);
  }
  return kept;
}

/** Whether a list built from `listScopes` shows the action: the filter form of `rightsOver(...).see`. */
export function listed(viewer: Viewer, action: Guarded): boolean {
  const scopes = listScopes(viewer);
  return scopes === undefined || isOwn(viewer, action) || scopes.some((s) => inScope(action.location, s));
}
