import * as z from 'zod';
import type { RouteDefinition } from '../http/routes';
import { actionLimits } from '../model/action';
import { UPLOAD_ID } from '../model/evidence';
import { jsonBody, type Operation, problems } from './components';
import { uploadedAttachmentSchema } from './view-schemas';

/** The evidence routes of the OpenAPI document (contract section 15), registered from `openapi.ts`. */

const ids = z.object({
  id: z.string().openapi({ description: 'The action id' }),
  attachmentId: z.string().openapi({ description: "The uploaded attachment's id" }),
});
const idOnly = ids.pick({ id: true });

const attachRequest = z.strictObject({
  uploadId: z.string().regex(UPLOAD_ID).openapi({ description: 'As POST .../uploads answered it' }),
});

/** Documented by the settings' defaults; the deployment's are what it checks. */
const uploadRequest = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(actionLimits.shortText)
    .openapi({ description: 'The file name to show and download as; one line' }),
  contentType: z.string().openapi({
    description: 'One of ATTACHMENT_TYPES (default image/jpeg, image/png, image/webp, image/heic, application/pdf)',
    example: 'image/jpeg',
  }),
  size: z
    .number()
    .int()
    .min(1)
    .openapi({ description: 'The exact size in bytes, at most ATTACHMENT_MAX_BYTES (default 26214400)' }),
});

const upload = z
  .object({
    uploadId: z.string().openapi({ description: 'Send it to POST .../attachments once the file is stored' }),
    url: z.string().openapi({ description: 'Where to POST the file (multipart/form-data)' }),
    fields: z.record(z.string(), z.string()).openapi({
      description: 'Every one goes into the form, as given, before the `file` part (which comes last)',
    }),
    expiresAt: z.string().openapi({ description: 'The policy is valid until then (15 minutes)' }),
  })
  .openapi('Upload');

export const evidenceTag = {
  name: 'Evidence',
  description: 'Photos and files on an action: uploaded straight to storage, attached, read and removed.',
} as const;

/** The types documented for a download: the default ATTACHMENT_TYPES (a deployment's own are what it stores). */
const STORED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'] as const;

/** The operations, by handler. */
export const evidenceOperations = {
  createUpload: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Start an upload',
    description:
      'Whoever may comment on the action. Answers an S3 presigned POST valid 15 minutes whose policy pins the object key, the content type and the exact size, so storage refuses any other file (403 or 400 from storage, as S3 words it). POST the form to `url` with every one of `fields` and the file last as `file`; then attach it with POST .../attachments. A type or size outside the settings is a 400; an action with 50 attachments a 409.',
    request: { params: idOnly, body: jsonBody(uploadRequest) },
    responses: {
      201: { description: 'The presigned POST', content: { 'application/json': { schema: upload } } },
      ...problems(400, 401, 403, 404, 409, 413, 415, 503),
    },
  }),
  attachUpload: (r: RouteDefinition): Operation => ({
    method: 'post',
    path: r.path,
    summary: 'Attach an uploaded file',
    description:
      "The uploader, who may still comment. Checks the stored object (there, its size and type the ones declared, and its first bytes the signature of that type for PNG, JPEG, WebP, HEIC and PDF: a 409 naming contentType otherwise, the file deleted) and adds it to the action's attachments with a history entry `attachment-added` (event ActionAttachmentAdded) in one transaction; moves the action's version. An uploadId already attached answers 200 with it. A file never attached is deleted within a day.",
    request: { params: idOnly, body: jsonBody(attachRequest) },
    responses: {
      201: {
        description: 'The attachment; Location is where to read it',
        content: { 'application/json': { schema: uploadedAttachmentSchema } },
      },
      200: {
        description: 'Already attached: the attachment',
        content: { 'application/json': { schema: uploadedAttachmentSchema } },
      },
      ...problems(400, 401, 403, 404, 409, 413, 415, 503),
    },
  }),
  getAttachment: (r: RouteDefinition): Operation => ({
    method: 'get',
    path: r.path,
    summary: 'Read an uploaded file',
    description:
      'Whoever sees the action. A 302 to a presigned GET valid 5 minutes, with the stored content type and a Content-Disposition naming the file (inline for images, attachment otherwise). A 409 while the malware scan is pending, for a file it found a threat in (never served), and for an unscanned file where the deployment serves only scanned ones.',
    request: { params: ids },
    responses: {
      // A client that follows the redirect (as browsers and most HTTP clients do) ends with storage's 200.
      200: {
        description:
          'The file itself, for a client that follows the redirect: answered by storage, with the stored content type, a Content-Disposition naming the file (no path in the name) and X-Content-Type-Options: nosniff where storage sends it',
        content: Object.fromEntries(
          STORED_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }] as const),
        ),
      },
      302: {
        description: 'Location: the presigned GET',
        headers: { location: { schema: { type: 'string' }, description: 'The presigned GET (5 minutes)' } },
      },
      ...problems(401, 404, 409, 503),
    },
  }),
  deleteAttachment: (r: RouteDefinition): Operation => ({
    method: 'delete',
    path: r.path,
    summary: 'Remove an uploaded file',
    description:
      "The uploader, the action's owner or a manager. Removes it with a history entry `attachment-removed` (event ActionAttachmentRemoved), then deletes the stored object. A 409 naming attachments for the last uploaded file of an action whose status needs evidence (EVIDENCE_REQUIRED_STATUSES).",
    request: { params: ids },
    responses: { 204: { description: 'Removed' }, ...problems(401, 403, 404, 409, 503) },
  }),
};

/** The group of each operation here. */
export const evidenceTags = {
  createUpload: evidenceTag.name,
  attachUpload: evidenceTag.name,
  getAttachment: evidenceTag.name,
  deleteAttachment: evidenceTag.name,
} as const;
