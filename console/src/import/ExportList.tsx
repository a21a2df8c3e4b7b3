import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import type { Export } from '../api-pending';
import { FormAlert } from '../fields';
import { messagesOf, problemOf } from '../problem';
import { pollJob } from './poll';

/**
 * "Export" on a list (contract section 18): the list's filters and sort (no page) go to
 * `POST /api/exports` as CSV or Excel; the export's rows so far show while it runs
 * (`GET /api/exports/{id}`), then a link downloads the file (a presigned URL, valid minutes:
 * the link is read afresh when clicked late).
 */
export function ExportList({ list, query }: { list: string; query: () => string }) {
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [job, setJob] = useState<Export | undefined>();
  const [problem, setProblem] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  // A new list (other filters) is a new export.
  useEffect(() => {
    setJob(undefined);
    setProblem(undefined);
  }, [list]);

  const read = async (id: string): Promise<Export> => {
    const { data, error, response } = await api.GET('/api/exports/{id}', { params: { path: { id } } });
    if (!data) throw new Error(messagesOf(problemOf(error, response)).join(' '));
    return data;
  };

  const start = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    setJob(undefined);
    try {
      const { data, error, response } = await api.POST('/api/exports', { body: { format, query: query() } });
      if (!data) throw new Error(messagesOf(problemOf(error, response)).join(' '));
      setJob(data);
      await pollJob(
        () => read(data.id),
        setJob,
        () => !alive.current,
      );
    } catch (failure) {
      if (alive.current) setProblem([failure instanceof Error ? failure.message : String(failure)]);
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  const readAt = useRef(0);
  useEffect(() => {
    if (job?.url) readAt.current = Date.now();
  }, [job?.url]);
  // The presigned link lasts 5 minutes: a click after that reads the export again for a fresh one.
  const download = async (event: MouseEvent) => {
    if (!job?.finishedAt || Date.now() - readAt.current < 4 * 60_000) return;
    event.preventDefault();
    const fresh = await read(job.id).catch(() => undefined);
    if (fresh?.url) location.assign(fresh.url);
  };

  const rows = job ? `${job.rows} row${job.rows === 1 ? '' : 's'}` : '';
  return (
    <details class="export">
      <summary>Export</summary>
      <form onSubmit={start} aria-label="Export this list">
        <fieldset>
          <legend>Export this list as</legend>
          {(
            [
              ['csv', 'CSV'],
              ['xlsx', 'Excel'],
            ] as const
          ).map(([value, name]) => (
            <div class="field-checkbox" key={value}>
              <input
                type="radio"
                id={`export-${value}`}
                name="export-format"
                checked={format === value}
                onChange={() => setFormat(value)}
              />
              <label for={`export-${value}`}>{name}</label>
            </div>
          ))}
        </fieldset>
        <div class="buttons">
          <button type="submit" disabled={busy}>
            Export as {format === 'xlsx' ? 'Excel' : 'CSV'}
          </button>
        </div>
      </form>
      <FormAlert messages={problem} />
      <p role="status" class="export-status">
        {!job
          ? ''
          : job.status === 'done'
            ? `Export ready: ${rows}.`
            : job.status === 'failed'
              ? `The export failed${job.error ? `: ${job.error}` : '.'}`
              : `Exporting… ${rows} written.`}
      </p>
      {job && job.status !== 'done' && job.status !== 'failed' ? <progress aria-label="Export progress" /> : null}
      {job?.status === 'done' && job.url ? (
        <p>
          <a class="button" href={job.url} download onClick={download}>
            Download the {job.format === 'xlsx' ? 'Excel' : 'CSV'} file
          </a>
        </p>
      ) : null}
    </details>
  );
}
