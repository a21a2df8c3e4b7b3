import { getConfig } from '../config';
import { nowIso } from '../dates';
import { NotFoundError } from '../errors';
import { ATTACHMENTS_PREFIX } from '../http/evidence-routes';
import { openViewer } from '../model/access';
import type { ScanState } from '../model/action';
import { uploadsOf } from '../model/evidence';
import { SYSTEM_ACTOR } from '../model/reminders';
import { mutate } from '../store/actions/writes';

/**
 * GuardDuty Malware Protection for S3 publishes one "Object Scan Result" event on the account's
 * default bus for each object it scanned (a rule sends those of the evidence bucket's attached
 * files here). The verdict is recorded on the attachment, so the action shows `scan: "clean"` or
 * `"threat"` instead of `"pending"`, with an `attachment-scanned` history entry by the service
 * (event ActionAttachmentScanned); its `updatedAt` stays the last person's change, as a reminder's does.
 *
 * The event's own verdict is used, not the object's tag: GuardDuty publishes the event and tags
 * the object independently, so the tag may not be written yet when the event arrives (and
 * downloads read the tag themselves while an attachment is `pending`). Only AWS puts `aws.*`
 * events on a bus, and the rule matches only this bucket, so the event is GuardDuty's word.
 */

/** The fields of GuardDuty's event this reads; everything else in it is ignored. */
export interface ScanResultEvent {
  'detail-type'?: string;
  source?: string;
  detail?: {
    scanStatus?: string;
    s3ObjectDetails?: { bucketName?: string; objectKey?: string };
    scanResultDetails?: { scanResultStatus?: string };
  };
}

export const SCAN_RESULT_DETAIL_TYPE = 'GuardDuty Malware Protection Object Scan Result';

/** What became of one event: recorded, already recorded, or not about an attachment of ours. */
export type ScanOutcome = 'recorded' | 'unchanged' | 'ignored';

/** GuardDuty's result statuses that are a verdict; the others (unsupported, access denied, failed) are none. */
const VERDICTS: Record<string, Extract<ScanState, 'clean' | 'threat'>> = {
  NO_THREATS_FOUND: 'clean',
  THREATS_FOUND: 'threat',
};

/** `attachments/{actionId}/{attachmentId}` to its two ids, or `undefined` for any other key. */
function attachmentOfKey(key: string): { actionId: string; attachmentId: string } | undefined {
  if (!key.startsWith(ATTACHMENTS_PREFIX)) return undefined;
  const parts = key.slice(ATTACHMENTS_PREFIX.length).split('/');
  const [actionId, attachmentId] = parts;
  return parts.length === 2 && actionId && attachmentId ? { actionId, attachmentId } : undefined;
}

export async function recordScanResult(event: ScanResultEvent): Promise<ScanOutcome> {
  const object = event.detail?.s3ObjectDetails;
  const verdict = VERDICTS[event.detail?.scanResultDetails?.scanResultStatus ?? ''];
  const ids = attachmentOfKey(object?.objectKey ?? '');
  if (!verdict || !ids || object?.bucketName !== getConfig().evidence.bucket) return 'ignored';
  try {
    const result = await mutate(
      ids.actionId,
      { caller: SYSTEM_ACTOR, viewer: openViewer(SYSTEM_ACTOR) },
      nowIso,
      (current) => {
        const attachment = uploadsOf(current).find((a) => a.id === ids.attachmentId);
        // Removed since (its object went with it), or this verdict already recorded (a redelivery).
        if (!attachment || attachment.scan === verdict) return undefined;
        const { id, name, contentType, size } = attachment;
        return {
          next: {
            ...current,
            attachments: current.attachments.map((a) => (a === attachment ? { ...attachment, scan: verdict } : a)),
          },
          entry: { type: 'attachment-scanned', attachment: { id, name, contentType, size, scan: verdict } },
          keepUpdatedAt: true,
        };
      },
    );
    return result.entry ? 'recorded' : 'unchanged';
  } catch (error) {
    // The action was deleted since: its files went with it.
    if (error instanceof NotFoundError) return 'ignored';
    throw error;
  }
}
