import { RemovalPolicy, Validations } from 'aws-cdk-lib';
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
  // The console (infra/cdk/console.ts): the default CloudFront certificate fixes the TLS policy;
  // no country excluded; no WAF in front of static files and a throttled API.
  'AwsSolutions-CFR1',
  'AwsSolutions-CFR2',
  'AwsSolutions-CFR4',
  // aws-cdk-lib's own, on the console's log bucket: it grants S3 log delivery by the ACL it sets.
  'CloudFormation-Validate::W3045',
];

/** BucketDeployment's own grants to the console's copier role: named actions and the two buckets' objects. */
const copierWildcards = [
  'AwsSolutions-IAM5[Action::s3:GetObject*]',
  'AwsSolutions-IAM5[Action::s3:GetBucket*]',
  'AwsSolutions-IAM5[Action::s3:List*]',
  'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
  'AwsSolutions-IAM5[Action::s3:Abort*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
  'AwsSolutions-IAM5[Resource::<ServiceConsoleBucket176B544E.Arn>/*]',
];

/**
 * Evidence (infra/cdk/evidence.ts): objects have no fixed names, so the evidence functions, the
 * export functions (infra/cdk/transfer.ts), the import functions (infra/cdk/imports.ts) and
 * GuardDuty's scan role hold grants on one prefix each, and the scan role on the rules GuardDuty manages.
 */
const evidenceWildcard =
  /^AwsSolutions-IAM5\[Resource::(<\w+\.Arn>\/(uploads|attachments|imports|exports)\/\*|arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:rule\/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3\*)\]$/;

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
    const all = acknowledgements(deployed.stack).filter((a) => !evidenceWildcard.test(a.rule));
    expect([...new Set(all.map((a) => a.rule))].sort()).toEqual([...expectedRules, ...copierWildcards].sort());
    for (const { reason } of all) expect(reason.length).toBeGreaterThan(30);
  });

  it('acknowledges the X-Ray wildcard on the function roles only, not a blanket IAM5', () => {
    const wildcard = acknowledgements(deployed.stack).filter(
      (a) =>
        a.rule.startsWith('AwsSolutions-IAM5') && !copierWildcards.includes(a.rule) && !evidenceWildcard.test(a.rule),
    );
    for (const { rule } of wildcard) expect(rule).toBe('AwsSolutions-IAM5[Resource::*]');
    expect(wildcard.map((a) => a.path).sort()).toEqual(
      Object.values(deployed.service.functions)
        .map((fn) => fn.role.node.path)
        .sort(),
    );
  });

  it('acknowledges bucket prefixes on the evidence, import and export functions and the scan role alone', () => {
    const evidence = acknowledgements(deployed.stack).filter((a) => evidenceWildcard.test(a.rule));
    const roles = [
      'createUpload',
      'attachUpload',
      'getAttachment',
      'deleteAttachment',
      'createImportUpload',
      'createImport',
      'getImport',
      'importActions',
      'getExport',
      'listExports',
      'runExports',
    ].map((handler) => deployed.service.functions[handler]?.role.node.path);
    expect(new Set(evidence.map((a) => a.path))).toEqual(
      new Set([...roles, 'ActionTracking/Service/Evidence/ScanRole']),
    );
    for (const { reason } of evidence) expect(reason.length).toBeGreaterThan(30);
  });

  it("acknowledges BucketDeployment's grants on the console's copier role alone", () => {
    const copier = acknowledgements(deployed.stack).filter((a) => copierWildcards.includes(a.rule));
    expect(new Set(copier.map((a) => a.path))).toEqual(new Set(['ActionTracking/Service/Console/DeploymentRole']));
  });

  it('finds nothing with the console off, nor in a throwaway stack whose buckets are emptied on delete', () => {
    expect(findings(synthesize({ console: false }).stack)).toEqual([]);
    expect(findings(synthesize({ removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false }).stack)).toEqual([]);
  });

  it('does report what it should: an unencrypted queue without a dead-letter queue', () => {
    const { stack } = synthesize();
    new Queue(stack, 'Careless');
    expect(findings(stack).map((f) => f.rule)).toEqual(
      expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']),
    );
  });
});
