import { stringify } from 'csv-stringify/sync';
import { viewerFor } from '../../access/viewer';
import { createAction } from '../../actions/action-service';
import { onceInOneWrite } from '../../actions/idempotency';
import { nowIso } from '../../dates';
import { readObject, writeObject } from '../../evidence/storage';
import { inPool } from '../../flow/fan-out';
import { errorFields, logger } from '../../logger';
import type { Viewer } from '../../model/access';
import type { Person } from '../../model/action';
import {
  type ImportRecord,
  PROBLEMS_PER_CHUNK,
  putChunk,
  readChunks,
  readImport,
  updateImport,
} from '../../store/imports';
import { announceAssignments } from './announce';
import { checkRow, type RowProblem } from './check-row';
import { bodyOf, type Header, isBlankRow, readHeader, UnreadableFile } from './columns';
import { problemsKeyOf, SHOWN_PROBLEMS } from './imports';
import { readRows } from './read-file';

/**
 * The import worker (contract section 18). It reads the file twice, streaming, never whole:
 * 1. check: every row, as `POST /api/actions` checks a body and, in scoped mode, against the
 *    importer's roles; a file it cannot read (not UTF-8, no required column, past 100,000 rows)
 *    fails whole here, before anything is created. A dry run ends here with its report.
 * 2. create: the valid rows, `WIDTH` at a time (rows are independent), each create under the
 *    idempotency key `import-<id>-row-<n>` (section 11), so a resumed or repeated run creates
 *    nothing twice; its position is saved after every stretch of `STRETCH` rows, and an
 *    invocation that runs out of time hands the rest to the next one.
 * 3. notify: one `ActionsImported` event per assignee ("N actions were assigned to you"), which
 *    the notifier turns into their one email (announce.ts).
 */

/** At most this many data rows a file (contract section 18). */
export const MAX_ROWS = 100_000;
/**
 * Creates at once. Each is one transaction the worker waits on, so the pace is the store's
 * latency times this; 8 keeps the engine busy (one create's transaction is about 20 items)
 * without crowding out the API's own writes.
 */
const WIDTH = 8;
/** Valid rows between two saves of the position. */
const STRETCH = 200;
/** An invocation stops starting batches with less than this left, and saves where it is. */
const MARGIN_MS = 20_000;
/** Assignee counts a chunk item holds. */
const ASSIGNEES_PER_CHUNK = 1_000;

export type WorkerOutcome = 'finished' | 'more';

/** Runs (or resumes) one import while `timeLeftMs()` allows; `more` when it must go on in another invocation. */
export async function runImport(id: string, timeLeftMs: () => number): Promise<WorkerOutcome> {
  const record = await readImport(id);
  if (!record || record.status === 'done' || record.status === 'failed') return 'finished';
  const importer: Person = { id: record.importerId, name: record.importerName, email: record.importerEmail };
  const viewer = await viewerFor(importer.id);
  try {
    let phase = record.phase;
    if (phase === 'check') {
      await updateImport(id, { status: 'running' });
      phase = await checkAll(record, viewer);
    }
    if (phase === 'create') {
      const fresh = (await readImport(id)) as ImportRecord;
      if ((await createValid(fresh, importer, viewer, timeLeftMs)) === 'more') return 'more';
      phase = 'notify';
    }
    if (phase === 'notify') {
      const counts = await readChunks<[string, number]>(id, 'a');
      await announceAssignments(id, importer, counts);
      await updateImport(id, { phase: 'finished', status: 'done', finishedAt: nowIso() });
    }
    return 'finished';
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    logger.info('import failed whole', { importId: id, reason: error.message });
    await updateImport(id, { status: 'failed', phase: 'finished', error: error.message, finishedAt: nowIso() });
    return 'finished';
  }
}

/**
 * Ends an import the queue will not deliver again (its last delivery failed, or ran out of
 * deliveries): `failed`, with a reason the importer reads and how to go on. Its position stays,
 * so asking for the same import again (`startImport`) resumes it, and every row's key keeps a
 * row from being created twice.
 */
export async function giveUpImport(id: string, why: string): Promise<void> {
  const record = await readImport(id);
  if (!record || record.status === 'done' || record.status === 'failed') return;
  const made =
    record.phase === 'check'
      ? 'nothing was created'
      : `${record.created} of its ${record.valid} valid rows were created, each once`;
  const again = record.dryRun
    ? 'Ask for the dry run again.'
    : 'Ask for it again (POST /api/imports with the same uploadId and dryRun false) to go on from there.';
  logger.error('import given up', { importId: id, why });
  await updateImport(id, {
    status: 'failed',
    error: `The import stopped before it finished (${why}); ${made}. ${again}`,
    finishedAt: nowIso(),
  });
}

/** The data rows of the file, numbered as the report numbers them (the header is row 1), blank rows skipped. */
async function* dataRows(record: ImportRecord): AsyncGenerator<{ row: number; body: Record<string, unknown> }, Header> {
  let header: Header | undefined;
  let row = 0;
  let counted = 0;
  for await (const cells of readRows(await readObject(record.fileKey))) {
    row++;
    if (header === undefined) {
      header = readHeader(cells);
      yield { row: 1, body: {} };
      continue;
    }
    if (isBlankRow(cells)) continue;
    if (++counted > MAX_ROWS)
      throw new UnreadableFile(
        `The file has more than ${MAX_ROWS.toLocaleString('en-US')} rows (the most one import takes); split it into several files.`,
      );
    yield { row, body: bodyOf(header, cells) };
  }
  if (header === undefined) throw new UnreadableFile('The file is empty: it has no header row.');
  return header;
}

