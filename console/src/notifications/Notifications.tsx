import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { NotificationPreferences } from '../api-pending';
import { FormAlert } from '../fields';
import { announce, notice } from '../notice';
import { messagesOf, problemOf } from '../problem';
import type { Problem } from '../types';
import { EMAIL_CHOICES, EVENT_WORDS, hourInWords, preferencesPatch } from './preferences-form';
import { showTimesIn } from './time-zone';

/** The preferences as saved and as on the form, and how reading or saving them went. */
interface Form {
  saved: NotificationPreferences;
  values: NotificationPreferences;
  saving?: boolean;
  problem?: Problem;
}

const ZONES: string[] =
  (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

/** Notifications (`/notifications`): how and about what the person is emailed, and their time zone. */
export function Notifications() {
  const [form, setForm] = useState<Form | Problem | undefined>();

  useEffect(() => {
    notice.value = '';
    void api
      .GET('/api/me/notifications')
      .then(({ data, error, response }) => setForm(data ? { saved: data, values: data } : problemOf(error, response)));
  }, []);

  const heading = (
    <h1 id="notifications-heading" tabIndex={-1}>
      Notifications
    </h1>
  );
  if (!form)
    return (
      <>
        {heading}
        <p class="count" aria-live="polite">
          Loading…
        </p>
      </>
    );
  if (!('saved' in form))
    return (
      <>
        {heading}
        <FormAlert messages={messagesOf(form)} />
      </>
    );

  const { values } = form;
  const set = (change: Partial<NotificationPreferences>) => setForm({ ...form, values: { ...values, ...change } });
  const save = async (event: Event) => {
    event.preventDefault();
    if (form.saving) return;
    const patch = preferencesPatch(form.saved, values);
    if (Object.keys(patch).length === 0) return announce('Nothing changed.');
    setForm({ ...form, saving: true, problem: undefined });
    const { data, error, response } = await api.PATCH('/api/me/notifications', { body: patch });
    if (!data) return setForm({ ...form, saving: false, problem: problemOf(error, response) });
    setForm({ saved: data, values: data });
    showTimesIn(data.timeZone);
    announce('Saved.');
  };
  const zones = ZONES.includes(values.timeZone) ? ZONES : [values.timeZone, ...ZONES];

  return (
    <>
      {heading}
      <p role="status" class="notice">
        {notice.value}
      </p>
      <form class="preferences" onSubmit={save} aria-labelledby="notifications-heading" noValidate>
        <FormAlert messages={form.problem ? messagesOf(form.problem) : undefined} />
        <fieldset>
          <legend>Email</legend>
          {EMAIL_CHOICES.map(([choice, words]) => (
            <div class="field-checkbox" key={choice}>
              <input
                type="radio"
                id={`email-${choice}`}
                name="email"
                value={choice}
                checked={values.email === choice}
                onChange={() => set({ email: choice })}
              />
              <label for={`email-${choice}`}>{words}</label>
            </div>
          ))}
        </fieldset>
        <fieldset disabled={values.email === 'off'}>
          <legend>Tell me when</legend>
          {EVENT_WORDS.map(([name, words]) => (
            <div class="field-checkbox" key={name}>
              <input
                type="checkbox"
                id={`event-${name}`}
                checked={values.events[name]}
                onChange={(event) => set({ events: { ...values.events, [name]: event.currentTarget.checked } })}
              />
              <label for={`event-${name}`}>{words}</label>
            </div>
          ))}
        </fieldset>
        <div class="form-grid">
          <div class="field">
            <label for="time-zone">Time zone</label>
            <span id="time-zone-hint" class="hint">
              Every time in the console and in emails is shown in it
            </span>
            <select
              id="time-zone"
              aria-describedby="time-zone-hint"
              value={values.timeZone}
              onChange={(event) => set({ timeZone: event.currentTarget.value })}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="digest-hour">Daily email at</label>
            <select
              id="digest-hour"
              value={String(values.digestHour)}
              disabled={values.email !== 'daily'}
              onChange={(event) => set({ digestHour: Number(event.currentTarget.value) })}
            >
              {Array.from({ length: 24 }, (_, hour) => (
                <option key={hour} value={String(hour)}>
                  {hourInWords(hour)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div class="buttons">
          <button type="submit" disabled={form.saving}>
            Save
          </button>
        </div>
      </form>
    </>
  );
}
