import { useEffect, useState } from 'preact/hooks';
import { person } from '../auth';
import { Attachments } from '../evidence/Attachments';
import { notice } from '../notice';
import { statusName } from '../statuses';
import { formatTime } from '../time';
import type { Action, Problem } from '../types';
import { ActionDetails } from './ActionDetails';
import { Comments } from './Comments';
import { DeleteAction } from './DeleteAction';
import { EditAction } from './EditAction';
import { Endorsement, Endorsers } from './Endorsement';
import { History } from './History';
import { type LoadedAction, loadAction } from './load-action';

/**
 * One action (`/actions/<id>`): holds what was read and composes the parts, each of which does
 * one thing (edit, endorse, delete, attachments, comments) and reads the action again after it.
 * Keyed by id in the App, so another action starts afresh.
 */
export function ActionPage({ id }: { id: string }) {
  const [read, setRead] = useState<LoadedAction | Problem | undefined>();

  const reload = async (): Promise<Action | undefined> => {
    const result = await loadAction(id);
    setRead(result);
    if (!('action' in result)) return undefined;
    document.title = `${result.action.title} · Actions`;
    return result.action;
  };
  useEffect(() => {
    notice.value = '';
    void reload();
  }, []);

  if (!read)
    return (
      <p class="count" aria-live="polite">
        Loading…
      </p>
    );
  if (!('action' in read))
    return (
      <>
        <h1 tabIndex={-1}>{read.status === 404 ? 'No such action' : 'The action could not be shown'}</h1>
        <p>{read.detail || read.title}</p>
        <p>
          <a href="/all">All actions</a>
        </p>
      </>
    );
  const { action, comments, history } = read;
  const mine = person.value?.id === action.owner.id;
  return (
    <article class="action">
      <h1 tabIndex={-1}>{action.title}</h1>
      <p class="status-line">
        {statusName(action.status)} · priority {action.priority} · due {formatTime(action.dueAt)}
        {action.overdue ? <strong class="flag">Overdue</strong> : null}
      </p>
      <p role="status" class="notice">
        {notice.value}
      </p>
      <div class="toolbar">
        <EditAction action={action} mine={mine} reload={reload} />
        <Endorsement action={action} reload={reload} />
        {mine ? <DeleteAction action={action} /> : null}
      </div>
      <ActionDetails action={action} />
      <Attachments action={action} reload={reload} />
      <Endorsers action={action} />
      <Comments actionId={id} ownerId={action.owner.id} comments={comments} onChange={reload} />
      <History entries={history} />
      <p class="owner-note">{mine ? null : `Only the owner, ${action.owner.name}, may delete this action.`}</p>
    </article>
  );
}
