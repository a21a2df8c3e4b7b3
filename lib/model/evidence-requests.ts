import * as z from 'zod';
import { actionLimits } from './action';
import type { EvidenceSettings } from './evidence';
import { oneLine } from './validate-body';

/**
 * The bodies of the evidence requests that send one (contract section 15): an upload's and an
 * attach's. Apart from `evidence.ts` so that only what validates one of them (creating an
 * upload, attaching it, and the import upload, which shares the upload's shape) carries zod.
 */

/** The body of `POST /api/actions/{id}/uploads`, against the deployment's types and size. */
export const uploadRequestSchema = (settings: Pick<EvidenceSettings, 'types' | 'maxBytes'>) =>
  z.strictObject({
    name: oneLine(
      z
        .string()
        .min(1, 'must not be empty')
        .max(actionLimits.shortText, `must be at most ${actionLimits.shortText} characters`)
        .refine((s) => s.trim() !== '', 'must not be only white space'),
    ),
    contentType: z.string().refine((t) => settings.types.includes(t), `must be one of ${settings.types.join(', ')}`),
    size: z
      .number()
      .int('must be a whole number of bytes')
      .min(1, 'must be at least 1 byte')
      .max(settings.maxBytes, `must be at most ${settings.maxBytes} bytes`),
  });

export const attachRequestSchema = z.strictObject({
  uploadId: z.string().regex(/^[0-9a-f-]{36}$/, 'must be an uploadId as POST .../uploads returned it'),
});
