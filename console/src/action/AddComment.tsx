import { useState } from 'preact/hooks';
import { api } from '../api';
import { FieldErrors } from '../fields';
import { messagesOf, problemOf } from '../problem';

/** A comment being written: its text, its one Idempotency-Key, and how the last try went. */
interface Draft {
  text: string;
  /** One key per comment, so a double click or a retry adds it once. */
  key: string;
  errors?: string[];
  sending?: boolean;
}

const fresh = (): Draft => ({ text: '', key: crypto.randomUUID() });

/** The text box named "Comment" and "Add comment"; what was typed stays until it is added. */
export function AddComment({ actionId, onAdded }: { actionId: string; onAdded: () => Promise<unknown> }) {
  const [draft, setDraft] = useState<Draft>(fresh);
  const add = async (event: Event) => {
    event.preventDefault();
    if (draft.sending) return;
    setDraft({ ...draft, sending: true });
    const { error, response } = await api.POST('/api/actions/{id}/comments', {
      params: { path: { id: actionId }, header: { 'idempotency-key': draft.key } },
      body: { text: draft.text },
    });
    if (error) return setDraft({ ...draft, sending: false, errors: messagesOf(problemOf(error, response)) });
    setDraft(fresh());
    await onAdded();
  };
  return (
    <form onSubmit={add} class="add-comment">
      <label for="comment">Comment</label>
      <textarea
        id="comment"
        rows={3}
        value={draft.text}
        aria-invalid={draft.errors ? true : undefined}
        aria-describedby={draft.errors ? 'comment-errors' : undefined}
        onInput={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
      />
      <FieldErrors id="comment-errors" messages={draft.errors} />
      <button type="submit" disabled={draft.sending}>
        Add comment
      </button>
    </form>
  );
}
