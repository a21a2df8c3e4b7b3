import { LOCATION_FIELDS } from '../action-form';
import { nameOf } from '../people';
import { statusName } from '../statuses';
import { formatTime } from '../time';
import type { Action } from '../types';

/** Every field of an action, as a description list. */
export function ActionDetails({ action }: { action: Action }) {
  const url = action.actionProducer.url;
  return (
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
        <dd>{nameOf(action.assignee, 'Unassigned')}</dd>
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
          {url && /^https?:/i.test(url) ? (
            <a href={url} rel="noopener noreferrer">
              {url}
            </a>
          ) : (
            url || '—'
          )}
        </dd>
        {LOCATION_FIELDS.map(([key, label]) => [
          <dt key={`${key}-t`}>{label}</dt>,
          <dd key={key}>{action.location[key] || '—'}</dd>,
        ])}
        <dt>Tags</dt>
        <dd>{action.tags.length ? action.tags.join(', ') : '—'}</dd>
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
  );
}
