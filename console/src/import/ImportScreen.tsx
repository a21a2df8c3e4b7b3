import { useEffect, useRef, useState } from 'preact/hooks';
import { LIST_VIEWS } from '../../routes';
import { api } from '../api';
import type { Import } from '../api-pending';
import type { paths } from '../api-types';
import { postToStorage } from '../evidence/post-to-storage';
import { FormAlert } from '../fields';
import { messagesOf, problemOf } from '../problem';
import { pollJob } from './poll';

/**
 * Import (`/import`, contract section 18): pick a CSV or Excel file, send it to storage by a
 * presigned POST (as evidence is sent), run a dry run and read its report (valid rows, each bad
 * row with its row, column and problem), then "Create N actions", with progress. Nothing is
 * created before the person has read the report and asked.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAX_BYTES = 50 * 1024 * 1024;

/** The content types an import upload takes. */
type UploadType = NonNullable<
  paths['/api/imports/uploads']['post']['requestBody']
>['content']['application/json']['contentType'];

/** The file's type as the browser says it, else by its name; a type the API does not take is its 400 to name. */
const contentTypeOf = (file: File) =>
  (file.type ||
    (/\.xlsx$/i.test(file.name)
      ? XLSX
      : /\.csv$/i.test(file.name)
        ? 'text/csv'
        : 'application/octet-stream')) as UploadType;

