import * as z from 'zod';
import { grantBodySchema } from '../access/grant-create';
import { grantListLimits } from '../access/grants';
import type { RouteDefinition } from '../http/routes';
import { roles } from '../model/access';
import { locationFields } from '../model/action';
import { type Operation, pageResponse, problems } from './components';
import { personSchema as person } from './view-schemas';

/**
 * Section 14's operations in the OpenAPI document: the grants API and `GET /api/me`. Registered
 * from `openapi.ts`.
 */

/** The group of these operations on the docs page. */
export const accessTag = {
  name: 'People and access',
  description: 'Who sees what: grants of roles on scopes (places), and what the caller holds.',
} as const;

const scope = z.object(Object.fromEntries(locationFields.map((f) => [f, z.string().optional()]))).openapi('Scope', {
  description: `A location prefix in the order ${locationFields.join(' > ')}: {} is everything; a field only with every field before it; values compare exactly.`,
});

const principal = z
  .union([
    z.object({ type: z.literal('person'), id: z.string() }),
    z.object({ type: z.literal('group'), name: z.string().openapi({ description: 'A Cognito group' }) }),
  ])
  .openapi('Principal');

const grant = z
  .object({
    id: z.string(),
    principal,
    role: z.enum(roles),
    scope,
    grantedBy: person,
    createdAt: z.string(),
  })
  .openapi('Grant');

const ROLES = `Roles, each including the ones before it: viewer (sees the actions in the scope), member (also comments, endorses, and edits under the owner-or-assignee rule), manager (also edits every field, deletes, and moves actions between scopes they manage), admin (also grants and revokes roles on the scope and anything inside it).`;

const filters = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(grantListLimits.maxLimit)
    .optional()
    .openapi({ description: `1-${grantListLimits.maxLimit}, default ${grantListLimits.defaultLimit}` }),
  cursor: z.string().optional().openapi({ description: 'The nextCursor of the page before, with the same filters' }),
  'principal.id': z.string().optional().openapi({ description: 'Grants to this person' }),
  'principal.name': z.string().optional().openapi({ description: 'Grants to this group' }),
  role: z.enum(roles).optional(),
  ...Object.fromEntries(
    locationFields.map((f) => [
      `scope.${f}`,
      z
        .string()
        .optional()
        .openapi({ description: `Grants whose scope's ${f} is exactly this` }),
    ]),
  ),
});

/** The operations, by handler. */
export const accessOperations = {
  createGrant: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Grant a role on a scope',
    description: `${ROLES} Only an admin of a scope that contains the grant's may grant it (the deployment's ADMIN_GROUP is admin of {}). Granting what is already granted changes nothing and answers the grant there is, with 200.`,
    request: { body: { content: { 'application/json': { schema: grantBodySchema } } } },
    responses: {
      201: { description: 'Granted; Location names it', content: { 'application/json': { schema: grant } } },
      200: { description: 'The very same grant existed already', content: { 'application/json': { schema: grant } } },
      ...problems(400, 401, 403, 413, 415, 503),
    },
  }),
  listGrants: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'List grants',
    description:
      'The grants inside the scopes the caller is admin of (none for anyone else), oldest id first, with exact filters. A revoked grant stops working within 60 seconds.',
    request: { query: filters },
    responses: {
      200: pageResponse('A page of grants', 'grants', grant),
      ...problems(400, 401, 503),
    },
  }),
  deleteGrant: (r: RouteDefinition): Operation => ({
    method: 'delete',
    path: r.path,
    summary: 'Revoke a grant',
    description:
      "An admin of a scope containing the grant's; a grant outside the caller's admin scopes is a 404, as one that never existed. It stops working within 60 seconds.",
    request: { params: z.object({ id: z.string() }) },
    responses: { 204: { description: 'Revoked' }, ...problems(401, 404, 503) },
  }),
  getMe: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'Who am I, and what may I see',
    description:
      "The caller as the token names them, their Cognito groups, and their effective grants, direct and through groups (the deployment's admin group shows as a grant of admin on {} without an id), so a client knows what to offer. The API decides.",
    responses: {
      200: {
        description: 'The caller',
        content: {
          'application/json': {
            schema: z.object({
              id: z.string(),
              name: z.string(),
              email: z.string().nullable(),
              groups: z.array(z.string()),
              grants: z.array(
                grant.partial({ id: true, grantedBy: true, createdAt: true }).openapi({ description: 'A grant held' }),
              ),
            }),
          },
        },
      },
      ...problems(401, 503),
    },
  }),
};

/** The group of each operation here. */
export const accessTags = {
  createGrant: accessTag.name,
  listGrants: accessTag.name,
  deleteGrant: accessTag.name,
  getMe: accessTag.name,
} as const;
