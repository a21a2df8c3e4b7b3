import { viewerOf } from '../access/viewer';
import { listActions } from '../actions/list';
import { getConfig, getExportSettings } from '../config';
import { nowIso } from '../dates';
import { HttpError } from '../errors';
import { errorFields, logger } from '../logger';
import type { Viewer } from '../model/access';
import type { ActionView } from '../model/action';
import { actionLink } from '../notifications/email';
import { loadCursorKey } from '../store/cursor-key';
import { type ExportRecord, getExport, replaceExport } from '../store/exports';
import { exportRow } from './columns';
import { csvEncoder, type RowEncoder, XLSX_MAX_ROWS, xlsxEncoder } from './encoders';
import { type ExportJob, enqueueExport } from './export-queue';
import { abortUpload, completeUpload, EXPORT_TYPES, startUpload, uploadPart } from './export-storage';

/**
 * One run of an export (contract section 18): walks the owner's list by cursor, through the very
 * code of `GET /api/actions` for them (`listActions`, their viewer), and streams the rows to the
 * bucket in parts.
 *
 * - CSV resumes exactly. A part is cut only at a page's end, and after each part the record
 *   keeps the upload id, every part's ETag, the list cursor just past the part's last row and
 *   the rows so far, in one conditional write. A run that has written for `EXPORT_SLICE_SECONDS`
 *   (or nears its function's timeout) hands the export on to a new run; a run that fails leaves
 *   it to the queue's retry. Either way the next run continues from the last part stored: rows
 *   read after it and not yet stored are read again, so none is lost or written twice.
 * - XLSX is a zip, whose compressor's state cannot be stored between runs, so an XLSX export is
 *   written in one run; a run that fails starts the file again (a new upload, the old one
 *   aborted). A sheet holds at most 1,048,576 rows, so such an export is bounded anyway.
 *
 * The caller's sight is judged with their groups as they were when they asked and their grants
 * as they are when the run reads them (section 14: a revoked grant stops within 60 seconds).
 */

/** The page the walk reads at a time: the list's largest. */
const PAGE = 100;
/** Runs of one export that may fail in a row before it is given up as failed. */
export const MAX_FAILURES = 3;
/** Leaves this long of a function's time for handing on. */
const HAND_ON_MARGIN_MS = 30_000;

export type RunOutcome = 'done' | 'handed-on' | 'failed' | 'gone';

/**
 * Runs `job` until it is done, handed on, or failed for good. `remainingMs`: the function's time
 * left (Lambda's `getRemainingTimeInMillis`), none locally. Throws when the run failed and the
 * queue should give it to another run.
 */
export async function runExport(job: ExportJob, remainingMs?: () => number): Promise<RunOutcome> {
  const record = await getExport(job.ownerId, job.id);
  if (!record || record.status === 'done' || record.status === 'failed') return 'gone';
  await loadCursorKey();
  const run = new Run(record, remainingMs);
  try {
    return await run.go();
  } catch (error) {
    return run.failed(error);
  }
}

class Run {
  private readonly startedAt = Date.now();

  constructor(
    private record: ExportRecord,
    private readonly remainingMs?: () => number,
  ) {}

  /** Moves the record on; another run that moved it first stops this one. */
  private async save(changes: Partial<ExportRecord>): Promise<void> {
    const next = { ...this.record, ...changes };
    if (!(await replaceExport(this.record, next))) throw new Superseded();
    this.record = next;
  }

  async go(): Promise<RunOutcome> {
    const viewer = await viewerOf(this.record.owner, this.record.groups);
    return this.record.format === 'csv' ? this.csv(viewer) : this.xlsx(viewer);
  }

  private async csv(viewer: Viewer): Promise<RunOutcome> {
    const { key } = this.record;
    if (!this.record.upload) {
      const uploadId = await startUpload(key, EXPORT_TYPES.csv);
      await this.save({ status: 'running', upload: { uploadId, parts: [] }, rows: 0 });
    } else if (this.record.status === 'queued') await this.save({ status: 'running' });
    const upload = this.record.upload as NonNullable<ExportRecord['upload']>;
    // Every part is stored and only the upload's completion failed: complete it.
    if (upload.written) {
      await this.finish(csvEncoder(false), this.record.rows);
      return 'done';
    }
    const encoder = csvEncoder(upload.parts.length === 0);
    const { partBytes, sliceSeconds } = getExportSettings();
    let cursor = upload.cursor;
    let pending = 0;
    for (;;) {
      const page = await this.page(viewer, cursor);
      await encoder.write(page.actions.map((a) => exportRow(a, this.link)));
      pending += page.actions.length;
      cursor = page.nextCursor;
      if (cursor === undefined) break;
      if (encoder.buffered >= partBytes) {
        await this.storePart(encoder.take(), { cursor, rows: this.record.rows + pending });
        pending = 0;
        if (Date.now() - this.startedAt >= sliceSeconds * 1000) return this.handOn();
      }
      // Near the function's timeout: what is not in a part yet is read again by the next run.
      if (this.nearTimeout()) return this.handOn();
    }
    await this.finish(encoder, this.record.rows + pending);
    return 'done';
  }

