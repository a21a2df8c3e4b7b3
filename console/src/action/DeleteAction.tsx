import { useRef } from 'preact/hooks';
import { api } from '../api';
import { announce } from '../notice';
import { problemOf } from '../problem';
import { navigate } from '../router';
import type { Action } from '../types';

/** "Delete", for the owner, after a confirmation dialog; then back to All actions. */
export function DeleteAction({ action }: { action: Action }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = async () => {
    const { error, response } = await api.DELETE('/api/actions/{id}', { params: { path: { id: action.id } } });
    dialog.current?.close();
    if (error) announce(problemOf(error, response).detail);
    else navigate('/all');
  };
  return (
    <>
      <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
        Delete
      </button>
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
    </>
  );
}
