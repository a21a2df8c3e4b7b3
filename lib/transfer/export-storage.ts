import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { bucket, presignDownload, send } from '../evidence/storage';
import { EXPORTS_PREFIX } from '../http/export-routes';

/**
 * An export's file in the bucket, under its own prefix (`exports/<owner>/<id>.<format>`, expired
 * after 7 days by a lifecycle rule), written by S3 multipart upload with the commands themselves:
 * the run keeps the upload id and each part's ETag in the export's record, so a run that ends or
 * fails leaves an upload the next run continues (`@aws-sdk/lib-storage`'s `Upload` keeps that
 * state inside one process, so it cannot resume).
 */

/** Each format's media type, stored with the file and answered with its download. */
export const EXPORT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const exportKey = (ownerId: string, id: string, format: string) =>
  `${EXPORTS_PREFIX}${encodeURIComponent(ownerId)}/${id}.${format}`;

export async function startUpload(key: string, contentType: string): Promise<string> {
  const started = await send<{ UploadId?: string }>(
    new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: contentType }),
  );
  if (!started.UploadId) throw new Error('the storage started an upload without an id');
  return started.UploadId;
}

export async function uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
  const stored = await send<{ ETag?: string }>(
    new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body }),
  );
  if (!stored.ETag) throw new Error('the storage stored a part without an ETag');
  return stored.ETag;
}

export async function completeUpload(
  key: string,
  uploadId: string,
  parts: Array<{ PartNumber: number; ETag: string }>,
): Promise<void> {
  await send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket(),
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: parts },
    }),
  );
}

/** Gives up an upload (its parts are deleted); one already gone is no error. */
export async function abortUpload(key: string, uploadId: string): Promise<void> {
  await send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId: uploadId })).catch(
    () => undefined,
  );
}

/** A presigned GET valid 5 minutes, naming the file `filename` for the browser. */
export const fileUrl = (key: string, contentType: string, filename: string): Promise<string> =>
  presignDownload(key, contentType, `attachment; filename="${filename}"`);