  private async xlsx(viewer: Viewer): Promise<RunOutcome> {
    const { key } = this.record;
    // A file half written by a run that failed cannot be continued: start it again.
    if (this.record.upload) await abortUpload(key, this.record.upload.uploadId);
    const uploadId = await startUpload(key, EXPORT_TYPES.xlsx);
    await this.save({ status: 'running', upload: { uploadId, parts: [] }, rows: 0 });
    const encoder = xlsxEncoder();
    const { partBytes } = getExportSettings();
    let cursor: string | undefined;
    let rows = 0;
    do {
      const page = await this.page(viewer, cursor);
      rows += page.actions.length;
      if (rows >= XLSX_MAX_ROWS || (page.totalCountRelation === 'eq' && page.totalCount >= XLSX_MAX_ROWS))
        return this.giveUp(
          `An XLSX sheet holds at most ${XLSX_MAX_ROWS - 1} rows of actions and this list has more: export it as CSV, or narrow the filter.`,
        );
      await encoder.write(page.actions.map((a) => exportRow(a, this.link)));
      cursor = page.nextCursor;
      if (encoder.buffered >= partBytes) await this.storePart(encoder.take(), { rows });
      if (this.nearTimeout())
        return this.giveUp(
          'This XLSX file could not be written in one run (the most one run takes): export it as CSV.',
        );
    } while (cursor !== undefined);
    await encoder.end();
    await this.finish(encoder, rows);
    return 'done';
  }

  private readonly link = (id: string) => actionLink(getConfig().consoleUrl ?? '', id);

  /** One page of the owner's list, as `GET /api/actions` gives it to them. */
  private page(viewer: Viewer, cursor: string | undefined) {
    const query =
      cursor === undefined
        ? `${this.record.query}${this.record.query ? '&' : ''}limit=${PAGE}`
        : `cursor=${cursor}&limit=${PAGE}`;
    return listActions(query, this.record.owner, viewer) as Promise<{
      actions: ActionView[];
      totalCount: number;
      totalCountRelation: 'eq' | 'gte';
      nextCursor?: string;
    }>;
  }

  private async storePart(bytes: Buffer, at: { cursor?: string; rows: number; last?: boolean }) {
    const upload = this.record.upload as NonNullable<ExportRecord['upload']>;
    const PartNumber = upload.parts.length + 1;
    const ETag = await uploadPart(this.record.key, upload.uploadId, PartNumber, bytes);
    await this.save({
      rows: at.rows,
      // A CSV part is progress a retry keeps; an XLSX run that fails starts again, so its parts are not.
      failures: this.record.format === 'csv' ? 0 : this.record.failures,
      upload: {
        ...upload,
        parts: [...upload.parts, { PartNumber, ETag }],
        ...(at.cursor ? { cursor: at.cursor } : {}),
        ...(at.last ? { written: true } : {}),
      },
    });
  }

  private async finish(encoder: RowEncoder, rows: number) {
    const last = encoder.take();
    // The last part may be small (S3 takes any size for it); an upload needs at least one.
    if (last.length > 0 || this.record.upload?.parts.length === 0) await this.storePart(last, { rows, last: true });
    else await this.save({ upload: { ...(this.record.upload as NonNullable<ExportRecord['upload']>), written: true } });
    const upload = this.record.upload as NonNullable<ExportRecord['upload']>;
    await completeUpload(this.record.key, upload.uploadId, upload.parts);
    await this.save({ status: 'done', rows, finishedAt: nowIso() });
  }

  private nearTimeout(): boolean {
    return this.remainingMs !== undefined && this.remainingMs() < HAND_ON_MARGIN_MS;
  }

  private async handOn(): Promise<RunOutcome> {
    await enqueueExport({ ownerId: this.record.owner.id, id: this.record.id });
    logger.info('export handed on', { exportId: this.record.id, rows: this.record.rows });
    return 'handed-on';
  }

  private async giveUp(error: string): Promise<RunOutcome> {
    if (this.record.upload) await abortUpload(this.record.key, this.record.upload.uploadId);
    await this.save({ status: 'failed', error, finishedAt: nowIso() });
    return 'failed';
  }

  /**
   * A run failed: counted on the record, and thrown again so the queue retries it, from the last
   * part stored; after `MAX_FAILURES` in a row without a part stored between them, given up.
   */
  async failed(error: unknown): Promise<RunOutcome> {
    if (error instanceof Superseded) return 'gone';
    logger.warn('export run failed', { exportId: this.record.id, ...errorFields(error) });
    const latest = await getExport(this.record.owner.id, this.record.id);
    if (!latest || latest.status === 'done' || latest.status === 'failed') return 'gone';
    this.record = latest;
    const failures = latest.failures + 1;
    if (failures >= MAX_FAILURES) {
      // Only a client's own words reach the record; anything else is said plainly.
      const why =
        error instanceof HttpError && error.status < 500 ? error.detail : 'the storage or the store kept failing';
      return this.giveUp(`The export failed ${failures} times in a row (${why}); ask for it again.`);
    }
    await this.save({ failures });
    throw error;
  }
}

/** Another run of the same export moved its record on first: this one stops and leaves it to that one. */
class Superseded extends Error {}
