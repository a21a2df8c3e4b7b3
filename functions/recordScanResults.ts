import middy from '@middy/core';
import { recordScanResult, type ScanResultEvent } from '../lib/evidence/scan-results';
import { logger } from '../lib/logger';

/**
 * GuardDuty Malware Protection's "Object Scan Result" for an attached file (a rule on the
 * account's default bus): records the verdict on the attachment. A failure is thrown, so
 * EventBridge invokes it again (the rule's retries); recording a verdict twice changes nothing.
 */
export const handler = middy<ScanResultEvent, void>().handler(async (event) => {
  const outcome = await recordScanResult(event);
  logger.info('malware scan result', {
    outcome,
    key: event.detail?.s3ObjectDetails?.objectKey,
    result: event.detail?.scanResultDetails?.scanResultStatus,
  });
});