type Step =
  | { name: 'idle' }
  | { name: 'uploading'; sent: number; total: number }
  | { name: 'checking'; job?: Import }
  | { name: 'checked'; job: Import }
  | { name: 'creating'; job: Import; check: Import }
  | { name: 'created'; job: Import; check: Import };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function ImportScreen() {
  const [file, setFile] = useState<File | undefined>();
  const [uploadId, setUploadId] = useState<string | undefined>();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [problem, setProblem] = useState<string[] | undefined>();
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const fail = (failure: unknown) => {
    if (!alive.current) return;
    setProblem([failure instanceof Error ? failure.message : String(failure)]);
    setStep({ name: 'idle' });
  };
  const read = async (id: string): Promise<Import> => {
    const { data, error, response } = await api.GET('/api/imports/{id}', { params: { path: { id } } });
    if (!data) throw new Error(messagesOf(problemOf(error, response)).join(' '));
    return data;
  };
  const run = async (upload: string, dryRun: boolean, onRead: (job: Import) => void): Promise<Import | undefined> => {
    const { data, error, response } = await api.POST('/api/imports', { body: { uploadId: upload, dryRun } });
    if (!data) throw new Error(messagesOf(problemOf(error, response)).join(' '));
    onRead(data);
    return pollJob(
      () => read(data.id),
      onRead,
      () => !alive.current,
    );
  };

  const check = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    if (!file) return setProblem(['Choose a CSV or Excel file first.']);
    if (file.size > MAX_BYTES)
      return setProblem([`The file is larger than 50 MB (${Math.ceil(file.size / 1048576)} MB).`]);
    try {
      setStep({ name: 'uploading', sent: 0, total: file.size });
      const upload = await api.POST('/api/imports/uploads', {
        body: { name: file.name, contentType: contentTypeOf(file), size: file.size },
      });
      if (!upload.data) throw new Error(messagesOf(problemOf(upload.error, upload.response)).join(' '));
      await postToStorage(upload.data, file, (sent, total) => {
        if (alive.current) setStep({ name: 'uploading', sent, total });
      });
      setUploadId(upload.data.uploadId);
      setStep({ name: 'checking' });
      const done = await run(upload.data.uploadId, true, (job) => alive.current && setStep({ name: 'checking', job }));
      if (done && alive.current) setStep({ name: 'checked', job: done });
    } catch (failure) {
      fail(failure);
    }
  };

  const create = async () => {
    if (step.name !== 'checked' || !uploadId) return;
    const checked = step.job;
    setProblem(undefined);
    try {
      setStep({ name: 'creating', job: checked, check: checked });
      const done = await run(
        uploadId,
        false,
        (job) => alive.current && setStep({ name: 'creating', job, check: checked }),
      );
      if (done && alive.current) setStep({ name: 'created', job: done, check: checked });
    } catch (failure) {
      fail(failure);
    }
  };

  const report =
    step.name === 'checked' || step.name === 'creating' || step.name === 'created'
      ? step.name === 'checked'
        ? step.job
        : step.check
      : undefined;
  const busy = step.name === 'uploading' || step.name === 'checking' || step.name === 'creating';
  return (
    <>
      <h1 id="import-heading" tabIndex={-1}>
        Import actions
      </h1>
      <p>
        A CSV or Excel file (at most 50 MB and 100,000 rows) with a header row of the export's columns. Required: title,
        actionProducer.name, dueAt, priority and status. Nothing is created until you have read the check's report and
        chosen to create the valid rows.
      </p>
      <form onSubmit={check} aria-labelledby="import-heading">
        <div class="field">
          <label for="import-file">Spreadsheet (CSV or Excel)</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0]);
              setUploadId(undefined);
              setStep({ name: 'idle' });
              setProblem(undefined);
            }}
          />
        </div>
        <div class="buttons">
          <button type="submit" disabled={busy || !file}>
            Check the file
          </button>
        </div>
      </form>
      <FormAlert messages={problem} />
      <p role="status" class="import-status">
        {step.name === 'uploading'
          ? `Sending the file… ${Math.round((100 * step.sent) / Math.max(1, step.total))}%`
          : step.name === 'checking'
            ? `Checking… ${step.job ? `${plural(step.job.rows, 'row')} read` : ''}`
            : step.name === 'creating'
              ? `Creating… ${step.job.created} of ${step.check.valid} created`
              : step.name === 'created'
                ? step.job.status === 'failed'
                  ? `The import stopped${step.job.error ? `: ${step.job.error}` : '.'} ${step.job.created} created.`
                  : `Created ${plural(step.job.created, 'action')}.`
                : step.name === 'checked' && step.job.status === 'failed'
                  ? `The file could not be checked${step.job.error ? `: ${step.job.error}` : '.'}`
                  : ''}
      </p>
      {busy ? <progress aria-label="Import progress" /> : null}
      {report && report.status !== 'failed' ? <Report job={report} /> : null}
      {step.name === 'checked' && step.job.status !== 'failed' ? (
        <div class="buttons">
          <button type="button" disabled={step.job.valid === 0} onClick={create}>
            Create {plural(step.job.valid, 'action')}
          </button>
        </div>
      ) : null}
      {step.name === 'created' ? (
        <p>
          <a href={`${LIST_VIEWS.all.path}`}>See all actions</a>
        </p>
      ) : null}
    </>
  );
}

/** The dry run's report: how many rows are valid, and each bad row with its column and problem. */
function Report({ job }: { job: Import }) {
  const errors = job.errors ?? [];
  return (
    <section aria-labelledby="report-heading">
      <h2 id="report-heading">The check's report</h2>
      <p>
        {plural(job.rows, 'row')}: {job.valid} valid, {job.invalid} with problems.
      </p>
      {job.ignoredColumns?.length ? <p>Columns ignored: {job.ignoredColumns.join(', ')}.</p> : null}
      {errors.length ? (
        <div class="table-wrap">
          <table class="problems">
            <caption>Rows with problems (the header is row 1); these are not created</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((error, i) => (
                <tr key={`${error.row}-${error.column}-${i}`}>
                  <td data-label="Row">{error.row}</td>
                  <td data-label="Column">{error.column || '—'}</td>
                  <td data-label="Problem">{error.problem}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {job.errorsUrl ? (
        <p>
          The first {errors.length} problems are shown. <a href={job.errorsUrl}>Download all of them as CSV</a>
        </p>
      ) : null}
    </section>
  );
}
