import { attr, type KeyType, sortKey, tableKey } from './table';

/**
 * The table's global secondary indexes: their keys and what each projects, declared once. The
 * list planner, the store's reads and the CDK construct all read them from here, and the
 * table's attribute definitions are derived from them.
 */

/** What an index that must filter and sort anything projects: the one map of filter values. */
const everyFilterValue = [attr.filters] as const;

export interface IndexDefinition {
  name: string;
  partitionKey: { name: string; type: KeyType };
  sortKey: { name: string; type: KeyType };
  /** `keys` projects only the keys; otherwise the listed non-key attributes are projected too. */
  projection: 'keys' | readonly string[];
}

const byCreated = { name: attr.createdKey, type: 'S' } as const;

/** Global secondary indexes, in the order the planner prefers them when they tie. */
export const indexes = {
  /** Every action, newest first: the default list and the cheapest exact count. */
  allByCreated: {
    name: 'all-by-created',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: byCreated,
    projection: 'keys',
  },
  /** Every action by due time; projects every filter value, so it can serve any residual filter. */
  allByDue: {
    name: 'all-by-due',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.dueKey, type: 'S' },
    projection: everyFilterValue,
  },
  /**
   * Every action by update time. Also holds priority, status and the created key (about 175
   * bytes an entry), so sorting by priority or status, or filtering on them alone in any order,
   * reads a third of what the `f` map would cost.
   */
  allByUpdated: {
    name: 'all-by-updated',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.updatedKey, type: 'S' },
    projection: [attr.createdKey, attr.priorityKey, attr.statusKey],
  },
  /**
   * Title order, projecting every filter value besides the folded title and the created key
   * (issue 54): a list by title with another filter (a site viewer's: their scope's site and
   * business unit) walks it a page at a time filtering its entries, where a keys-and-title entry
   * made it read the site's every action and sort them (314.5 read units at 100,000).
   */
  allByTitle: {
    name: 'all-by-title',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.titleKey, type: 'S' },
    projection: [attr.titleLower, attr.createdKey, attr.filters],
  },
  /** Every action by priority, and the created key: a priority order, or a priority range newest first. */
  allByPriority: {
    name: 'all-by-priority',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.priorityOrderKey, type: 'S' },
    projection: [attr.createdKey],
  },
  /** Every action by its owner's name (`sort=owner`). */
  allByOwnerName: {
    name: 'all-by-owner-name',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.ownerNameKey, type: 'S' },
    projection: 'keys',
  },
  /** Every action by its assignee's name (`sort=assignee`; "Unknown user" when nobody is assigned). */
  allByAssigneeName: {
    name: 'all-by-assignee-name',
    partitionKey: { name: attr.everything, type: 'S' },
    sortKey: { name: attr.assigneeNameKey, type: 'S' },
    projection: 'keys',
  },
  byOwner: {
    name: 'by-owner',
    partitionKey: { name: attr.ownerKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  byAssignee: {
    name: 'by-assignee',
    partitionKey: { name: attr.assigneeKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  bySite: {
    name: 'by-site',
    partitionKey: { name: attr.siteKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  /**
   * One site's actions by due time (the table's 20th and last index): a site's, or a site scope's,
   * open or overdue actions by due date walk it a page at a time instead of reading the site's
   * partition and sorting it (contract sections 4 and 14). Same key and projection as `by-site`.
   */
  bySiteByDue: {
    name: 'by-site-by-due',
    partitionKey: { name: attr.siteKey, type: 'S' },
    sortKey: { name: attr.dueKey, type: 'S' },
    projection: everyFilterValue,
  },
  byBusinessUnit: {
    name: 'by-business-unit',
    partitionKey: { name: attr.businessUnitKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  byProducer: {
    name: 'by-producer',
    partitionKey: { name: attr.producerKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  byReference: {
    name: 'by-reference',
    partitionKey: { name: attr.referenceKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  /**
   * Overdue actions only (sparse: `ov` is set while an action is overdue), newest first; projects
   * every filter value, so `overdue=true` with any other filter reads only overdue actions.
   */
  overdueByCreated: {
    name: 'overdue-by-created',
    partitionKey: { name: attr.overdueKey, type: 'S' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  /**
   * Open actions only, by reminder level and due time: the sweep's queue and `overdue=true&sort=dueAt`.
   * Projects every filter value (issue 53), so an overdue list by due date with any other filter (a
   * business unit's, a status set's) filters the entries it walks instead of fetching each action.
   */
  remindersByDue: {
    name: 'reminders-by-due',
    partitionKey: { name: attr.reminderKey, type: 'S' },
    sortKey: { name: attr.dueKey, type: 'S' },
    projection: everyFilterValue,
  },
  byStatus: {
    name: 'by-status',
    partitionKey: { name: attr.statusKey, type: 'N' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  byPriority: {
    name: 'by-priority',
    partitionKey: { name: attr.priorityKey, type: 'N' },
    sortKey: byCreated,
    projection: everyFilterValue,
  },
  /**
   * Every enabled webhook subscription and the event types it names: what a published event is
   * matched against. Sparse: a disabled subscription drops its key and leaves the index.
   */
  webhooksEnabled: {
    name: 'webhooks-enabled',
    partitionKey: { name: attr.webhooksEnabledKey, type: 'S' },
    sortKey: { name: attr.sortKey, type: 'S' },
    projection: ['events'],
  },
  /**
   * The change feed (`GET /api/changes`): every history entry, spread over the shards of its
   * action, in time order. Projects what a feed entry shows, not the action snapshot a create or
   * delete entry keeps for its event.
   */
  changes: {
    name: 'changes',
    partitionKey: { name: attr.feedPartition, type: 'S' },
    sortKey: { name: attr.feedKey, type: 'S' },
    projection: ['version', 'type', 'actor', 'time', 'changes', 'comment', 'dueAt'],
  },
} as const satisfies Record<string, IndexDefinition>;

export const indexList: readonly IndexDefinition[] = Object.values(indexes);

/** The indexes as DynamoDB's API (and CloudFormation) spell them. */
export const globalSecondaryIndexes = () =>
  indexList.map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey.name, KeyType: 'RANGE' as const },
    ],
    Projection:
      index.projection === 'keys'
        ? { ProjectionType: 'KEYS_ONLY' as const }
        : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection] },
  }));

/** Each key attribute of the table and its indexes, once, with its type. */
export function attributeDefinitions() {
  const types = new Map<string, KeyType>([
    [tableKey.name, tableKey.type],
    [sortKey.name, sortKey.type],
  ]);
  for (const index of indexList) {
    types.set(index.partitionKey.name, index.partitionKey.type);
    types.set(index.sortKey.name, index.sortKey.type);
  }
  return [...types].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
}
