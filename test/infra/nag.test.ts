import { Validations } from 'aws-cdk-lib';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { synthesize } from './synth';

/** Every finding of the AWS Solutions pack that was not acknowledged, errors and warnings alike. */
const findings = (scope: IConstruct) =>
  new AwsSolutionsChecks().validateScope(scope).violations.map((v) => ({
    rule: v.ruleName,
    severity: v.severity,
    resources: v.violatingResources.map((r) => r.constructPath),
  }));

/** Every acknowledgement in the tree: where, which rule, and why. */
function acknowledgements(scope: IConstruct) {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([rule, reason]) => ({
          path: construct.node.path,
          rule: rule.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

/** The acknowledged rules, each with its reason in the construct that acknowledges it. */
const expectedRules = [
  'AwsSolutions-IAM5[Resource::*]', // X-Ray actions have no resource-level permissions
  'AwsSolutions-L1', // Node.js 22 pinned on purpose
  'AwsSolutions-APIG4', // public routes and $default
  'AwsSolutions-COG2', // MFA optional
  'AwsSolutions-COG8', // no Plus plan
  'AwsSolutions-SQS3', // the events dead-letter queue is one (the stream mapping's on-failure destination)
];

describe('cdk-nag AwsSolutions', () => {
  const deployed = synthesize();

  it('finds nothing unacknowledged in the stack', () => {
    expect(findings(deployed.stack)).toEqual([]);
  });

  it('finds nothing with an existing pool and access logs off either', () => {
    const variant = synthesize((stack) => ({
      userPool: UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_Existing'),
      accessLogs: false,
    }));
    expect(findings(variant.stack)).toEqual([]);
    expect(acknowledgements(variant.stack).map((a) => a.rule)).toContain('AwsSolutions-APIG1');
  });

  it('acknowledges only the expected rules, each with a written reason', () => {
    const all = acknowledgements(deployed.stack);
    expect([...new Set(all.map((a) => a.rule))].sort()).toEqual([...expectedRules].sort());
    for (const { reason } of all) expect(reason.length).toBeGreaterThan(30);
  });

  it('acknowledges the X-Ray wildcard on the function roles only, not a blanket IAM5', () => {
    const wildcard = acknowledgements(deployed.stack).filter((a) => a.rule.startsWith('AwsSolutions-IAM5'));
    expect(wildcard.map((a) => a.path).sort()).toEqual(
      Object.values(deployed.service.functions)
        .map((fn) => fn.role.node.path)
        .sort(),
    );
  });

  it('does report what it should: an unencrypted queue without a dead-letter queue', () => {
    const { stack } = synthesize();
    new Queue(stack, 'Careless');
    expect(findings(stack).map((f) => f.rule)).toEqual(
      expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']),
    );
  });
});
