/**
 * The export settings of the configuration (read by `lib/config.ts`, the one reader of the
 * environment, which hands this its reader).
 */
export interface ExportSettings {
  /**
   * `EXPORT_PART_BYTES`: a part is stored once it holds at least this many bytes (default 8 MiB).
   * S3 refuses parts under 5 MiB but the last, so a deployment keeps it there; tests shrink it.
   */
  partBytes: number;
  /** `EXPORT_SLICE_SECONDS`: how long one run writes before it hands the export on (default 600). */
  sliceSeconds: number;
  /**
   * `EXPORT_QUEUE`: `local` (the local stack's queue in this process); unset: the event bus,
   * whose rule feeds the export queue in AWS.
   */
  queue: 'bus' | 'local';
}

export function exportSettings(read: (name: string) => string | undefined): ExportSettings {
  const partBytes = Number(read('EXPORT_PART_BYTES') ?? 8 * 1024 * 1024);
  if (!Number.isSafeInteger(partBytes) || partBytes < 1 || partBytes > 5 * 1024 ** 3)
    throw new Error('EXPORT_PART_BYTES must be a whole number of bytes from 1 to 5 GiB (S3 needs 5 MiB or more)');
  const sliceSeconds = Number(read('EXPORT_SLICE_SECONDS') ?? 600);
  if (!Number.isFinite(sliceSeconds) || sliceSeconds < 0)
    throw new Error('EXPORT_SLICE_SECONDS must be a number of seconds, 0 or more');
  const queue = read('EXPORT_QUEUE') ?? 'bus';
  if (queue !== 'bus' && queue !== 'local') throw new Error('EXPORT_QUEUE must be local (or unset)');
  return { partBytes, sliceSeconds, queue };
}
