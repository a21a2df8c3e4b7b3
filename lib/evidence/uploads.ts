import { randomUUID } from 'node:crypto';
import { getConfig } from '../config';
import { nowIso } from '../dates';
import { ConflictError, ForbiddenError, noSuchAction, ValidationError } from '../errors';
import { logger } from '../logger';
import { type Rights, rightsOver, type Viewer } from '../model/access';
import { type Action, actionLimits, type Person, type UploadedAttachment } from '../model/action';
import { ContentMismatchError, SIGNATURE_BYTES, signatureMatches, uploadsOf } from '../model/evidence';
import { attachRequestSchema, uploadRequestSchema } from '../model/evidence-requests';
import { validateBody } from '../model/validate-body';
import { mutate } from '../store/actions/writes';
import { visibleAction } from './evidence';
import {
  attachmentKey,
  decodeMetadata,
  deleteObject,
  encodeMetadata,
  firstBytes,
  headObject,
  moveObject,
  presignUpload,
  scanStateOf,
  UPLOAD_SECONDS,
  uploadKey,
} from './storage';

/**
 * Adding files to an action (contract section 15): an upload goes straight to storage through a
 * presigned POST; attaching it checks the stored object and records it on the action with its
 * history entry in one transaction. Both validate a body, so both carry zod; the handlers that
 * download or remove a file (`evidence.ts`) do not.
 */

const ADD_REFUSAL = 'You may not add files to this action.';

/** What the guard of an attach asks: the right to comment (section 15: whoever may comment may add files). */
const commentRefusal = (rights: Rights) => (rights.comment ? undefined : ADD_REFUSAL);

function mayComment(viewer: Viewer, action: Action): void {
  if (!rightsOver(viewer, action).see) throw noSuchAction(action.id);
  if (!rightsOver(viewer, action).comment) throw new ForbiddenError(ADD_REFUSAL);
}

const tooMany = () =>
  new ConflictError(
    `An action holds at most ${actionLimits.attachments} attachments (links and files); remove one first.`,
  );

export interface Upload {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

/** `POST /api/actions/{id}/uploads`: a presigned POST for one file of the declared type and exact size. */
export async function createUpload(viewer: Viewer, caller: Person, actionId: string, body: unknown): Promise<Upload> {
  const settings = getConfig().evidence;
  const request = validateBody(uploadRequestSchema(settings), body);
  const action = await visibleAction(viewer, actionId);
  mayComment(viewer, action);
  if (action.attachments.length >= actionLimits.attachments) throw tooMany();
  const uploadId = randomUUID();
  const expiresAt = new Date(Date.now() + UPLOAD_SECONDS * 1000);
  const { url, fields } = await presignUpload(uploadKey(actionId, uploadId), {
    contentType: request.contentType,
    size: request.size,
    metadata: { name: encodeMetadata(request.name), uploader: encodeMetadata(caller.id), size: String(request.size) },
  });
  return { uploadId, url, fields, expiresAt: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

const noSuchUpload = () =>
  new ValidationError([
    {
      field: 'uploadId',
      message: 'names no file you uploaded to this action (an upload never attached is deleted within a day)',
    },
  ]);

/**
 * `POST /api/actions/{id}/attachments`: checks the stored object (there, uploaded by the caller
 * for this action, of the declared size and an allowed type), moves it out of the uploads'
 * prefix, then records it with its `attachment-added` entry in one transaction. `created` is
 * false when the upload was already attached (a retry): the attachment as it is.
 */
export async function attachUpload(
  viewer: Viewer,
  caller: Person,
  actionId: string,
  body: unknown,
): Promise<{ attachment: UploadedAttachment; created: boolean }> {
  const { uploadId } = validateBody(attachRequestSchema, body);
  const action = await visibleAction(viewer, actionId);
  mayComment(viewer, action);
  const attached = uploadsOf(action).find((a) => a.id === uploadId);
  if (attached) return { attachment: attached, created: false };
  if (action.attachments.length >= actionLimits.attachments) throw tooMany();

  const from = uploadKey(actionId, uploadId);
  const to = attachmentKey(actionId, uploadId);
  // An attach cut off after its move (a crash, a timeout) left the file under attachments/ and no
  // record of it: the same call again finds it there and records it, so a retry ends the orphan.
  const upload = await headObject(from);
  const stored = upload ?? (await headObject(to));
  if (!stored || decodeMetadata(stored.metadata.uploader) !== caller.id) throw noSuchUpload();
  const { types } = getConfig().evidence;
  const declaredSize = Number(stored.metadata.size);
  const name = decodeMetadata(stored.metadata.name) ?? '';
  // The policy pinned both; checked again here, so storage's word is never the only one.
  if (stored.size !== declaredSize || !stored.contentType || !types.includes(stored.contentType) || name === '') {
    await deleteObject(upload ? from : to);
    throw new ValidationError([
      { field: 'uploadId', message: 'the stored file is not the one declared; upload it again' },
    ]);
  }
  // S3 keeps whatever bytes came with the type it was told: the first bytes must be that type's.
  if (!signatureMatches(stored.contentType, await firstBytes(upload ? from : to, SIGNATURE_BYTES))) {
    await deleteObject(upload ? from : to);
    throw new ContentMismatchError(stored.contentType);
  }
  if (upload) await moveObject(from, to);
  const attachment: UploadedAttachment = {
    id: uploadId,
    name,
    contentType: stored.contentType,
    size: declaredSize,
    uploadedBy: caller,
    uploadedAt: '',
    scan: await scanStateOf(to),
  };
  try {
    await mutate(actionId, { caller, viewer, social: true, refuses: commentRefusal }, nowIso, (current, stamp) => {
      if (current.attachments.length >= actionLimits.attachments) throw tooMany();
      attachment.uploadedAt = stamp;
      return {
        next: { ...current, attachments: [...current.attachments, { ...attachment }] },
        entry: {
          type: 'attachment-added',
          attachment: { id: uploadId, name, contentType: attachment.contentType, size: declaredSize },
        },
      };
    });
  } catch (error) {
    // Not recorded: the moved file would belong to nothing (the lifecycle rule no longer sees it).
    await deleteObject(to).catch((cause: unknown) =>
      logger.warn('orphaned attachment not deleted', { key: to, cause: String(cause) }),
    );
    throw error;
  }
  return { attachment, created: true };
}
