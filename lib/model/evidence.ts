import { HttpError } from '../errors';
import type { Action, Attachment, UploadedAttachment } from './action';

/**
 * Evidence (contract section 15): files uploaded straight to storage and then attached to an
 * action, beside the link attachments a client sends on create or PATCH. Pure: what an upload
 * request may ask, what an uploaded attachment holds, how it is served, and the rule that a
 * status may need evidence. The use cases are in `lib/evidence/`; the request bodies' schemas are
 * in `evidence-requests.ts`, which only the two that validate one import (they carry zod).
 */

/** The deployment's evidence settings (`lib/config.ts` reads them). */
export interface EvidenceSettings {
  /** `EVIDENCE_BUCKET`; unset: no uploads (503). */
  bucket?: string;
  /** `S3_ENDPOINT`: the local storage; unset in AWS. */
  endpoint?: string;
  /** `ATTACHMENT_TYPES`: the media types an upload may have. */
  types: string[];
  /** `ATTACHMENT_MAX_BYTES`: the largest upload. */
  maxBytes: number;
  /** `EVIDENCE_REQUIRED_STATUSES`: statuses an action may move to only with an uploaded attachment. */
  requiredStatuses: number[];
  /** `MALWARE_SCAN`: a scanner (GuardDuty) tags every object with its result. */
  malwareScan: boolean;
  /** `SERVE_UNSCANNED`: where no scanner runs, whether files are served. */
  serveUnscanned: boolean;
}

/** Whether an attachment is an uploaded file (not a link). */
export const isUploaded = (attachment: Attachment | UploadedAttachment): attachment is UploadedAttachment =>
  'id' in attachment && typeof attachment.id === 'string';

export const uploadsOf = (action: Pick<Action, 'attachments'>): UploadedAttachment[] =>
  action.attachments.filter(isUploaded);

/**
 * The attachments after a PATCH or create that sends `attachments`: the links it sends, with the
 * uploaded files kept (they come and go only through the attachment routes, which also delete
 * the stored object, so a PATCH can neither forge nor orphan one).
 */
export const withLinks = (current: Action['attachments'], links: readonly Attachment[]): Action['attachments'] => [
  ...current.filter(isUploaded),
  ...links,
];

/**
 * `Content-Disposition` for a download: images may show in the page, every other type is saved
 * as a file; the name is given as RFC 6266 asks (an ASCII fallback and the UTF-8 `filename*`).
 */
export function dispositionOf(attachment: Pick<UploadedAttachment, 'name' | 'contentType'>): string {
  const kind = attachment.contentType.startsWith('image/') ? 'inline' : 'attachment';
  const name = fileNameOf(attachment.name);
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRFC5987(name)}`;
}

/**
 * A name as a saved file's: no path (separators, `/` and `\` and their look-alikes, become `_`)
 * and no leading dots, so `../../.bashrc` saves as `_.._.bashrc` in the download folder, not
 * above it nor hidden in it.
 */
function fileNameOf(name: string): string {
  const flat = name.replace(/[/\\\u2044\u2215\u29f8\uff0f\uff3c]/g, '_').replace(/^\.+/, '');
  return flat === '' ? 'file' : flat;
}

const encodeRFC5987 = (text: string): string =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** 409 naming `attachments`: the status asked for needs an uploaded file first. */
export class EvidenceRequiredError extends HttpError {
  constructor(status: number) {
    super(
      409,
      'Conflict',
      `Status ${status} needs evidence: attach an uploaded file (POST .../uploads, then .../attachments) first.`,
      'evidence-required',
      [{ field: 'attachments', message: `status ${status} needs at least one uploaded attachment` }],
    );
  }
}

/** Refuses a change into a status that needs evidence when the action has no uploaded file. */
export function requireEvidence(before: Action, after: Action, requiredStatuses: readonly number[]): void {
  if (after.status === before.status || !requiredStatuses.includes(after.status)) return;
  if (uploadsOf(after).length === 0) throw new EvidenceRequiredError(after.status);
}

/** How many first bytes of a file `signatureMatches` reads. */
export const SIGNATURE_BYTES = 32;

/** An uploadId as the upload calls answer it (a UUID): what an attach or an import must name. */
export const UPLOAD_ID = /^[0-9a-f-]{36}$/;

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** The ISO base media brands of HEIC/HEIF stills and sequences. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'heif']);

/**
 * The file signatures (magic numbers) of the types a deployment may allow, each a test of a
 * file's first bytes: S3 stores whatever bytes come with a content type it was told, and cannot
 * send `nosniff`, so the attach call checks the bytes are what the type claims.
 */
const signatures: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (h) => startsWith(h, [0xff, 0xd8, 0xff]),
  'image/webp': (h) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 12) === 'WEBP',
  'image/heic': (h) => ascii(h, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(h, 8, 12)),
  'image/heif': (h) => ascii(h, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(h, 8, 12)),
  'application/pdf': (h) => ascii(h, 0, 5) === '%PDF-',
};

/**
 * Whether a file's first bytes carry the signature of its declared type; a type the service
 * knows no signature of (one a deployment added to `ATTACHMENT_TYPES`) is taken at its word.
 */
export function signatureMatches(contentType: string, head: Uint8Array): boolean {
  const test = signatures[contentType];
  return test === undefined || test(head);
}

/** 409 naming `contentType`: the stored bytes are not a file of the declared type. */
export class ContentMismatchError extends HttpError {
  constructor(contentType: string) {
    super(
      409,
      'Conflict',
      `The uploaded file is not a ${contentType} file (its first bytes are not that type's signature); upload the file again with its own type.`,
      'content-mismatch',
      [{ field: 'contentType', message: `the stored bytes are not ${contentType}` }],
    );
  }
}

/** 409 naming `attachments`: removing the last uploaded file of an action whose status needs one. */
export class EvidenceStillNeededError extends HttpError {
  constructor(status: number) {
    super(
      409,
      'Conflict',
      `Status ${status} needs evidence and this is the action's last uploaded file: add another first, or change the status.`,
      'evidence-required',
      [{ field: 'attachments', message: `status ${status} needs at least one uploaded attachment` }],
    );
  }
}

/** Refuses removing the last uploaded file of an action whose status needs evidence (section 15). */
export function keepEvidence(after: Action, requiredStatuses: readonly number[]): void {
  if (requiredStatuses.includes(after.status) && uploadsOf(after).length === 0)
    throw new EvidenceStillNeededError(after.status);
}
