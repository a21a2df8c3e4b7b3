import { api } from '../api';
import { person } from '../auth';
import { announce } from '../notice';
import { problemOf } from '../problem';
import type { Action } from '../types';

/** "Endorse" or "Withdraw endorsement", for the signed-in person. */
export function Endorsement({ action, reload }: { action: Action; reload: () => Promise<unknown> }) {
  const endorsed = action.endorsedBy.some((e) => e.id === person.value?.id);
  const toggle = async () => {
    const path = { id: action.id };
    const { error, response } = endorsed
      ? await api.DELETE('/api/actions/{id}/endorsements/me', { params: { path } })
      : await api.PUT('/api/actions/{id}/endorsements/me', { params: { path } });
    announce(error ? problemOf(error, response).detail : endorsed ? 'Endorsement withdrawn.' : 'Endorsed.');
    await reload();
  };
  return (
    <button type="button" onClick={toggle}>
      {endorsed ? 'Withdraw endorsement' : 'Endorse'}
    </button>
  );
}

/** Who endorsed the action. */
export function Endorsers({ action }: { action: Action }) {
  return (
    <section aria-labelledby="endorsements-heading">
      <h2 id="endorsements-heading">Endorsements</h2>
      {action.endorsedBy.length ? (
        <p>Endorsed by {action.endorsedBy.map((e) => e.name).join(', ')}</p>
      ) : (
        <p>No one has endorsed this action.</p>
      )}
    </section>
  );
}
