import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { CfnMalwareProtectionPlan } from 'aws-cdk-lib/aws-guardduty';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  ATTACHMENTS_PREFIX,
  evidenceSettingsReaders,
  type StorageAccess,
  UPLOADS_PREFIX,
} from '../../lib/http/evidence-routes';
import { routes } from '../../lib/http/routes';
import type { ServiceFunction } from './service-function';

/**
 * Evidence in AWS (contract section 15): a private bucket (public access blocked, TLS only,
 * encrypted), uploads that are never attached expired after a day by a lifecycle rule on their
 * prefix, GuardDuty Malware Protection for S3 scanning attached files and tagging each with its
 * result, and each function granted only the calls its route lists (`lib/http/evidence-routes.ts`),
 * each on its own prefix.
 */

export interface EvidenceOptions {
  /**
   * GuardDuty Malware Protection for S3 on the bucket (`MALWARE_SCAN`).
   * @default true
   */
  readonly malwareScan?: boolean;
  /**
   * Without a scanner, whether files are served (`SERVE_UNSCANNED`).
   * @default true
   */
  readonly serveUnscanned?: boolean;
  /**
   * Statuses an action may move to only with an uploaded file (`EVIDENCE_REQUIRED_STATUSES`).
   * @default none
   */
  readonly requiredStatuses?: number[];
  /**
   * Media types an upload may have (`ATTACHMENT_TYPES`).
   * @default JPEG, PNG, WebP, HEIC and PDF
   */
  readonly types?: string[];
  /**
   * The largest upload in bytes (`ATTACHMENT_MAX_BYTES`).
   * @default 25 MiB
   */
  readonly maxBytes?: number;
  /** What deleting the stack does to the bucket. */
  readonly removalPolicy: RemovalPolicy;
}

export class EvidenceStorage extends Construct {
  readonly bucket: Bucket;
  readonly malwareProtectionPlan?: CfnMalwareProtectionPlan;
  /** What every function reads (`lib/config.ts`). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: EvidenceOptions) {
    super(scope, id);
    const destroy = props.removalPolicy === RemovalPolicy.DESTROY;
    const logs = new Bucket(this, 'Logs', {
      // S3 delivers access logs with an ACL, so this bucket keeps ACLs for its owner (as the console's does).
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: destroy,
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'evidence/',
      // An upload never attached is gone within a day (S3 runs lifecycle rules once a day, at midnight UTC).
      lifecycleRules: [
        { id: 'unattached-uploads', prefix: UPLOADS_PREFIX, expiration: Duration.days(1) },
        { id: 'incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // The console posts files from its own origin; a POST is authorized by its signed policy alone.
      cors: [{ allowedMethods: [HttpMethods.POST], allowedOrigins: ['*'], allowedHeaders: ['*'], maxAge: 3000 }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: destroy,
    });
    const malwareScan = props.malwareScan ?? true;
    if (malwareScan) this.malwareProtectionPlan = this.addMalwareProtection();
    this.environment = {
      EVIDENCE_BUCKET: this.bucket.bucketName,
      MALWARE_SCAN: String(malwareScan),
      SERVE_UNSCANNED: String(props.serveUnscanned ?? true),
      ...(props.requiredStatuses?.length ? { EVIDENCE_REQUIRED_STATUSES: props.requiredStatuses.join(',') } : {}),
      ...(props.types ? { ATTACHMENT_TYPES: props.types.join(',') } : {}),
      ...(props.maxBytes ? { ATTACHMENT_MAX_BYTES: String(props.maxBytes) } : {}),
    };
  }

  /** GuardDuty scans every attached file and tags it `GuardDutyMalwareScanStatus`; its role, as GuardDuty documents it. */
  private addMalwareProtection(): CfnMalwareProtectionPlan {
    const bucketArn = this.bucket.bucketArn;
    const rules = `arn:${Aws.PARTITION}:events:${Aws.REGION}:${Aws.ACCOUNT_ID}:rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*`;
    const managedBy = { StringLike: { 'events:ManagedBy': 'malware-protection-plan.guardduty.amazonaws.com' } };
    const role = new Role(this, 'ScanRole', {
      assumedBy: new ServicePrincipal('malware-protection-plan.guardduty.amazonaws.com'),
      inlinePolicies: {
        scan: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['events:PutRule', 'events:DeleteRule', 'events:PutTargets', 'events:RemoveTargets'],
              resources: [rules],
              conditions: managedBy,
            }),
            new PolicyStatement({ actions: ['events:DescribeRule', 'events:ListTargetsByRule'], resources: [rules] }),
            new PolicyStatement({
              actions: ['s3:GetObject', 's3:GetObjectVersion', 's3:PutObjectTagging', 's3:GetObjectTagging'],
              resources: [`${bucketArn}/${ATTACHMENTS_PREFIX}*`],
            }),
            new PolicyStatement({
              actions: ['s3:PutBucketNotification', 's3:GetBucketNotification', 's3:ListBucket'],
              resources: [bucketArn],
            }),
            new PolicyStatement({
              actions: ['s3:PutObject'],
              resources: [`${bucketArn}/malware-protection-resource-validation-object`],
            }),
          ],
        }),
      },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*]',
      reason:
        'GuardDuty names the EventBridge rule it manages with this prefix; the role may touch only rules it manages.',
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.bucketLogicalId()}.Arn>/${ATTACHMENTS_PREFIX}*]`,
      reason:
        'GuardDuty reads and tags every attached file: the objects under the attachments prefix, which have no fixed names.',
    });
    return new CfnMalwareProtectionPlan(this, 'MalwareProtection', {
      role: role.roleArn,
      protectedResource: { s3Bucket: { bucketName: this.bucket.bucketName, objectPrefixes: [ATTACHMENTS_PREFIX] } },
      actions: { tagging: { status: 'ENABLED' } },
    });
  }

  private bucketLogicalId(): string {
    return Stack.of(this).resolve(Stack.of(this).getLogicalId(this.bucket.node.defaultChild as never)) as string;
  }

  /**
   * Gives the evidence functions their grants and settings, and the settings to the functions
   * that only read them (`evidenceSettingsReaders`); every other function knows nothing of the bucket.
   */
  configure(functions: Record<string, ServiceFunction>): void {
    for (const route of routes) {
      const fn = functions[route.handler];
      if (!fn || !(route.storage || evidenceSettingsReaders.includes(route.handler))) continue;
      if (route.storage) this.grant(fn, route.storage);
      for (const [name, value] of Object.entries(this.environment)) fn.function.addEnvironment(name, value);
    }
  }

  /** Grants `fn` exactly `access`: each action on its prefix's objects, nothing on the bucket itself. */
  private grant(fn: ServiceFunction, access: readonly StorageAccess[]): void {
    for (const { prefix, actions } of access) {
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...actions], resources: [`${this.bucket.bucketArn}/${prefix}*`] }),
      );
    }
    const prefixes = [...new Set(access.map((a) => a.prefix))];
    for (const prefix of prefixes) {
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.bucketLogicalId()}.Arn>/${prefix}*]`,
        reason: `Evidence objects have no fixed names: this function works on the ${prefix} prefix only (lib/http/evidence-routes.ts).`,
      });
    }
  }
}
