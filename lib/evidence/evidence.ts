import { getConfig } from '../config';
import { nowIso } from '../dates';
import { ConflictError, clip, NotFoundError, noSuchAction } from '../errors';
import { type Rights, rightsOver, type Viewer } from '../model/access';
import type { Action, Person, UploadedAttachment } from '../model/action';
import { dispositionOf, keepEvidence, uploadsOf } from '../model/evidence';
import { getAction as getStored, mutate } from '../store/actions/writes';
import { attachmentKey, deleteObject, presignDownload, scanStateOf } from './storage';

/**
 * Evidence on an action (contract section 15): an upload goes straight to storage through a
 * presigned POST; attaching it checks the stored object and records it on the action with its
 * history entry in one transaction; downloads are short presigned GETs; removal deletes the
 * object. Who may do what is `rightsOver` (section 14): `see` to read, `comment` to upload and
 * attach, the uploader or `removeAnyAttachment` to remove. Uploading and attaching, which
 * validate a body (and so carry zod), are in `uploads.ts`; downloads and removal are here.
 */

/** The action as `viewer` may know it: a 404 when they cannot see it, as for an id that never existed. */
export async function visibleAction(viewer: Viewer, actionId: string): Promise<Action> {
  const action = await getStored(actionId);
  if (!action || !rightsOver(viewer, action).see) throw noSuchAction(actionId);
  return action;
}

const noSuchAttachment = (id: string) => new NotFoundError(`This action has no attachment with the id '${clip(id)}'.`);

function uploadedOn(action: Action, attachmentId: string): UploadedAttachment {
  const attachment = uploadsOf(action).find((a) => a.id === attachmentId);
  if (!attachment) throw noSuchAttachment(attachmentId);
  return attachment;
}

/** 409: the file is not served (yet, or ever). */
class NotServedError extends ConflictError {}

/**
 * `GET /api/actions/{id}/attachments/{attachmentId}`: a presigned GET valid 5 minutes, for those
 * who see the action, once the scanner (where one runs) has found no threat.
 */
export async function downloadUrl(viewer: Viewer, actionId: string, attachmentId: string): Promise<string> {
  const action = await visibleAction(viewer, actionId);
  const attachment = uploadedOn(action, attachmentId);
  const key = attachmentKey(actionId, attachmentId);
  const { malwareScan, serveUnscanned } = getConfig().evidence;
  const scan = attachment.scan === 'clean' || attachment.scan === 'threat' ? attachment.scan : await scanStateOf(key);
  if (scan === 'threat') throw new NotServedError('The malware scan found a threat in this file; it is never served.');
  if (scan === 'pending')
    throw new NotServedError('This file is still being scanned for malware; try again in a minute.');
  if (scan === 'not-scanned' && !(serveUnscanned && !malwareScan))
    throw new NotServedError('This deployment serves only files scanned for malware, and this one was not.');
  return presignDownload(key, attachment.contentType, dispositionOf(attachment));
}

/**
 * `DELETE /api/actions/{id}/attachments/{attachmentId}`: the uploader, or whoever may remove any
 * (the owner, a manager). The entry and the removal are one transaction; the object goes after it.
 */
export async function removeAttachment(
  viewer: Viewer,
  caller: Person,
  actionId: string,
  attachmentId: string,
): Promise<void> {
  const refuses = (rights: Rights, current: Action) => {
    const attachment = uploadedOn(current, attachmentId);
    return attachment.uploadedBy.id !== caller.id && !rights.removeAnyAttachment
      ? "Only the file's uploader, the action's owner or a manager may remove it."
      : undefined;
  };
  await mutate(actionId, { caller, viewer, social: true, refuses }, nowIso, (current) => {
    const attachment = uploadedOn(current, attachmentId);
    const { id, name, contentType, size } = attachment;
    const next = { ...current, attachments: current.attachments.filter((a) => !('id' in a && a.id === attachmentId)) };
    // A status that needs evidence keeps it: its last uploaded file stays until the status changes.
    keepEvidence(next, getConfig().evidence.requiredStatuses);
    return {
      next,
      entry: { type: 'attachment-removed', attachment: { id, name, contentType, size } },
    };
  });
  await deleteObject(attachmentKey(actionId, attachmentId));
}
