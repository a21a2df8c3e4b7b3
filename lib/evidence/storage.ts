import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { getConfig } from '../config';
import { HttpError } from '../errors';
import { ATTACHMENTS_PREFIX, UPLOADS_PREFIX } from '../http/evidence-routes';
import type { ScanState } from '../model/action';

/**
 * The evidence bucket (contract section 15), the one module that speaks S3: where objects live
 * (`uploads/{actionId}/{uploadId}` until attached, expired by a lifecycle rule after a day;
 * `attachments/{actionId}/{attachmentId}` once attached), presigned POSTs and GETs, and the
 * malware scanner's tag. Locally the same calls go to the local storage (`S3_ENDPOINT`).
 */

export const uploadKey = (actionId: string, uploadId: string) => `${UPLOADS_PREFIX}${actionId}/${uploadId}`;
export const attachmentKey = (actionId: string, attachmentId: string) =>
  `${ATTACHMENTS_PREFIX}${actionId}/${attachmentId}`;

/**
 * The local storage's one key pair: the local front (infra/local/storage.ts) accepts only it, and
 * it is the one account s3rver knows (a request signed with another is refused there too).
 */
export const LOCAL_STORAGE_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The tag GuardDuty Malware Protection for S3 writes on each object it scanned. */
export const SCAN_TAG = 'GuardDutyMalwareScanStatus';

/** 503 when the bucket cannot serve now (throttled, down) or the deployment has none. */
export class StorageUnavailableError extends HttpError {
  constructor(options: { cause?: unknown } = {}) {
    super(
      503,
      'Service Unavailable',
      'The file storage is busy or unreachable; retry shortly.',
      'service-unavailable',
      undefined,
      {
        'retry-after': '2',
      },
    );
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

let client: S3Client | undefined;

/** The one S3 client (exports use it too: `lib/transfer/export-storage.ts`). */
export function s3(): S3Client {
  const { region, evidence } = getConfig();
  client ??= new S3Client({
    region,
    ...(evidence.endpoint
      ? { endpoint: evidence.endpoint, forcePathStyle: true, credentials: LOCAL_STORAGE_CREDENTIALS }
      : {}),
  });
  return client;
}

export function bucket(): string {
  const name = getConfig().evidence.bucket;
  if (!name) throw new StorageUnavailableError();
  return name;
}

/** Sends a command; an outage becomes a 503 keeping the SDK's error as its cause. */
export async function send<T>(command: object): Promise<T> {
  try {
    return (await s3().send(command as never)) as T;
  } catch (error) {
    const e = error as Parameters<typeof isTransientError>[0];
    const code = (error as { code?: string }).code ?? '';
    if (
      isThrottlingError(e) ||
      isTransientError(e) ||
      isServerError(e) ||
      ['ECONNREFUSED', 'ECONNRESET'].includes(code)
    )
      throw new StorageUnavailableError({ cause: error });
    throw error;
  }
}

/** Object metadata is ASCII, and names and ids may not be: each value goes as base64url. */
export const encodeMetadata = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
export const decodeMetadata = (text: string | undefined) =>
  text === undefined ? undefined : Buffer.from(text, 'base64url').toString('utf8');

/** How long an upload's POST policy and a download's URL are valid. */
export const UPLOAD_SECONDS = 15 * 60;
export const DOWNLOAD_SECONDS = 5 * 60;

/**
 * A presigned POST for exactly one object: the policy pins the key, the content type, the exact
 * size (`content-length-range` of one value) and the metadata the attach call reads back, so
 * storage refuses anything else.
 */
export async function presignUpload(
  key: string,
  file: { contentType: string; size: number; metadata: Record<string, string> },
  expiresInSeconds = UPLOAD_SECONDS,
) {
  const fields = {
    'Content-Type': file.contentType,
    ...Object.fromEntries(Object.entries(file.metadata).map(([k, v]) => [`x-amz-meta-${k}`, v])),
  };
  return createPresignedPost(s3(), {
    Bucket: bucket(),
    Key: key,
    Fields: fields,
    Conditions: [['content-length-range', file.size, file.size]],
    Expires: expiresInSeconds,
  });
}

export interface StoredObject {
  contentType?: string;
  size?: number;
  metadata: Record<string, string>;
}

/** The object's type, size and metadata, or `undefined` when there is none. */
export async function headObject(key: string): Promise<StoredObject | undefined> {
  try {
    const head = await send<{ ContentType?: string; ContentLength?: number; Metadata?: Record<string, string> }>(
      new HeadObjectCommand({ Bucket: bucket(), Key: key }),
    );
    return { contentType: head.ContentType, size: head.ContentLength, metadata: head.Metadata ?? {} };
  } catch (error) {
    if (error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404))
      return undefined;
    throw error;
  }
}

/** The first `count` bytes of an object (a ranged GET), fewer when it is shorter. */
export async function firstBytes(key: string, count: number): Promise<Uint8Array> {
  const object = await send<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>(
    new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${count - 1}` }),
  );
  return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
}

/** Moves an upload to its place as an attachment, out of the prefix the lifecycle rule expires. */
export async function moveObject(from: string, to: string): Promise<void> {
  const name = bucket();
  await send(
    new CopyObjectCommand({
      Bucket: name,
      Key: to,
      CopySource: `${name}/${from.split('/').map(encodeURIComponent).join('/')}`,
      // The copy is scanned afresh; tags (a scan result of the upload) are not carried over.
      TaggingDirective: 'REPLACE',
      MetadataDirective: 'COPY',
    }),
  );
  await deleteObject(from);
}

/** Deletes an object; one that is already gone is no error (S3 answers 204 either way). */
export async function deleteObject(key: string): Promise<void> {
  await send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

/** An object's bytes as they stream in (an import reads its file this way, never whole). */
export async function readObject(key: string): Promise<AsyncIterable<Uint8Array>> {
  const answer = await send<{ Body?: AsyncIterable<Uint8Array> }>(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if (!answer.Body) throw new Error(`storage answered no body for ${key}`);
  return answer.Body;
}

/** Writes a whole object (an import's problem report: far smaller than the file it reports on). */
export async function writeObject(key: string, body: string, contentType: string): Promise<void> {
  await send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body, ContentType: contentType }));
}

/** A presigned GET valid `DOWNLOAD_SECONDS`, answering with this type and disposition. */
export const presignDownload = (key: string, contentType: string, disposition: string): Promise<string> =>
  getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: disposition,
    }),
    { expiresIn: DOWNLOAD_SECONDS },
  );

/**
 * The scanner's verdict on an object: `not-scanned` where no scanner runs; otherwise `pending`
 * until its tag is written, `clean` for NO_THREATS_FOUND, `threat` for THREATS_FOUND, and
 * `pending` for the results that are no verdict (unsupported, access denied, failed).
 */
export async function scanStateOf(key: string): Promise<ScanState> {
  if (!getConfig().evidence.malwareScan) return 'not-scanned';
  const tagging = await send<{ TagSet?: Array<{ Key?: string; Value?: string }> }>(
    new GetObjectTaggingCommand({ Bucket: bucket(), Key: key }),
  );
  const status = tagging.TagSet?.find((t) => t.Key === SCAN_TAG)?.Value;
  if (status === 'NO_THREATS_FOUND') return 'clean';
  if (status === 'THREATS_FOUND') return 'threat';
  return 'pending';
}
