import { useState } from 'preact/hooks';
import { api } from '../api';
import { person } from '../auth';
import { FieldErrors } from '../fields';
import { announce } from '../notice';
import { messagesOf, problemOf } from '../problem';
import { formatTime } from '../time';
import type { Comment } from '../types';
import { AddComment } from './AddComment';

interface Props {
  actionId: string;
  ownerId: string;
  comments: Comment[];
  /** Reloads the action after a change (its version, count and history move). */
  onChange: () => Promise<unknown>;
}

/** The thread, oldest first; anyone adds, authors edit or delete their own, the owner deletes any. */
export function Comments({ actionId, ownerId, comments, onChange }: Props) {
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments ({comments.length})</h2>
      <ol class="comments">
        {comments.map((comment) => (
          <CommentItem key={comment.id} actionId={actionId} ownerId={ownerId} comment={comment} onChange={onChange} />
        ))}
      </ol>
      <AddComment actionId={actionId} onAdded={onChange} />
    </section>
  );
}

/** An edit of one's own comment under way, with the API's words on the last Save. */
interface Edit {
  text: string;
  errors?: string[];
}

/** One comment: its author, time and text; Edit and Delete for its author, Delete for the action's owner. */
function CommentItem({ actionId, ownerId, comment, onChange }: { comment: Comment } & Omit<Props, 'comments'>) {
  const [edit, setEdit] = useState<Edit | undefined>();
  const me = person.value?.id;
  const path = { id: actionId, commentId: comment.id };
  const when = formatTime(comment.createdAt);

  const save = async (event: Event) => {
    event.preventDefault();
    if (!edit) return;
    const { error, response } = await api.PATCH('/api/actions/{id}/comments/{commentId}', {
      params: { path },
      body: { text: edit.text },
    });
    if (error) return setEdit({ ...edit, errors: messagesOf(problemOf(error, response)) });
    setEdit(undefined);
    await onChange();
  };
  const remove = async () => {
    const { error, response } = await api.DELETE('/api/actions/{id}/comments/{commentId}', { params: { path } });
    if (error) announce(messagesOf(problemOf(error, response)).join(' '));
    await onChange();
  };
  const deleteButton = (
    <button type="button" class="secondary" aria-label={`Delete comment of ${when}`} onClick={remove}>
      Delete
    </button>
  );
  const editId = `edit-comment-${comment.id}`;

  return (
    <li>
      <p class="meta">
        <strong>{comment.author.name}</strong> <time dateTime={comment.createdAt}>{when}</time>
        {comment.updatedAt !== comment.createdAt ? ' (edited)' : ''}
      </p>
      {edit ? (
        <form onSubmit={save}>
          <label for={editId}>Edit comment</label>
          <textarea
            id={editId}
            rows={3}
            value={edit.text}
            aria-describedby={edit.errors ? `${editId}-errors` : undefined}
            onInput={(e) => setEdit({ ...edit, text: e.currentTarget.value })}
          />
          <FieldErrors id={`${editId}-errors`} messages={edit.errors} />
          <div class="buttons">
            <button type="submit">Save comment</button>
            <button type="button" class="secondary" onClick={() => setEdit(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p class="text">{comment.text}</p>
      )}
      {comment.author.id === me && !edit ? (
        <div class="buttons">
          <button
            type="button"
            class="secondary"
            aria-label={`Edit comment of ${when}`}
            onClick={() => setEdit({ text: comment.text })}
          >
            Edit
          </button>
          {deleteButton}
        </div>
      ) : comment.author.id !== me && ownerId === me ? (
        <div class="buttons">{deleteButton}</div>
      ) : null}
    </li>
  );
}
