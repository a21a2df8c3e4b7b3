import { getConfig } from '../config';
import { badCursor, cursorKey, encodeCursor } from '../cursor';
import { clip, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { splitQueryString } from '../filter/query';
import { mayAdminister, roles, type Scope, type Viewer, type Who } from '../model/access';
import { locationFields } from '../model/action';
import { deleteGrant, type Grant, getGrant, grantsHeldBy, grantsPage } from '../store/grants';
import { withRoles } from './viewer';

/**
 * The grants API and `GET /api/me` (contract section 14): who may see and do what, granted and
 * revoked by the admins of a scope that contains it. The decision itself is `lib/model/access.ts`.
 */

/** A signed-in caller with their Cognito groups: what admin checks resolve roles from. */
export type Signed = Who & { groups: readonly string[] };

export const notAdmin = () =>
  new ForbiddenError('Only an admin of this scope, or of a scope that contains it, may grant or revoke roles on it.');
const noSuchGrant = (id: string) => new NotFoundError(`No grant has the id '${clip(id)}'.`);

/** Revokes a grant; one outside every scope the caller administers is a 404, like one that never was. */
export async function revokeGrant(who: Signed, id: string): Promise<void> {
  const grant = await getGrant(id);
  const admin = await withRoles(who.viewer, who.groups);
  if (!grant || !mayAdminister(admin, grant.scope)) throw noSuchGrant(id);
  await deleteGrant(grant);
}

export const grantListLimits = { defaultLimit: 50, maxLimit: 100 } as const;

/** The filters of `GET /api/grants`, each compared exactly. */
const FILTERS = ['principal.id', 'principal.name', 'role', ...locationFields.map((f) => `scope.${f}`)];

interface GrantQuery {
  limit: number;
  cursor?: string;
  filters: Array<[string, string]>;
}

function parseGrantQuery(raw: string): GrantQuery {
  const seen = new Map<string, string>();
  const problems: Array<{ parameter: string; message: string }> = [];
  for (const [name, value] of splitQueryString(raw)) {
    if (name !== 'limit' && name !== 'cursor' && !FILTERS.includes(name))
      problems.push({ parameter: clip(name), message: `is not a known parameter (filters: ${FILTERS.join(', ')})` });
    else if (seen.has(name)) problems.push({ parameter: name, message: 'may appear only once' });
    else seen.set(name, value);
  }
  const limitText = seen.get('limit');
  const limit =
    limitText === undefined
      ? grantListLimits.defaultLimit
      : /^\d{1,3}$/.test(limitText)
        ? Number(limitText)
        : Number.NaN;
  if (!(limit >= 1 && limit <= grantListLimits.maxLimit))
    problems.push({ parameter: 'limit', message: `must be an integer from 1 to ${grantListLimits.maxLimit}` });
  const role = seen.get('role');
  if (role !== undefined && !(roles as readonly string[]).includes(role))
    problems.push({ parameter: 'role', message: `must be one of ${roles.join(', ')}` });
  const cursor = seen.get('cursor');
  if (cursor === '') problems.push({ parameter: 'cursor', message: 'must not be empty' });
  if (problems.length > 0) throw new ValidationError(problems);
  const filters = FILTERS.flatMap((name): Array<[string, string]> => {
    const value = seen.get(name);
    return value === undefined ? [] : [[name, value]];
  });
  return { limit, filters, ...(cursor !== undefined ? { cursor } : {}) };
}

/** A grant's value for a filter. */
function filteredValue(grant: Grant, filter: string): string | undefined {
  if (filter === 'principal.id') return grant.principal.type === 'person' ? grant.principal.id : undefined;
  if (filter === 'principal.name') return grant.principal.type === 'group' ? grant.principal.name : undefined;
  if (filter === 'role') return grant.role;
  return grant.scope[filter.slice('scope.'.length) as keyof Scope];
}

/** How many grants one list reads at a time. */
const READ_PAGE = 100;

/** The grants inside the caller's admin scopes that match the filters, a page at a time in id order. */
export async function listGrants(who: Signed, raw: string): Promise<{ grants: Grant[]; nextCursor?: string }> {
  const query = parseGrantQuery(raw);
  const binding = { scope: `grants:${JSON.stringify(query.filters)}`, caller: who.caller.id };
  let after =
    query.cursor === undefined
      ? undefined
      : cursorKey(query.cursor, binding, (key): key is string => typeof key === 'string');
  if (query.cursor !== undefined && after === undefined) throw badCursor();
  const admin: Viewer = await withRoles(who.viewer, who.groups);
  const grants: Grant[] = [];
  if (!admin.roles.some((held) => held.role === 'admin')) return { grants };
  for (;;) {
    const page = await grantsPage(after, READ_PAGE);
    for (const [index, grant] of page.grants.entries()) {
      if (!mayAdminister(admin, grant.scope)) continue;
      if (!query.filters.every(([name, value]) => filteredValue(grant, name) === value)) continue;
      grants.push(grant);
      if (grants.length === query.limit) {
        const more = index < page.grants.length - 1 || page.last !== undefined;
        return { grants, ...(more ? { nextCursor: encodeCursor(binding, grant.id) } : {}) };
      }
    }
    if (page.last === undefined) return { grants };
    after = page.last;
  }
}

/** The caller as the service sees them, with their effective grants, direct and through groups. */
export async function me(who: Signed) {
  const { adminGroup } = getConfig();
  const held = await grantsHeldBy([
    { type: 'person', id: who.caller.id },
    ...[...new Set(who.groups)].map((name) => ({ type: 'group' as const, name })),
  ]);
  return {
    id: who.caller.id,
    name: who.caller.name,
    email: who.caller.email,
    groups: [...who.groups],
    grants: [
      // The deployment's admin group is admin of everything without a stored grant.
      ...(who.groups.includes(adminGroup)
        ? [{ principal: { type: 'group' as const, name: adminGroup }, role: 'admin' as const, scope: {} }]
        : []),
      ...held,
    ],
  };
}
