import * as z from 'zod/mini';
import { actionLimits } from './action';
import { type EvidenceSettings, UPLOAD_ID } from './evidence';
import { ONE_LINE } from './validate-body';

/**
 * The bodies of the evidence requests that send one (contract section 15): an upload's and an
 * attach's. Apart from `evidence.ts` so that only what validates one of them (creating an
 * upload, attaching it, and the import upload, which shares the upload's shape) carries zod.
 * In `zod/mini` (the same engine and issues as the classic API, without its methods): these
 * functions also carry the S3 client, and mini's 13 KB instead of classic's 85 KB keeps two of
 * them under 400 KB (docs/bundles.md).
 */

/** The body of `POST /api/actions/{id}/uploads`, against the deployment's types and size. */
export const uploadRequestSchema = (settings: Pick<EvidenceSettings, 'types' | 'maxBytes'>) =>
  z.strictObject({
    name: z.string().check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(actionLimits.shortText, `must be at most ${actionLimits.shortText} characters`),
      z.refine((s) => s.trim() !== '', 'must not be only white space'),
      z.refine(ONE_LINE.test, ONE_LINE.message),
    ),
    contentType: z
      .string()
      .check(z.refine((t) => settings.types.includes(t), `must be one of ${settings.types.join(', ')}`)),
    size: z
      .number()
      .check(
        z.int(),
        z.minimum(1, 'must be at least 1 byte'),
        z.maximum(settings.maxBytes, `must be at most ${settings.maxBytes} bytes`),
      ),
  });

export const attachRequestSchema = z.strictObject({
  uploadId: z.string().check(z.regex(UPLOAD_ID, 'must be an uploadId as POST .../uploads returned it')),
});