/** Phase 1: checks every row; stores the report (problems, assignee counts) and where the create goes on. */
async function checkAll(record: ImportRecord, viewer: Viewer): Promise<ImportRecord['phase']> {
  const problems: RowProblem[] = [];
  const assignees = new Map<string, number>();
  let rows = 0;
  let valid = 0;
  let ignoredColumns: string[] = [];
  const reader = dataRows(record);
  for (let next = await reader.next(); ; next = await reader.next()) {
    if (next.done) {
      ignoredColumns = next.value.ignored;
      break;
    }
    const { row, body } = next.value;
    if (row === 1) continue;
    rows++;
    const checked = checkRow(row, body, viewer);
    if (!checked.ok) {
      problems.push(...checked.problems);
      continue;
    }
    valid++;
    const assignee = checked.input.assignee?.id;
    if (assignee) assignees.set(assignee, (assignees.get(assignee) ?? 0) + 1);
  }
  const shown = problems.slice(0, SHOWN_PROBLEMS);
  for (let i = 0; i * PROBLEMS_PER_CHUNK < shown.length; i++)
    await putChunk(
      record.id,
      'e',
      i,
      shown.slice(i * PROBLEMS_PER_CHUNK, (i + 1) * PROBLEMS_PER_CHUNK),
      record.createdAt,
    );
  let problemsKey: string | undefined;
  if (problems.length > SHOWN_PROBLEMS) {
    problemsKey = problemsKeyOf(record.id);
    const csv = stringify(
      problems.map((p) => [p.row, p.column, p.problem]),
      { header: true, columns: ['row', 'column', 'problem'], record_delimiter: 'windows', bom: true },
    );
    await writeObject(problemsKey, csv, 'text/csv; charset=utf-8');
  }
  if (!record.dryRun) {
    const counts = [...assignees];
    for (let i = 0; i * ASSIGNEES_PER_CHUNK < counts.length; i++)
      await putChunk(
        record.id,
        'a',
        i,
        counts.slice(i * ASSIGNEES_PER_CHUNK, (i + 1) * ASSIGNEES_PER_CHUNK),
        record.createdAt,
      );
  }
  const phase = record.dryRun ? 'finished' : 'create';
  await updateImport(record.id, {
    rows,
    valid,
    invalid: rows - valid,
    ignoredColumns,
    problemCount: problems.length,
    problemsKey,
    phase,
    status: record.dryRun ? 'done' : 'running',
    ...(record.dryRun ? { finishedAt: nowIso() } : {}),
  });
  return phase;
}

/** Phase 2: creates the valid rows from `nextRow` on, `WIDTH` at a time, saving the position after each stretch. */
async function createValid(
  record: ImportRecord,
  importer: Person,
  viewer: Viewer,
  timeLeftMs: () => number,
): Promise<WorkerOutcome> {
  let created = record.created;
  const reader = dataRows(record);
  let next = await reader.next();
  try {
    // Past rows the last run finished (the header is row 1).
    while (!next.done && (next.value.row === 1 || next.value.row < record.nextRow)) next = await reader.next();
    while (!next.done) {
      if (timeLeftMs() < MARGIN_MS) {
        await updateImport(record.id, { created, nextRow: next.value.row });
        return 'more';
      }
      // The next stretch of valid rows; the same check as phase 1, so a row refused now (a role
      // revoked since) is simply not created.
      const stretch: Array<{ row: number; body: Record<string, unknown> }> = [];
      for (; !next.done && stretch.length < STRETCH; next = await reader.next())
        if (checkRow(next.value.row, next.value.body, viewer).ok) stretch.push(next.value);
      // Rows are handed out in order and none once time runs short, so the rows done are a
      // prefix of the stretch and the next run goes on from the first one not started.
      let taken = 0;
      await inPool(
        WIDTH,
        () => (taken < stretch.length && timeLeftMs() >= MARGIN_MS ? stretch[taken++] : undefined),
        ({ row, body }) => createRow(record.id, importer, row, body),
      );
      created += taken;
      if (taken < stretch.length) {
        await updateImport(record.id, { created, nextRow: (stretch[taken] as { row: number }).row });
        return 'more';
      }
      // A failure above saves nothing: the next run does this stretch again, and the rows it had
      // created answer from their keys (created once, counted once).
      await updateImport(record.id, { created, nextRow: next.done ? Number.MAX_SAFE_INTEGER : next.value.row });
    }
  } finally {
    await reader.return(undefined as never).catch(() => undefined);
  }
  await updateImport(record.id, { created, nextRow: Number.MAX_SAFE_INTEGER, phase: 'notify' });
  return 'finished';
}

/**
 * Creates one row as `POST /api/actions` with the idempotency key `import-<id>-row-<n>` would
 * (the same checks, the same create, the same key record), the key taken in the create's own
 * transaction rather than claimed first: nothing else waits on it.
 */
async function createRow(importId: string, importer: Person, row: number, body: Record<string, unknown>) {
  try {
    await onceInOneWrite(
      { caller: importer, header: `import-${importId}-row-${row}`, method: 'POST', path: '/api/actions', body },
      (action: { id: string }) => ({ status: 201, body: { id: action.id }, location: `/api/actions/${action.id}` }),
      (remember) => createAction(importer, body, remember, importId),
    );
  } catch (error) {
    logger.warn('an import row could not be created now; the import resumes from its last stretch', {
      importId,
      row,
      ...errorFields(error),
    });
    throw error;
  }
}
