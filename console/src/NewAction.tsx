import { useState } from 'preact/hooks';
import { actionPath } from '../routes';
import { createBody, emptyValues, errorsByField, FIELDS, type FormValues } from './action-form';
import { api } from './api';
import { Field, FormAlert } from './fields';
import { problemOf } from './problem';
import { navigate } from './router';
import { timeZone } from './time';
import type { Problem } from './types';

/** New action (`/new`): every create field; one Idempotency-Key per form, so a double submit makes one action. */
export function NewAction() {
  const [values, setValues] = useState<FormValues>(emptyValues);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<Problem | undefined>();
  const [sending, setSending] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    const { data, error, response } = await api.POST('/api/actions', {
      params: { header: { 'idempotency-key': key } },
      body: createBody(values, timeZone.value),
    });
    setSending(false);
    if (data) navigate(actionPath(data.id));
    else {
      setProblem(problemOf(error, response));
      // A refused body is corrected before the next try, and a key stands for one body; a retry
      // after a lost answer or a busy service keeps it, so the action is made once.
      if (response.status < 500 && response.status !== 409) setKey(crypto.randomUUID());
    }
  };
  const errors = errorsByField(problem);
  return (
    <>
      <h1 id="new-heading" tabIndex={-1}>
        New action
      </h1>
      <form onSubmit={create} noValidate aria-labelledby="new-heading">
        <p class="hint">Title, Producer, Due, Priority and Status are required.</p>
        <FormAlert messages={errors['']} />
        {problem?.errors?.length ? (
          <p role="alert" class="alert">
            {problem.errors.length === 1 ? 'One field needs' : `${problem.errors.length} fields need`} attention.
          </p>
        ) : null}
        <div class="form-grid">
          {FIELDS.map((spec) => (
            <Field
              key={spec.name}
              spec={spec}
              form="new"
              values={values}
              errors={errors}
              onChange={(name, value) => setValues({ ...values, [name]: value })}
            />
          ))}
        </div>
        <div class="buttons">
          <button type="submit" disabled={sending}>
            Create
          </button>
        </div>
      </form>
    </>
  );
}
