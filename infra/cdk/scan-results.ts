import { Duration } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { SCAN_RESULT_DETAIL_TYPE } from '../../lib/evidence/scan-results';
import { ATTACHMENTS_PREFIX } from '../../lib/http/evidence-routes';
import { scanResultFunction } from '../../lib/http/routes';
import type { HandlerFunction, ServiceFunction } from './service-function';

/**
 * GuardDuty's malware scan results for the evidence bucket's attached files (contract section
 * 15), from the account's default bus (where GuardDuty publishes them), to the function that
 * records each verdict on its attachment. A failed run is retried by EventBridge for up to a day;
 * its errors raise the function's alarm like any other's. Only with a malware protection plan
 * (`infra/cdk/evidence.ts`). Built in the service's own scope, so its logical IDs are the ones a
 * deployed stack has (see `infra/cdk/api.ts`).
 */

export interface ScanResultsProps {
  /** The evidence bucket GuardDuty scans. */
  readonly bucket: IBucket;
  /** Makes recordScanResults with the service's environment and its table calls. */
  readonly handlerFunction: HandlerFunction;
}

export class ScanResults {
  /** recordScanResults. */
  readonly function: ServiceFunction;

  constructor(scope: Construct, props: ScanResultsProps) {
    const { bucket } = props;
    this.function = props.handlerFunction(scanResultFunction.handler, scanResultFunction.access);
    this.function.function.addEnvironment('EVIDENCE_BUCKET', bucket.bucketName);
    new Rule(scope, 'ScanResults', {
      description: "GuardDuty's malware scan results for attached files, recorded on their attachments",
      eventPattern: {
        source: ['aws.guardduty'],
        detailType: [SCAN_RESULT_DETAIL_TYPE],
        detail: { s3ObjectDetails: { bucketName: [bucket.bucketName], objectKey: [{ prefix: ATTACHMENTS_PREFIX }] } },
      },
      targets: [new LambdaFunction(this.function.function, { retryAttempts: 20, maxEventAge: Duration.hours(24) })],
    });
  }
}
