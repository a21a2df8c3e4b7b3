import { api } from '../api';
import type { StoredAttachment } from '../api-pending';
import { person } from '../auth';
import { me } from '../me';
import { announce } from '../notice';
import { problemOf } from '../problem';
import type { Action } from '../types';

/**
 * "Remove" for those the API lets remove a file (the uploader, the owner, a manager): offered to
 * the first two and to anyone with a manager's grant somewhere; the API decides.
 */
export function RemoveAttachment({
  action,
  attachment,
  reload,
}: {
  action: Action;
  attachment: StoredAttachment;
  reload: () => Promise<unknown>;
}) {
  const who = person.value?.id;
  const manages = me.value?.grants.some((g) => g.role === 'manager' || g.role === 'admin');
  if (who !== attachment.uploadedBy.id && who !== action.owner.id && !manages) return null;
  const remove = async () => {
    const { error, response } = await api.DELETE('/api/actions/{id}/attachments/{attachmentId}', {
      params: { path: { id: action.id, attachmentId: attachment.id } },
    });
    announce(error ? problemOf(error, response).detail : `Removed ${attachment.name}.`);
    await reload();
  };
  return (
    <button type="button" class="secondary" aria-label={`Remove ${attachment.name}`} onClick={remove}>
      Remove
    </button>
  );
}
