import { RemovalPolicy } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { attributeDefinitions, globalSecondaryIndexes } from '../../lib/store/indexes';
import { attr, sortKey, tableKey } from '../../lib/store/table';
import { synthesize } from './synth';

const deployed = synthesize();
type Resource = (typeof deployed.resources)[string];
const table = deployed.resources[deployed.id(deployed.service.table)] as Resource;
const postings = deployed.resources[deployed.id(deployed.service.postingsTable)] as Resource;
const keySchema = [
  { AttributeName: tableKey.name, KeyType: 'HASH' },
  { AttributeName: sortKey.name, KeyType: 'RANGE' },
];

describe('the table', () => {
  it('is one of two tables, keyed as lib/store/table.ts says', () => {
    expect(
      deployed
        .ofType('AWS::DynamoDB::Table')
        .map(([id]) => id)
        .sort(),
    ).toEqual([deployed.id(deployed.service.table), deployed.id(deployed.service.postingsTable)].sort());
    expect(table.Properties.KeySchema).toEqual(keySchema);
  });

  it('has a postings table beside it: the same keys and nothing else (no index, no stream, no TTL), kept as the table is', () => {
    expect(postings.Properties.KeySchema).toEqual(keySchema);
    expect(postings.Properties.AttributeDefinitions).toEqual([
      { AttributeName: tableKey.name, AttributeType: 'S' },
      { AttributeName: sortKey.name, AttributeType: 'S' },
    ]);
    for (const absent of ['GlobalSecondaryIndexes', 'StreamSpecification', 'TimeToLiveSpecification'])
      expect(postings.Properties[absent], absent).toBeUndefined();
    expect(postings.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(postings.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(postings.Properties.DeletionProtectionEnabled).toBe(true);
    expect(postings.DeletionPolicy).toBe('Retain');
  });

  it('has exactly the indexes of lib/store/indexes.ts, in its order, with their keys and projections', () => {
    const expected = globalSecondaryIndexes();
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(expected);
    // Both projection kinds occur, so both branches of the mapping are exercised.
    expect(new Set(expected.map((index) => index.Projection.ProjectionType))).toEqual(
      new Set(['KEYS_ONLY', 'INCLUDE']),
    );
  });

  it('defines each key attribute once with the type lib/store/table.ts or indexes.ts gives it, and nothing else', () => {
    const keys = new Map(attributeDefinitions().map((d) => [d.AttributeName, d.AttributeType]));
    const definitions = table.Properties.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    expect(definitions).toHaveLength(keys.size);
    expect(new Map(definitions.map((d) => [d.AttributeName, d.AttributeType]))).toEqual(keys);
  });

  it('expires items by the one TTL attribute every expiring item uses', () => {
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: attr.expiresAt, Enabled: true });
  });

  it('bills on demand, with point-in-time recovery and deletion protection on, and is retained', () => {
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.ProvisionedThroughput).toBeUndefined();
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });

  it('keeps the user pool too: retained, with deletion protection', () => {
    const [[, pool]] = deployed.ofType('AWS::Cognito::UserPool') as [[string, typeof table]];
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties.DeletionProtection).toBe('ACTIVE');
  });

  it('can be made disposable by props, and keeps point-in-time recovery', () => {
    const disposable = synthesize({ removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false });
    const [[, pool]] = disposable.ofType('AWS::Cognito::UserPool') as [[string, typeof table]];
    expect(disposable.ofType('AWS::DynamoDB::Table')).toHaveLength(2);
    for (const [, other] of disposable.ofType('AWS::DynamoDB::Table') as [string, typeof table][]) {
      expect(other.DeletionPolicy).toBe('Delete');
      expect(other.Properties.DeletionProtectionEnabled).toBe(false);
      expect(other.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
    expect(pool.DeletionPolicy).toBe('Delete');
    expect(pool.Properties.DeletionProtection).toBe('INACTIVE');
  });
});
