import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { synthesize } from './synth';

/**
 * The whole synthesized template, pinned: a refactor of the construct (issue 33: its constructor
 * split into `add...()` steps) must leave every logical ID and property as it was, byte for byte.
 *
 * Asset hashes (the functions' S3 keys, and any other 64-hex content hash) are replaced by a
 * placeholder before comparing: they follow the bundled code in lib/ and functions/, which
 * changes all the time without the infrastructure changing.
 *
 * A deliberate change to the infrastructure updates the fixtures on purpose, and the diff of the
 * fixture is then part of the review:
 *
 *     UPDATE_TEMPLATE=1 npx vitest run --project infra test/infra/template.test.ts
 *
 * Without `UPDATE_TEMPLATE=1` a missing fixture fails, so deleting one never passes silently.
 */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const update = process.env.UPDATE_TEMPLATE === '1';

/** The template as text with its content hashes replaced: what the fixture holds. */
function normalised(template: unknown): string {
  return `${JSON.stringify(template, null, 2).replace(/[0-9a-f]{64}/g, '<asset-hash>')}\n`;
}

function expectFixture(name: string, text: string): void {
  const path = join(fixtures, name);
  if (update) {
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(path, text);
  }
  expect(existsSync(path), `${name} is missing: UPDATE_TEMPLATE=1 writes it`).toBe(true);
  const pinned = readFileSync(path, 'utf8');
  // Structurally first, for a readable diff of what moved; then byte for byte.
  expect(JSON.parse(text)).toEqual(JSON.parse(pinned));
  expect(text === pinned, `${name} differs in formatting or key order`).toBe(true);
}

// A whole synth with the console's assets staged: seconds alone, much more on a busy machine.
describe('the synthesized template', { timeout: 180_000 }, () => {
  it('with default props (the deployed stack) is the one pinned in fixtures/template-default.json', () => {
    expectFixture('template-default.json', normalised(synthesize().template.toJSON()));
  });

  it('with every optional prop set is the one pinned in fixtures/template-options.json', () => {
    const { template } = synthesize((stack) => {
      const userPool = UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_Existing');
      return {
        userPool,
        userPoolClient: UserPoolClient.fromUserPoolClientId(stack, 'PoolClient', 'existingclient'),
        producerSources: ['inspections', 'audits'],
        removalPolicy: RemovalPolicy.DESTROY,
        deletionProtection: false,
        cors: { allowOrigins: ['https://example.com'], allowHeaders: ['x-extra'] },
        throttle: { rateLimit: 50, burstLimit: 60 },
        publicThrottle: { rateLimit: 5, burstLimit: 6 },
        rateLimitRequests: 100,
        rateLimitReads: 5000,
        listReadBudget: 1000,
        reservedConcurrency: { listActions: 3 },
        accessLogs: false,
        logRetention: RetentionDays.ONE_WEEK,
        eventSource: 'custom-source',
        alarmTopic: new Topic(stack, 'Alarms', { enforceSSL: true }),
        closedStatuses: [3, 4, 9],
        dueSoonHours: 12,
        escalateAfterHours: 48,
        reminderInterval: Duration.minutes(5),
        console: false,
      };
    });
    expectFixture('template-options.json', normalised(template.toJSON()));
  });

  it('replaces content hashes only, so a change anywhere else still fails', () => {
    const text = normalised({ S3Key: `${'ab'.repeat(32)}.zip`, Id: 'ServiceTable603BACCB' });
    expect(JSON.parse(text)).toEqual({ S3Key: '<asset-hash>.zip', Id: 'ServiceTable603BACCB' });
  });
});
