import type { FieldSpec, FormValues } from './action-form';
import { STATUSES, statusName } from './statuses';
import { timeZone } from './time';

/** Problem messages for one field, beside it and named by it (aria-describedby). */
export function FieldErrors({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} class="field-errors">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

interface FieldProps {
  spec: FieldSpec;
  values: FormValues;
  errors: Record<string, string[]>;
  onChange: (name: string, value: string | boolean) => void;
  /** A prefix for ids, so two forms on a page do not share them. */
  form: string;
  disabled?: boolean;
}

/** One labelled control of an action form, with its hint and the API's errors for it. */
export function Field({ spec, values, errors, onChange, form, disabled }: FieldProps) {
  const id = `${form}-${spec.name.replace(/\./g, '-')}`;
  const messages = errors[spec.name];
  const hint = spec.kind === 'due' ? `Date and time in ${timeZone.value}` : spec.hint;
  const described = [hint ? `${id}-hint` : '', messages?.length ? `${id}-errors` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: spec.name,
    disabled,
    required: spec.required,
    'aria-invalid': messages?.length ? true : undefined,
    'aria-describedby': described || undefined,
  };
  const value = values[spec.name];
  const set = (event: Event) => onChange(spec.name, (event.currentTarget as HTMLInputElement).value);
  let control: preact.JSX.Element;
  switch (spec.kind) {
    case 'textarea':
      control = <textarea {...common} rows={4} value={String(value ?? '')} onInput={set} />;
      break;
    case 'status': {
      const current = String(value ?? '');
      const options =
        STATUSES.some((s) => s.value === current) || !current ? STATUSES : [...STATUSES, { value: current }];
      control = (
        <select {...common} value={current} onChange={set}>
          {options.map((s) => (
            <option key={s.value} value={s.value}>
              {statusName(s.value)}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'checkbox':
      control = (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(spec.name, event.currentTarget.checked)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type={({ text: 'text', url: 'url', due: 'datetime-local', number: 'number' } as const)[spec.kind] as 'text'}
          min={spec.kind === 'number' ? 0 : undefined}
          value={String(value ?? '')}
          onInput={set}
        />
      );
  }
  return (
    <div class={`field field-${spec.kind}`}>
      <label for={id}>{spec.label}</label>
      {hint ? (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      ) : null}
      {control}
      <FieldErrors id={`${id}-errors`} messages={messages} />
    </div>
  );
}

/** The messages no field of the form owns, announced. */
export function FormAlert({ messages }: { messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <div role="alert" class="alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
