import { useRef, useState } from 'preact/hooks';
import { errorsByField, FIELDS, type FormValues, mergePatch, valuesOf } from '../action-form';
import { api, etagOf } from '../api';
import { Field, FormAlert } from '../fields';
import { announce } from '../notice';
import { nameOf } from '../people';
import { problemOf } from '../problem';
import { timeZone } from '../time';
import type { Action, Problem } from '../types';

/** An edit under way: the version it started from, what is typed, and how the last Save went. */
interface Edit {
  base: Action;
  values: FormValues;
  saving?: boolean;
  problem?: Problem;
  /** A 403's or 412's words; `stale` offers Reload. */
  message?: string;
  stale?: boolean;
}

/** Who may edit, in words, for a 403. */
export function whoMayEdit(action: Action): string {
  const assignee = nameOf(action.assignee, '');
  return `Only the owner (${action.owner.name})${assignee ? ` or the assignee (${assignee})` : ''} may edit this action${
    action.allowAnonymousEdits ? '; its assignee and who may edit are for them alone' : ''
  }.`;
}

interface Props {
  action: Action;
  /** The owner alone may change who may edit. */
  mine: boolean;
  /** Reads the action again; its fresh version, if it still exists. */
  reload: () => Promise<Action | undefined>;
}

/**
 * "Edit" and its form: a merge patch of the changed fields with `If-Match`; a 412 keeps what was
 * typed and offers Reload, a 403 says who may edit (contract section 13).
 */
export function EditAction({ action, mine, reload }: Props) {
  const [edit, setEdit] = useState<Edit | undefined>();
  const button = useRef<HTMLButtonElement>(null);
  const zone = timeZone.value;

  const save = async (event: Event) => {
    event.preventDefault();
    if (!edit || edit.saving) return;
    setEdit({ ...edit, saving: true });
    const { data, error, response } = await api.PATCH('/api/actions/{id}', {
      params: { path: { id: edit.base.id }, header: { 'if-match': etagOf(edit.base) } },
      body: mergePatch(valuesOf(edit.base, zone), edit.values, zone),
    });
    if (data) {
      setEdit(undefined);
      announce('Saved.');
      await reload();
      button.current?.focus();
      return;
    }
    const typed = { base: edit.base, values: edit.values };
    if (response.status === 412)
      setEdit({
        ...typed,
        stale: true,
        message: 'This action was changed by someone else. Reload it to see the change; what you typed stays.',
      });
    else if (response.status === 403) setEdit({ ...typed, message: whoMayEdit(edit.base) });
    else setEdit({ ...typed, problem: problemOf(error, response) });
  };

  const reloadKeepingTyped = async () => {
    if (!edit) return;
    // Save waits for the latest version, or it would meet the same 412 again.
    setEdit({ ...edit, saving: true });
    const fresh = await reload();
    if (!fresh) return setEdit({ base: edit.base, values: edit.values });
    // What the person typed stays; every field they left alone shows the other change.
    const before = valuesOf(edit.base, zone);
    const typed = Object.entries(edit.values).filter(([name, value]) => before[name] !== value);
    setEdit({ base: fresh, values: { ...valuesOf(fresh, zone), ...Object.fromEntries(typed) } });
    announce('Reloaded. Your changes are still in the form; Save to apply them to the latest version.');
  };

  const fieldErrors = errorsByField(edit?.problem);
  return (
    <>
      <button
        type="button"
        ref={button}
        aria-expanded={edit ? 'true' : 'false'}
        onClick={() => setEdit(edit ? undefined : { base: action, values: valuesOf(action, zone) })}
      >
        Edit
      </button>
      {edit ? (
        <form class="edit" onSubmit={save} aria-labelledby="edit-heading" noValidate>
          <h2 id="edit-heading">Edit</h2>
          {edit.message ? (
            <div role="alert" class="alert">
              <p>{edit.message}</p>
              {edit.stale ? (
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
                values={edit.values}
                errors={fieldErrors}
                disabled={spec.name === 'allowAnonymousEdits' && !mine}
                onChange={(name, value) => setEdit({ ...edit, values: { ...edit.values, [name]: value } })}
              />
            ))}
          </div>
          <div class="buttons">
            <button type="submit" disabled={edit.saving}>
              Save
            </button>
            <button type="button" class="secondary" onClick={() => setEdit(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
