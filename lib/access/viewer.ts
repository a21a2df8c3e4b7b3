import { getConfig } from '../config';
import type { RoleInScope, Viewer } from '../model/access';
import type { Person } from '../model/action';
import { grantsHeldBy, type Principal } from '../store/grants';
import { knownPeople } from '../store/people';

/**
 * The caller as the access decision sees them (contract section 14): the deployment's mode and
 * every role they hold, through their grants (direct and through their groups) and the admin
 * group. Every route gets it from the edge (`event.viewer`) and asks `rightsOver` with it.
 *
 * Roles are read once per caller and set of groups, then kept for `ACCESS_CACHE_SECONDS`
 * (default 30, at most 60): a revoked grant stops working within that time in every process,
 * and a caller costs one grants read (one Query per principal) per period.
 */

interface Cached {
  roles: RoleInScope[];
  until: number;
}

const cache = new Map<string, Cached>();
/** The cache forgets its oldest entries past this many, so a long-lived process stays small. */
const CACHE_MAX = 10_000;

/** Every role a person holds: their direct grants, their groups' grants, and admin of `{}` in the admin group. */
export async function rolesOf(personId: string, groups: readonly string[]): Promise<RoleInScope[]> {
  const { accessCacheSeconds, adminGroup } = getConfig();
  const sorted = [...new Set(groups)].sort();
  const key = JSON.stringify([personId, sorted]);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.roles;
  const principals: Principal[] = [
    { type: 'person', id: personId },
    ...sorted.map((name) => ({ type: 'group' as const, name })),
  ];
  const grants = await grantsHeldBy(principals);
  const roles: RoleInScope[] = [
    ...(sorted.includes(adminGroup) ? [{ role: 'admin' as const, scope: {} }] : []),
    ...grants.map(({ role, scope }) => ({ role, scope })),
  ];
  cache.delete(key);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  if (accessCacheSeconds > 0) cache.set(key, { roles, until: now + accessCacheSeconds * 1000 });
  return roles;
}

/**
 * The viewer of a signed-in caller. In open mode the decision needs no roles, so none are read;
 * what needs them anyway (the grants API, `GET /api/me`) asks `withRoles`.
 */
export async function viewerOf(caller: Pick<Person, 'id'>, groups: readonly string[]): Promise<Viewer> {
  const mode = getConfig().access;
  return { mode, person: { id: caller.id }, roles: mode === 'open' ? [] : await rolesOf(caller.id, groups) };
}

/** The viewer with their roles resolved, whatever the mode: what an admin check needs. */
export async function withRoles(viewer: Viewer, groups: readonly string[]): Promise<Viewer> {
  return viewer.mode === 'open' ? { ...viewer, roles: await rolesOf(viewer.person.id, groups) } : viewer;
}

/**
 * The viewer of a person who is not calling (a webhook's owner, someone to notify): the groups
 * remembered from their last sign-in, and their grants. Someone never seen holds only their
 * direct grants.
 */
export async function viewerFor(personId: string): Promise<Viewer> {
  const { access: mode, accessCacheSeconds } = getConfig();
  if (mode === 'open') return { mode, person: { id: personId }, roles: [] };
  const now = Date.now();
  let known = rememberedGroups.get(personId);
  if (!known || known.until <= now) {
    known = {
      groups: (await knownPeople([personId])).get(personId)?.groups ?? [],
      until: now + accessCacheSeconds * 1000,
    };
    rememberedGroups.delete(personId);
    if (rememberedGroups.size >= CACHE_MAX) rememberedGroups.delete(rememberedGroups.keys().next().value as string);
    if (accessCacheSeconds > 0) rememberedGroups.set(personId, known);
  }
  return { mode, person: { id: personId }, roles: await rolesOf(personId, known.groups) };
}

/** A person's remembered groups, kept as long as roles are. */
const rememberedGroups = new Map<string, { groups: string[]; until: number }>();
