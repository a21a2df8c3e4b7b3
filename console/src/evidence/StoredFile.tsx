import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { StoredAttachment } from '../api-pending';
import { problemOf } from '../problem';
import { formatTime } from '../time';
import { bytesInWords } from './bytes';

/** The file's bytes, read through the API (a 302 to a presigned GET), as an object URL of this page. */
async function readFile(actionId: string, attachment: StoredAttachment): Promise<string> {
  const { data, error, response } = await api.GET('/api/actions/{id}/attachments/{attachmentId}', {
    params: { path: { id: actionId, attachmentId: attachment.id } },
    parseAs: 'blob',
  });
  if (!data) throw new Error(problemOf(error, response).detail);
  return URL.createObjectURL(data as Blob);
}

const isImage = (attachment: StoredAttachment) => attachment.contentType.startsWith('image/');
/** What a scan result means for reading the file (section 15): pending and threat are never served. */
const unreadable = (attachment: StoredAttachment) =>
  attachment.scan === 'pending'
    ? 'Being checked for malware; shown once it is clean.'
    : attachment.scan === 'threat'
      ? 'Malware was found in this file; it is never served.'
      : undefined;

/** One uploaded file: an image as a thumbnail, any other file by name, type and size; its object URL is its one state. */
export function StoredFile({
  actionId,
  attachment,
  children,
}: {
  actionId: string;
  attachment: StoredAttachment;
  /** Its controls (Remove). */
  children?: ComponentChildren;
}) {
  const [read, setRead] = useState<{ url?: string; problem?: string }>({});
  const blocked = unreadable(attachment);

  useEffect(() => {
    if (blocked || !isImage(attachment)) return;
    let url: string | undefined;
    readFile(actionId, attachment).then(
      (objectUrl) => {
        url = objectUrl;
        setRead({ url });
      },
      (error: Error) => setRead({ problem: `The photo could not be shown: ${error.message}` }),
    );
    return () => url && URL.revokeObjectURL(url);
  }, [attachment.id]);

  const open = async () => {
    try {
      const url = read.url ?? (await readFile(actionId, attachment));
      setRead({ url });
      const link = document.createElement('a');
      link.href = url;
      link.download = attachment.name;
      link.click();
    } catch (error) {
      setRead({ problem: `The file could not be read: ${(error as Error).message}` });
    }
  };

  const about = `${attachment.contentType}, ${bytesInWords(attachment.size)}, added by ${attachment.uploadedBy.name} ${formatTime(attachment.uploadedAt)}`;
  return (
    <li class="stored-file">
      {isImage(attachment) && read.url ? (
        <a href={read.url} target="_blank" rel="noopener">
          <img src={read.url} alt={attachment.name} class="thumbnail" />
        </a>
      ) : null}
      <p class="file-name">
        {isImage(attachment) || blocked ? (
          <strong>{attachment.name}</strong>
        ) : (
          <button type="button" class="link" onClick={open}>
            {attachment.name}
          </button>
        )}
      </p>
      <p class="hint">{about}</p>
      {blocked ? <p>{blocked}</p> : null}
      {read.problem ? <p class="field-errors">{read.problem}</p> : null}
      {children}
    </li>
  );
}
