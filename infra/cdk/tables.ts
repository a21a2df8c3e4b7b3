import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { PostingsAccess, TableAccess } from '../../lib/http/routes';
import { indexList } from '../../lib/store/indexes';
import { attr, type KeyType, sortKey, tableKey } from '../../lib/store/table';

/**
 * The store in AWS: the service's table and the search postings' table, as `lib/store/table.ts`
 * and `lib/store/indexes.ts` describe them, and the one rule for which calls a function may make
 * on them. `ActionTrackingService.defineTable` and `.definePostingsTable` are these functions.
 */

export interface TableOptions {
  /**
   * What deleting the stack does to the table.
   *
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Deletion protection on the table.
   *
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/** The two tables every permission names. */
export interface ServiceTables {
  readonly table: ITable;
  readonly postingsTable: ITable;
}

const attributeType: Record<KeyType, AttributeType> = { S: AttributeType.STRING, N: AttributeType.NUMBER };

/**
 * The service's table: `id` + `sk` keys, every index of `lib/store/indexes.ts`, and a stream with
 * new and old images.
 */
export function defineServiceTable(scope: Construct, id: string, options: TableOptions = {}): Table {
  const table = new Table(scope, id, {
    ...keptTable(options),
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    // Items that only count something for a while (quota windows, endorsement toggles), webhook
    // deliveries (30 days) and idempotency keys (a day) expire; reads ignore expired ones, and
    // DynamoDB deletes them for free.
    timeToLiveAttribute: attr.expiresAt,
  });
  for (const index of indexList) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey.name, type: attributeType[index.partitionKey.type] },
      sortKey: { name: index.sortKey.name, type: attributeType[index.sortKey.type] },
      ...(index.projection === 'keys'
        ? { projectionType: ProjectionType.KEYS_ONLY }
        : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
    });
  }
  return table;
}

/**
 * The search postings' table: the service's keys and nothing else (no index, no stream; TTL is
 * not needed, a posting goes when its action's text does).
 */
export function definePostingsTable(scope: Construct, id: string, options: TableOptions = {}): Table {
  return new Table(scope, id, keptTable(options));
}

/**
 * What both tables are: `id` + `sk` keys, on-demand, point-in-time recovery, and deletion
 * protection and retention unless the options say otherwise.
 */
const keptTable = (options: TableOptions) => ({
  partitionKey: { name: tableKey.name, type: attributeType[tableKey.type] },
  sortKey: { name: sortKey.name, type: attributeType[sortKey.type] },
  billingMode: BillingMode.PAY_PER_REQUEST,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  deletionProtection: options.deletionProtection ?? true,
  removalPolicy: options.removalPolicy ?? RemovalPolicy.RETAIN,
});

/**
 * Exactly the calls a handler needs: `Query` on the table and its indexes, the rest on the table
 * itself, and its `postings` calls on the postings' table.
 */
export function tablePermissions(
  tables: ServiceTables,
  access: readonly TableAccess[],
  postings: readonly PostingsAccess[] = [],
): PolicyStatement[] {
  const { table, postingsTable } = tables;
  const statements: PolicyStatement[] = [];
  if (postings.length > 0)
    statements.push(
      new PolicyStatement({ actions: postings.map((a) => `dynamodb:${a}`), resources: [postingsTable.tableArn] }),
    );
  // `QueryTable` is `Query` on the table alone; with `Query` it is already granted below.
  const onTable = access
    .filter((a) => a !== 'Query' && !(a === 'QueryTable' && access.includes('Query')))
    .map((a) => (a === 'QueryTable' ? 'Query' : a));
  if (onTable.length > 0) {
    statements.push(new PolicyStatement({ actions: onTable.map((a) => `dynamodb:${a}`), resources: [table.tableArn] }));
  }
  if (access.includes('Query')) {
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [table.tableArn, ...indexList.map((index) => `${table.tableArn}/index/${index.name}`)],
      }),
    );
  }
  return statements;
}
