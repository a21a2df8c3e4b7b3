import type { StoredAttachment } from '../api-pending';
import type { Action } from '../types';
import { AddAttachment } from './AddAttachment';
import { RemoveAttachment } from './RemoveAttachment';
import { StoredFile } from './StoredFile';

type Attachment = Action['attachments'][number];
/** A link attachment (section 3): a URL someone stored elsewhere. */
type Link = Extract<Attachment, { url: string }>;

/** Uploaded files carry an id and who uploaded them; link attachments a `url` only. */
const isStored = (attachment: Attachment | StoredAttachment): attachment is StoredAttachment =>
  'id' in attachment && 'uploadedAt' in attachment;

/** The action's evidence (contract section 15): uploaded photos and files, the links, and adding one. */
export function Attachments({ action, reload }: { action: Action; reload: () => Promise<unknown> }) {
  const all = action.attachments as (Attachment | StoredAttachment)[];
  const stored = all.filter(isStored);
  const links = all.filter((a): a is Link => !isStored(a) && 'url' in a);
  return (
    <section aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Photos and files ({all.length})</h2>
      {all.length === 0 ? <p>No photos or files yet.</p> : null}
      {stored.length ? (
        <ul class="stored-files">
          {stored.map((attachment) => (
            <StoredFile key={attachment.id} actionId={action.id} attachment={attachment}>
              <RemoveAttachment action={action} attachment={attachment} reload={reload} />
            </StoredFile>
          ))}
        </ul>
      ) : null}
      {links.length ? (
        <ul class="links">
          {links.map((link) => (
            <li key={link.url}>
              {/^https?:/i.test(link.url) ? (
                <a href={link.url} rel="noopener noreferrer">
                  {link.name ?? link.url}
                </a>
              ) : (
                (link.name ?? link.url)
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <AddAttachment actionId={action.id} reload={reload} />
    </section>
  );
}
