import { LOCATION_FIELDS } from '../action-form';
import type { Grant, Principal, Role, Scope } from '../api-pending';

/**
 * Grants in words and the Grant access form's body, pure (contract section 14): who
 * ("Ann Lee (u-ann)", "group contractors"), which role, where ("Iron Ore › North Pit",
 * "everything").
 */

export const ROLES: [Role, string][] = [
  ['viewer', 'Viewer: sees the actions'],
  ['member', 'Member: also comments, endorses, edits their own'],
  ['manager', 'Manager: also edits, moves and deletes any'],
  ['admin', 'Admin: also grants and revokes access'],
];

export const roleName = (role: Role | string) => role.charAt(0).toUpperCase() + role.slice(1);

export function principalInWords(principal: Principal): string {
  if (principal.type === 'group') return `Group ${principal.name}`;
  return principal.name && principal.name !== principal.id ? `${principal.name} (${principal.id})` : principal.id;
}

/** A scope as its location path, or "Everything" for `{}`. */
export function scopeInWords(scope: Scope): string {
  const path = LOCATION_FIELDS.map(([key]) => scope[key]).filter(Boolean);
  return path.length ? path.join(' › ') : 'Everything';
}

/** What the Grant access form holds. */
export interface GrantValues {
  principalType: 'person' | 'group';
  principal: string;
  role: Role;
  businessUnit: string;
  site: string;
}

export const emptyGrant = (): GrantValues => ({
  principalType: 'person',
  principal: '',
  role: 'viewer',
  businessUnit: '',
  site: '',
});

/** The `POST /api/grants` body; a site only within a business unit (a scope is a prefix), blanks left out. */
export function grantBody(values: GrantValues): { principal: Principal; role: Role; scope: Scope } {
  const who = values.principal.trim();
  const businessUnit = values.businessUnit.trim();
  const site = values.site.trim();
  return {
    principal: values.principalType === 'person' ? { type: 'person', id: who } : { type: 'group', name: who },
    role: values.role,
    scope: { ...(businessUnit ? { businessUnit } : {}), ...(site ? { site } : {}) },
  };
}

/** A grant for a screen reader's button name: "Revoke Manager of Iron Ore › North Pit for Ann Lee". */
export const grantInWords = (grant: Grant) =>
  `${roleName(grant.role)} of ${scopeInWords(grant.scope)} for ${principalInWords(grant.principal)}`;
