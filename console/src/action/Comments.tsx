import { useState } from 'preact/hooks';
import { api } from '../api';
import { person } from '../auth';
import { FieldErrors } from '../fields';
import { messagesOf, problemOf } from '../problem';
import { formatTime } from '../time';
import type { Comment } from '../types';

interface Props {
  actionId: string;
  ownerId: string;
  comments: Comment[];
  /** Reloads the action after a change (its version, count and history move). */
  onChange: () => Promise<unknown>;
}

/** The thread, oldest first; anyone adds, authors edit or delete their own, the owner deletes any. */
export function Comments({ actionId, ownerId, comments, onChange }: Props) {
  const [text, setText] = useState('');
  // One key per comment being written, so a double click or a retry adds it once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<string[] | undefined>();
  const [sending, setSending] = useState(false);
  const [editing, setEditing] = useState<{ id: string; text: string; errors?: string[] } | undefined>();
  const me = person.value?.id;

  const add = async (event: Event) => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    const { error } = await api.POST('/api/actions/{id}/comments', {
      params: { path: { id: actionId }, header: { 'idempotency-key': key } },
      body: { text },
    });
    setSending(false);
    if (error) {
      setErrors(messagesOf(problemOf(error)));
      return;
    }
    setText('');
    setErrors(undefined);
    setKey(crypto.randomUUID());
    await onChange();
  };
  const saveEdit = async (event: Event) => {
    event.preventDefault();
    if (!editing) return;
    const { error } = await api.PATCH('/api/actions/{id}/comments/{commentId}', {
      params: { path: { id: actionId, commentId: editing.id } },
      body: { text: editing.text },
    });
    if (error) setEditing({ ...editing, errors: messagesOf(problemOf(error)) });
    else {
      setEditing(undefined);
      await onChange();
    }
  };
  const remove = async (commentId: string) => {
    const { error } = await api.DELETE('/api/actions/{id}/comments/{commentId}', {
      params: { path: { id: actionId, commentId } },
    });
    if (error) setErrors(messagesOf(problemOf(error)));
    await onChange();
  };

  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments ({comments.length})</h2>
      <ol class="comments">
        {comments.map((comment) => (
          <li key={comment.id}>
            <p class="meta">
              <strong>{comment.author.name}</strong>{' '}
              <time dateTime={comment.createdAt}>{formatTime(comment.createdAt)}</time>
              {comment.updatedAt !== comment.createdAt ? ' (edited)' : ''}
            </p>
            {editing?.id === comment.id ? (
              <form onSubmit={saveEdit}>
                <label for={`edit-comment-${comment.id}`}>Edit comment</label>
                <textarea
                  id={`edit-comment-${comment.id}`}
                  rows={3}
                  value={editing.text}
                  aria-describedby={editing.errors ? `edit-comment-${comment.id}-errors` : undefined}
                  onInput={(e) => setEditing({ ...editing, text: e.currentTarget.value })}
                />
                <FieldErrors id={`edit-comment-${comment.id}-errors`} messages={editing.errors} />
                <div class="buttons">
                  <button type="submit">Save comment</button>
                  <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
                    Cancel
                  </button>
                </div>
              </form>
            ) : (
              <p class="text">{comment.text}</p>
            )}
            {comment.author.id === me && editing?.id !== comment.id ? (
              <div class="buttons">
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Edit comment of ${formatTime(comment.createdAt)}`}
                  onClick={() => setEditing({ id: comment.id, text: comment.text })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Delete comment of ${formatTime(comment.createdAt)}`}
                  onClick={() => remove(comment.id)}
                >
                  Delete
                </button>
              </div>
            ) : comment.author.id !== me && ownerId === me ? (
              <div class="buttons">
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Delete comment of ${formatTime(comment.createdAt)}`}
                  onClick={() => remove(comment.id)}
                >
                  Delete
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      <form onSubmit={add} class="add-comment">
        <label for="comment">Comment</label>
        <textarea
          id="comment"
          rows={3}
          value={text}
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? 'comment-errors' : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <FieldErrors id="comment-errors" messages={errors} />
        <button type="submit" disabled={sending}>
          Add comment
        </button>
      </form>
    </section>
  );
}
