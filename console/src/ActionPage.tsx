import { useEffect, useRef, useState } from 'preact/hooks';
import { errorsByField, FIELDS, type FormValues, LOCATION_FIELDS, mergePatch, valuesOf } from './action-form';
import { api, etagOf } from './api';
import { person } from './auth';
import { Comments } from './Comments';
import { Field, FormAlert } from './fields';
import { formatTime, historyInWords } from './history-words';
import { navigate } from './router';
import { statusName } from './statuses';
import type { Action, Comment, HistoryEntry, Problem } from './types';

interface Loaded {
  action: Action;
  comments: Comment[];
  history: HistoryEntry[];
}

/** Every page of a cursor-paged thread (comments, history), oldest first. */
async function allPages<T>(
  fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string } | undefined>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    if (!page) break;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function load(id: string): Promise<Loaded | Problem> {
  const path = { id };
  const [action, comments, history] = await Promise.all([
    api.GET('/api/actions/{id}', { params: { path } }),
    allPages(async (cursor) => {
      const { data } = await api.GET('/api/actions/{id}/comments', { params: { path, query: { limit: 100, cursor } } });
      return data && { items: data.comments, nextCursor: data.nextCursor };
    }),
    allPages(async (cursor) => {
      const { data } = await api.GET('/api/actions/{id}/history', { params: { path, query: { limit: 100, cursor } } });
      return data && { items: data.entries, nextCursor: data.nextCursor };
    }),
  ]);
  if (!action.data) return action.error as Problem;
  return { action: action.data, comments, history };
}

const personName = (p: { id: string; name: string }) => (p.id === 'undefined' ? 'nobody' : p.name);

/** Who may edit, in words, for a 403. */
function whoMayEdit(action: Action): string {
  const owner = action.owner.name;
  const assignee = action.assignee.id === 'undefined' ? undefined : action.assignee.name;
  return `Only the owner (${owner})${assignee ? ` or the assignee (${assignee})` : ''} may edit this action${
    action.allowAnonymousEdits ? '; its assignee and who may edit are for them alone' : ''
  }.`;
}

