import { describe, expect, it } from 'vitest';
import { evidenceRoutes, type StorageAccess } from '../../lib/http/evidence-routes';
import { exportRoutes, exportWorker } from '../../lib/http/export-routes';
import { importFunction, importRoutes } from '../../lib/http/import-routes';
import { render, type Statement, statementsOfRole, synthesize } from './synth';

/**
 * Evidence in AWS (contract section 15): a private bucket behind TLS, unattached uploads expired
 * by a lifecycle rule on their prefix, GuardDuty Malware Protection on by default, and only the
 * evidence functions may touch the bucket, each only on its own prefix.
 */

const deployed = synthesize();
const { service } = deployed;
const bucketId = deployed.id(service.evidence.bucket);
const bucket = deployed.resources[bucketId]!.Properties;

/** Every statement of every function role that names the evidence bucket, by handler. */
function bucketStatements(synthesized = deployed) {
  const id = synthesized.id(synthesized.service.evidence.bucket);
  return Object.fromEntries(
    Object.entries(synthesized.service.functions).map(([handler, fn]) => [
      handler,
      statementsOfRole(synthesized, synthesized.id(fn.role)).filter((s) => s.resources.some((r) => r.includes(id))),
    ]),
  );
}

describe('evidence in AWS', () => {
  it('the bucket is private: every public access blocked, objects owned by the bucket, encrypted', () => {
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({
      SSEAlgorithm: 'AES256',
    });
  });

  it('the bucket refuses anything but TLS', () => {
    const statements = deployed
      .ofType('AWS::S3::BucketPolicy')
      .filter(([, p]) => render(p.Properties.Bucket) === bucketId)
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });

  it('uploads never attached expire within a day, by a rule on their prefix only', () => {
    const rules = bucket.LifecycleConfiguration.Rules as Array<Record<string, unknown>>;
    expect(rules).toContainEqual(
      expect.objectContaining({ Id: 'unattached-uploads', Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' }),
    );
    // Nothing expires attached files: only unattached uploads (a day), imported files and export
    // files (7 days, section 18).
    for (const [id, prefix] of [
      ['imports', 'imports/'],
      ['exports', 'exports/'],
    ])
      expect(rules).toContainEqual(
        expect.objectContaining({ Id: id, Prefix: prefix, ExpirationInDays: 7, Status: 'Enabled' }),
      );
    for (const rule of rules)
      if (rule.ExpirationInDays !== undefined) expect(['uploads/', 'imports/', 'exports/']).toContain(rule.Prefix);
  });

  it('GuardDuty Malware Protection scans attached files and tags them, with a role of its own; off on request', () => {
    const plans = deployed.ofType('AWS::GuardDuty::MalwareProtectionPlan').map(([, p]) => p.Properties);
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    expect(render(plan.ProtectedResource.S3Bucket.BucketName)).toBe(bucketId);
    expect(plan.ProtectedResource.S3Bucket.ObjectPrefixes).toEqual(['attachments/']);
    expect(plan.Actions).toEqual({ Tagging: { Status: 'ENABLED' } });
    const roleId = render(plan.Role).replace(/\.Arn$/, '');
    const role = deployed.resources[roleId]!.Properties;
    expect(role.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
      Service: 'malware-protection-plan.guardduty.amazonaws.com',
    });
    const environment =
      deployed.resources[deployed.id(service.functions.getAttachment!.function)]!.Properties.Environment.Variables;
    expect(environment).toMatchObject({ EVIDENCE_BUCKET: { Ref: bucketId }, MALWARE_SCAN: 'true' });

    const off = synthesize({ malwareScan: false });
    expect(off.ofType('AWS::GuardDuty::MalwareProtectionPlan')).toEqual([]);
    const offEnvironment =
      off.resources[off.id(off.service.functions.getAttachment!.function)]!.Properties.Environment.Variables;
    expect(offEnvironment.MALWARE_SCAN).toBe('false');
  }, 120_000);

  it("GuardDuty's scan results for this bucket's attached files reach the function that records them; none without a scanner", () => {
    const scanResults = (synthesized: typeof deployed) =>
      synthesized
        .ofType('AWS::Events::Rule')
        .map(([, r]) => r.Properties)
        .filter((r) => r.EventPattern?.source?.includes('aws.guardduty'));
    const rules = scanResults(deployed);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    // GuardDuty publishes on the account's default bus: the rule names no bus of its own.
    expect(rule.EventBusName).toBeUndefined();
    expect(rule.EventPattern['detail-type']).toEqual(['GuardDuty Malware Protection Object Scan Result']);
    const object = rule.EventPattern.detail.s3ObjectDetails;
    expect(object.bucketName.map(render)).toEqual([bucketId]);
    expect(object.objectKey).toEqual([{ prefix: 'attachments/' }]);
    const record = service.functions.recordScanResults!;
    expect(render(rule.Targets[0].Arn)).toBe(`${deployed.id(record.function)}.Arn`);
    expect(rule.Targets[0].RetryPolicy).toMatchObject({ MaximumRetryAttempts: 20 });
    // It writes the verdict to the table and reads nothing of the bucket.
    expect(bucketStatements().recordScanResults).toEqual([]);
    expect(scanResults(synthesize({ malwareScan: false }))).toEqual([]);
  }, 120_000);

  it('only the evidence and export functions may touch the bucket, each exactly the calls its route lists, on its prefix', () => {
    const byHandler = bucketStatements();
    const expected: Record<string, readonly StorageAccess[]> = Object.fromEntries([
      ...[...evidenceRoutes, ...importRoutes, ...exportRoutes].flatMap((r) =>
        'storage' in r && r.storage ? [[r.handler, r.storage]] : [],
      ),
      [importFunction.handler, importFunction.storage],
      [exportWorker.handler, exportWorker.storage],
    ]);
    for (const [handler, statements] of Object.entries(byHandler)) {
      const storage = expected[handler];
      if (!storage) {
        expect(statements, handler).toEqual([]);
        continue;
      }
      expect(
        statements.map((s) => ({ actions: [...s.actions].sort(), resources: s.resources })),
        handler,
      ).toEqual(storage.map((a) => ({ actions: [...a.actions].sort(), resources: [`${bucketId}.Arn/${a.prefix}*`] })));
      for (const s of statements) expect(s.effect).toBe('Allow');
    }
    // Reading is never granted on uploads to whoever serves files, nor deleting to whoever starts uploads.
    expect(byHandler.getAttachment!.flatMap((s) => s.resources)).toEqual([`${bucketId}.Arn/attachments/*`]);
    expect(byHandler.createUpload!.flatMap((s) => s.actions)).toEqual(['s3:PutObject']);
    // The export worker writes its prefix only; the export routes only read it (a presigned GET).
    expect(byHandler[exportWorker.handler]!.flatMap((s) => s.resources)).toEqual([`${bucketId}.Arn/exports/*`]);
    expect(byHandler.getExport!.flatMap((s) => s.actions)).toEqual(['s3:GetObject']);
  });

  it('the deployment settings reach every function', () => {
    const custom = synthesize({ evidence: { requiredStatuses: [3], maxBytes: 10_000_000, types: ['image/jpeg'] } });
    const variables =
      custom.resources[custom.id(custom.service.functions.updateAction!.function)]!.Properties.Environment.Variables;
    expect(variables).toMatchObject({
      EVIDENCE_REQUIRED_STATUSES: '3',
      ATTACHMENT_MAX_BYTES: '10000000',
      ATTACHMENT_TYPES: 'image/jpeg',
    });
  }, 120_000);
});
