import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { Grant } from '../api-pending';
import { FieldErrors, FormAlert } from '../fields';
import { announce } from '../notice';
import { personInWords } from '../people';
import { problemOf } from '../problem';
import type { Problem } from '../types';
import { emptyGrant, type GrantValues, grantBody, grantInWords, ROLES } from './grant-words';
import { type Known, loadKnown } from './known-people';
import { ScopePicker } from './ScopePicker';

/** The person choice that opens the user id field, for someone the service does not know yet (people's choices are `p:<id>`). */
const SOMEONE_ELSE = 'other';

/** The form's values and how the last Grant went. */
interface Draft {
  values: GrantValues;
  sending?: boolean;
  problem?: Problem;
}

/** A problem's messages by the form control they name (`principal.id`, `role`, `scope.site`, ...); the rest under ''. */
function errorsOf(problem: Problem | undefined): Record<string, string[]> {
  const byControl: Record<string, string[]> = {};
  if (!problem) return byControl;
  for (const error of problem.errors ?? []) {
    const named = error.field ?? error.parameter ?? '';
    const control = named.startsWith('principal')
      ? 'principal'
      : named.startsWith('scope')
        ? 'scope'
        : named === 'role'
          ? 'role'
          : '';
    byControl[control] = [...(byControl[control] ?? []), error.message];
  }
  if (!problem.errors?.length) byControl[''] = [problem.detail || problem.title];
  return byControl;
}

/**
 * "Grant access": a person picked from those the service knows (name and email; "Someone else"
 * takes a user id, for a person nobody has named yet) or a group, a role, and a scope picked from
 * the places that exist.
 */
export function GrantForm({ granted, onGranted }: { granted: Grant[]; onGranted: () => Promise<unknown> }) {
  const [draft, setDraft] = useState<Draft>({ values: emptyGrant() });
  const [known, setKnown] = useState<Known>({ people: [], places: [] });
  const [byId, setById] = useState(false);
  useEffect(() => {
    void loadKnown(granted).then(setKnown);
  }, [granted.length]);
  const { values } = draft;
  const set = (change: Partial<GrantValues>) => setDraft({ ...draft, values: { ...values, ...change } });

  const grant = async (event: Event) => {
    event.preventDefault();
    if (draft.sending) return;
    setDraft({ values, sending: true });
    const body = grantBody(values);
    const { data, error, response } = await api.POST('/api/grants', { body });
    if (!data) return setDraft({ values, problem: problemOf(error, response) });
    setDraft({ values: emptyGrant() });
    setById(false);
    announce(`Granted: ${grantInWords(data)}.`);
    await onGranted();
  };

  const errors = errorsOf(draft.problem);
  const person = values.principalType === 'person';
  return (
    <form class="grant" onSubmit={grant} aria-labelledby="grant-heading" noValidate>
      <h2 id="grant-heading">Grant access</h2>
      <FormAlert messages={errors['']} />
      <fieldset>
        <legend>To</legend>
        {(['person', 'group'] as const).map((type) => (
          <div class="field-checkbox" key={type}>
            <input
              type="radio"
              id={`principal-${type}`}
              name="principal-type"
              checked={values.principalType === type}
              onChange={() => set({ principalType: type })}
            />
            <label for={`principal-${type}`}>{type === 'person' ? 'A person' : 'A group'}</label>
          </div>
        ))}
      </fieldset>
      <div class="form-grid">
        {person ? (
          <div class="field">
            <label for="grant-person">Person</label>
            <select
              id="grant-person"
              value={byId ? SOMEONE_ELSE : values.principal ? `p:${values.principal}` : ''}
              aria-invalid={errors.principal && !byId ? true : undefined}
              aria-describedby={errors.principal && !byId ? 'grant-person-errors' : undefined}
              onChange={(event) => {
                const choice = event.currentTarget.value;
                setById(choice === SOMEONE_ELSE);
                set({ principal: choice.startsWith('p:') ? choice.slice(2) : '' });
              }}
            >
              <option value="" disabled>
                Choose a person
              </option>
              {known.people.map((who) => (
                <option key={who.id} value={`p:${who.id}`}>
                  {personInWords(who)}
                </option>
              ))}
              <option value={SOMEONE_ELSE}>Someone else, by user id</option>
            </select>
            {byId ? null : <FieldErrors id="grant-person-errors" messages={errors.principal} />}
          </div>
        ) : null}
        <div class="field" hidden={person && !byId}>
          <label for="grant-principal">{person ? "Person's user id" : 'Group name'}</label>
          <input
            id="grant-principal"
            required
            value={values.principal}
            aria-invalid={errors.principal ? true : undefined}
            aria-describedby={errors.principal ? 'grant-principal-errors' : undefined}
            onInput={(event) => set({ principal: event.currentTarget.value })}
          />
          <FieldErrors id="grant-principal-errors" messages={errors.principal} />
        </div>
        <div class="field">
          <label for="grant-role">Role</label>
          <select
            id="grant-role"
            value={values.role}
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={errors.role ? 'grant-role-errors' : undefined}
            onChange={(event) => set({ role: event.currentTarget.value as GrantValues['role'] })}
          >
            {ROLES.map(([role, words]) => (
              <option key={role} value={role}>
                {words}
              </option>
            ))}
          </select>
          <FieldErrors id="grant-role-errors" messages={errors.role} />
        </div>
        <ScopePicker
          businessUnit={values.businessUnit}
          site={values.site}
          places={[...known.places, ...granted.map((g) => g.scope)]}
          onChange={set}
        />
      </div>
      <FieldErrors id="grant-scope-errors" messages={errors.scope} />
      <div class="buttons">
        <button type="submit" disabled={draft.sending}>
          Grant access
        </button>
      </div>
    </form>
  );
}