/** One action (`/actions/<id>`): every field, edit, endorse, comments, history and delete. */
export function ActionPage({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [missing, setMissing] = useState<Problem | undefined>();
  const [editing, setEditing] = useState<{ base: Action; values: FormValues } | undefined>();
  const [editProblem, setEditProblem] = useState<{ problem?: Problem; message?: string; stale?: boolean }>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const me = person.value;

  const reload = async () => {
    const result = await load(id);
    if ('action' in result) {
      setLoaded(result);
      document.title = `${result.action.title} · Actions`;
      return result.action;
    }
    setMissing(result);
    return undefined;
  };
  useEffect(() => {
    setLoaded(undefined);
    setMissing(undefined);
    setEditing(undefined);
    void reload();
  }, [id]);

  if (missing)
    return (
      <>
        <h1 tabIndex={-1}>{missing.status === 404 ? 'No such action' : 'The action could not be shown'}</h1>
        <p>{missing.detail || missing.title}</p>
        <p>
          <a href="/all">All actions</a>
        </p>
      </>
    );
  if (!loaded)
    return (
      <p class="count" aria-live="polite">
        Loading…
      </p>
    );
  const { action, comments, history } = loaded;
  const mine = me?.id === action.owner.id;
  const endorsed = action.endorsedBy.some((e) => e.id === me?.id);

  const save = async (event: Event) => {
    event.preventDefault();
    if (!editing || saving) return;
    setSaving(true);
    const patch = mergePatch(valuesOf(editing.base), editing.values);
    const { data, error, response } = await api.PATCH('/api/actions/{id}', {
      params: { path: { id }, header: { 'if-match': etagOf(editing.base) } },
      body: patch,
    });
    setSaving(false);
    if (data) {
      setEditing(undefined);
      setEditProblem({});
      setNotice('Saved.');
      await reload();
      editButton.current?.focus();
      return;
    }
    const problem = error as Problem;
    if (response.status === 412)
      setEditProblem({
        stale: true,
        message: 'This action was changed by someone else. Reload it to see the change; what you typed stays.',
      });
    else if (response.status === 403) setEditProblem({ message: whoMayEdit(editing.base) });
    else setEditProblem({ problem });
  };
  const reloadKeepingTyped = async () => {
    // Save waits for the latest version, or it would meet the same 412 again.
    setSaving(true);
    const fresh = await reload();
    setSaving(false);
    if (fresh && editing) {
      // What the person typed stays; every field they left alone shows the other change.
      const before = valuesOf(editing.base);
      const typed = Object.entries(editing.values).filter(([name, value]) => before[name] !== value);
      setEditing({ base: fresh, values: { ...valuesOf(fresh), ...Object.fromEntries(typed) } });
    }
    setEditProblem({});
    setNotice('Reloaded. Your changes are still in the form; Save to apply them to the latest version.');
  };
  const toggleEndorsement = async () => {
    const path = { id };
    const { error } = endorsed
      ? await api.DELETE('/api/actions/{id}/endorsements/me', { params: { path } })
      : await api.PUT('/api/actions/{id}/endorsements/me', { params: { path } });
    setNotice(error ? (error as Problem).detail : endorsed ? 'Endorsement withdrawn.' : 'Endorsed.');
    await reload();
  };
  const remove = async () => {
    const { error } = await api.DELETE('/api/actions/{id}', { params: { path: { id } } });
    dialog.current?.close();
    if (error) setNotice((error as Problem).detail);
    else navigate('/all');
  };

  const fieldErrors = errorsByField(editProblem.problem);
  const assignee = action.assignee.id === 'undefined' ? 'Unassigned' : action.assignee.name;
  return (
    <article class="action">
      <h1 tabIndex={-1}>{action.title}</h1>
      <p class="status-line">
        {statusName(action.status)} · priority {action.priority} · due {formatTime(action.dueAt)}
        {action.overdue ? <strong class="flag">Overdue</strong> : null}
      </p>
      <p role="status" class="notice">
        {notice}
      </p>
      <div class="buttons">
        <button
          type="button"
          ref={editButton}
          aria-expanded={editing ? 'true' : 'false'}
          onClick={() => {
            setEditProblem({});
            setEditing(editing ? undefined : { base: action, values: valuesOf(action) });
          }}
        >
          Edit
        </button>
        <button type="button" onClick={toggleEndorsement}>
          {endorsed ? 'Withdraw endorsement' : 'Endorse'}
        </button>
        {mine ? (
          <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
            Delete
          </button>
        ) : null}
      </div>

      {editing ? (
        <form class="edit" onSubmit={save} aria-labelledby="edit-heading" noValidate>
          <h2 id="edit-heading">Edit</h2>
          {editProblem.message ? (
            <div role="alert" class="alert">
              <p>{editProblem.message}</p>
              {editProblem.stale ? (
                <button type="button" onClick={reloadKeepingTyped}>
                  Reload
                </button>
              ) : null}
            </div>
          ) : null}
          <FormAlert messages={fieldErrors['']} />
          <div class="form-grid">
            {FIELDS.filter((f) => !f.createOnly).map((spec) => (
              <Field
                key={spec.name}
                spec={spec}
                form="edit"
                values={editing.values}
                errors={fieldErrors}
                disabled={spec.name === 'allowAnonymousEdits' && !mine}
                onChange={(name, value) => setEditing({ ...editing, values: { ...editing.values, [name]: value } })}
              />
            ))}
          </div>
          <div class="buttons">
            <button type="submit" disabled={saving}>
              Save
            </button>
            <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      <section aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <dl class="details">
          <dt>Description</dt>
          <dd class="text">{action.description || '—'}</dd>
          <dt>Status</dt>
          <dd>{statusName(action.status)}</dd>
          <dt>Overdue</dt>
          <dd>{action.overdue ? 'Overdue' : 'No'}</dd>
          <dt>Priority</dt>
          <dd>{action.priority}</dd>
          <dt>Due</dt>
          <dd>{formatTime(action.dueAt)}</dd>
          <dt>Assignee</dt>
          <dd>{assignee}</dd>
          <dt>Owner</dt>
          <dd>{action.owner.name}</dd>
          <dt>Initiator</dt>
          <dd>{action.initiator.name}</dd>
          <dt>Producer</dt>
          <dd>{action.actionProducer.name}</dd>
          <dt>Producer reference</dt>
          <dd>{action.actionProducer.reference || '—'}</dd>
          <dt>Producer URL</dt>
          <dd>
            {action.actionProducer.url && /^https?:/i.test(action.actionProducer.url) ? (
              <a href={action.actionProducer.url} rel="noopener noreferrer">
                {action.actionProducer.url}
              </a>
            ) : (
              action.actionProducer.url || '—'
            )}
          </dd>
          {LOCATION_FIELDS.map(([key, label]) => [
            <dt key={`${key}-t`}>{label}</dt>,
            <dd key={key}>{action.location[key] || '—'}</dd>,
          ])}
          <dt>Tags</dt>
          <dd>{action.tags.length ? action.tags.join(', ') : '—'}</dd>
          <dt>Attachments</dt>
          <dd>
            {action.attachments.length
              ? action.attachments.map((a) => (
                  <span key={'url' in a ? a.url : a.id} class="attachment">
                    {a.name ?? ('url' in a ? a.url : '')}
                  </span>
                ))
              : '—'}
          </dd>
          <dt>Anyone may edit</dt>
          <dd>{action.allowAnonymousEdits ? 'Yes' : 'No'}</dd>
          <dt>Created</dt>
          <dd>{formatTime(action.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{formatTime(action.updatedAt)}</dd>
          <dt>Version</dt>
          <dd>{action.version}</dd>
        </dl>
      </section>

      <section aria-labelledby="endorsements-heading">
        <h2 id="endorsements-heading">Endorsements</h2>
        {action.endorsedBy.length ? (
          <p>Endorsed by {action.endorsedBy.map((e) => e.name).join(', ')}</p>
        ) : (
          <p>No one has endorsed this action.</p>
        )}
      </section>

      <Comments actionId={id} ownerId={action.owner.id} comments={comments} onChange={reload} />

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <ol class="history">
          {history.map((entry) => (
            <li key={entry.version}>
              <time dateTime={entry.time}>{formatTime(entry.time)}</time> {historyInWords(entry)}
            </li>
          ))}
        </ol>
      </section>

      <dialog ref={dialog} aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this action?</h2>
        <p>“{action.title}” and its comments go for good; its history stays.</p>
        <div class="buttons">
          <button type="button" class="danger" onClick={remove}>
            Delete action
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
      <p class="owner-note">{mine ? null : `Only the owner, ${personName(action.owner)}, may delete this action.`}</p>
    </article>
  );
}
