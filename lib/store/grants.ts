import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { settleAll } from '../flow/fan-out';
import type { Role, Scope } from '../model/access';
import type { Person } from '../model/action';
import { canBeKey, send, TransactionCancelled, tableName, transact } from './client';
import type { Item } from './item';
import { queryInput } from './query/key-query';
import { queryAll, queryPage } from './query/pager';
import { accessKeys, attr } from './table';

/**
 * Grants (contract section 14): one role on one scope for a person or a Cognito group. Each is
 * stored twice in one transaction, in the partition of every grant (an admin's list) and in its
 * principal's partition (what a caller holds: one Query per principal), both under its id.
 */

export type Principal = { type: 'person'; id: string } | { type: 'group'; name: string };

export interface Grant {
  id: string;
  principal: Principal;
  role: Role;
  scope: Scope;
  grantedBy: Person;
  createdAt: string;
}

/** The principal as one key part: `person#<id>` or `group#<name>`. */
export const principalKey = (principal: Principal): string =>
  principal.type === 'person' ? `person#${principal.id}` : `group#${principal.name}`;

const everyGrantKey = (id: string) => ({ [attr.id]: accessKeys.grants, [attr.sortKey]: id });
const principalItemKey = (principal: Principal, id: string) => ({
  [attr.id]: accessKeys.principalGrants(principalKey(principal)),
  [attr.sortKey]: id,
});

const fields = (grant: Grant) => ({
  principal: grant.principal,
  role: grant.role,
  scope: grant.scope,
  grantedBy: grant.grantedBy,
  createdAt: grant.createdAt,
});

const grantFrom = (item: Item): Grant => ({
  id: item[attr.sortKey] as string,
  principal: item.principal as Principal,
  role: item.role as Role,
  scope: (item.scope ?? {}) as Scope,
  grantedBy: item.grantedBy as Person,
  createdAt: item.createdAt as string,
});

/**
 * Stores a grant under its id; `false` when that id is taken (ids derive from what a grant
 * gives, so an identical grant already exists).
 */
export async function putGrant(grant: Grant): Promise<boolean> {
  const put = (key: Item) => ({
    Put: {
      TableName: tableName(),
      Item: { ...key, ...fields(grant) },
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeNames: { '#id': attr.id },
    },
  });
  try {
    await transact([put(everyGrantKey(grant.id)), put(principalItemKey(grant.principal, grant.id))]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailedFrom(0)) return false;
    throw error;
  }
}

/** The grant with this id, if there is one. */
export async function getGrant(id: string): Promise<Grant | undefined> {
  if (!canBeKey(id)) return undefined;
  const { Item } = await send<{ Item?: Item }>(
    new GetCommand({ TableName: tableName(), Key: everyGrantKey(id), ConsistentRead: true }),
  );
  return Item ? grantFrom(Item) : undefined;
}

/** Removes a grant from both its partitions at once. */
export async function deleteGrant(grant: Grant): Promise<void> {
  const remove = (key: Item) => ({ Delete: { TableName: tableName(), Key: key } });
  await transact([remove(everyGrantKey(grant.id)), remove(principalItemKey(grant.principal, grant.id))]);
}

/** One page of a partition, after the sort key `after`; `last` is where the next page starts. */
async function queryPartition(partition: string, after?: string, limit?: number) {
  const result = await queryPage(
    queryInput({
      partition,
      ...(after !== undefined ? { startKey: { [attr.id]: partition, [attr.sortKey]: after } } : {}),
      ...(limit !== undefined ? { limit } : {}),
    }),
  );
  return {
    items: result.Items ?? [],
    last: result.LastEvaluatedKey?.[attr.sortKey] as string | undefined,
  };
}

/** The grants held by any of these principals (a person and their groups): one Query each, at once. */
export async function grantsHeldBy(principals: readonly Principal[]): Promise<Grant[]> {
  const partitions = [...new Set(principals.map((p) => accessKeys.principalGrants(principalKey(p))))].filter((p) =>
    canBeKey(p),
  );
  const pages = await settleAll(partitions.map((partition) => queryAll(queryInput({ partition }))));
  return pages.flat().map(grantFrom);
}

/** One page of every grant, in id order, after the grant `after`; `last` is where the next page starts. */
export async function grantsPage(
  after: string | undefined,
  limit: number,
): Promise<{ grants: Grant[]; last?: string }> {
  const page = await queryPartition(accessKeys.grants, after, limit);
  return { grants: page.items.map(grantFrom), ...(page.last !== undefined ? { last: page.last } : {}) };
}
