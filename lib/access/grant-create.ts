import { v5 as uuidv5 } from 'uuid';
import * as z from 'zod';
import { nowIso } from '../dates';
import { ValidationError } from '../errors';
import { mayAdminister, roles, type Scope, scopeFields } from '../model/access';
import { actionLimits, locationFields } from '../model/action';
import { oneLine, validateBody } from '../model/validate-body';
import { type Grant, getGrant, principalKey, putGrant } from '../store/grants';
import { notAdmin, type Signed } from './grants';
import { withRoles } from './viewer';

/**
 * `POST /api/grants` (contract section 14), the one grants request that sends a body: its schema
 * and the grant it makes. Apart from `grants.ts` so that listing, revoking and `GET /api/me`
 * carry no zod.
 */

/** Group names as Cognito allows them: at most 128 characters. */
const MAX_GROUP_NAME = 128;

const text = (max: number) =>
  oneLine(z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`));

export const grantBodySchema = z.strictObject({
  principal: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('person'), id: text(actionLimits.shortText) }),
    z.strictObject({ type: z.literal('group'), name: text(MAX_GROUP_NAME) }),
  ]),
  role: z.enum(roles),
  scope: z.strictObject(
    Object.fromEntries(locationFields.map((f) => [f, text(actionLimits.shortText).optional()])) as Record<
      (typeof locationFields)[number],
      z.ZodOptional<ReturnType<typeof text>>
    >,
  ),
});

/** A scope's fields, each named `scope.<field>`, when one is given without every field before it. */
function scopeGaps(scope: Scope): Array<{ field: string; message: string }> {
  const given = scopeFields(scope);
  return given
    .filter((field) => locationFields.indexOf(field) >= given.length)
    .map((field) => ({
      field: `scope.${field}`,
      message: `may be given only with every location field before it (${locationFields
        .slice(0, locationFields.indexOf(field))
        .join(', ')})`,
    }));
}

/** Grant ids derive from what a grant gives, so granting the same again finds the grant there is. */
const GRANT_NAMESPACE = '5c0a8d2e-3f41-4b6a-9e27-7d1c2b9f4a10';
const grantIdOf = (body: Pick<Grant, 'principal' | 'role' | 'scope'>) =>
  uuidv5(
    JSON.stringify([principalKey(body.principal), body.role, scopeFields(body.scope).map((f) => body.scope[f])]),
    GRANT_NAMESPACE,
  );

/** The scope in location order, holding only the fields given. */
const ordered = (scope: Scope): Scope => Object.fromEntries(scopeFields(scope).map((f) => [f, scope[f]]));

/**
 * Grants a role on a scope (an admin of a scope containing it). `created` is false when the very
 * same grant existed already: that one is answered, and nothing changes.
 */
export async function createGrant(who: Signed, body: unknown): Promise<{ grant: Grant; created: boolean }> {
  const input = validateBody(grantBodySchema, body);
  const scope = ordered(input.scope);
  const gaps = scopeGaps(scope);
  if (gaps.length > 0) throw new ValidationError(gaps);
  const admin = await withRoles(who.viewer, who.groups);
  if (!mayAdminister(admin, scope)) throw notAdmin();
  const grant: Grant = {
    id: grantIdOf({ ...input, scope }),
    principal: input.principal,
    role: input.role,
    scope,
    grantedBy: who.caller,
    createdAt: nowIso(),
  };
  if (await putGrant(grant)) return { grant, created: true };
  const existing = await getGrant(grant.id);
  return existing ? { grant: existing, created: false } : { grant, created: true };
}
