import { useState } from 'preact/hooks';
import { announce } from '../notice';
import { addAttachment } from './add-attachment';
import { bytesInWords } from './bytes';
import { type Prepared, preparePhoto } from './shrink-photo';

/** The contract's default ATTACHMENT_TYPES: photos and PDF. */
const FILE_TYPES = 'image/jpeg,image/png,image/webp,image/heic,application/pdf';

/** Where one upload is: shrinking, sending (bytes), attaching, or refused (kept for Try again). */
type Upload =
  | { phase: 'preparing'; name: string }
  | { phase: 'sending'; file: Prepared; sent: number; total: number }
  | { phase: 'attaching'; file: Prepared }
  | { phase: 'failed'; file: Prepared; message: string };

/**
 * "Add photo or file": the camera on a phone (`capture`) or a chosen file; a photo is shrunk in
 * the browser, sent straight to storage with progress, then attached. Its own state only: a
 * failed upload leaves every other form on the page (comment, edit) as it was.
 */
export function AddAttachment({ actionId, reload }: { actionId: string; reload: () => Promise<unknown> }) {
  const [upload, setUpload] = useState<Upload | undefined>();
  const busy = upload && upload.phase !== 'failed';

  const send = async (file: Prepared) => {
    setUpload({ phase: 'sending', file, sent: 0, total: file.body.size });
    try {
      await addAttachment(actionId, file, (sent, total) => setUpload({ phase: 'sending', file, sent, total }));
      setUpload({ phase: 'attaching', file });
      await reload();
      setUpload(undefined);
      const shrunk = file.measured;
      announce(
        `Added ${file.name}${shrunk ? ` (made smaller: ${bytesInWords(shrunk.bytesIn)} to ${bytesInWords(shrunk.bytesOut)})` : ''}.`,
      );
      // The shrink's measure (bytes in, out, ms), for the browser test that reports it.
      if (shrunk) document.body.dataset.lastShrink = JSON.stringify(shrunk);
    } catch (error) {
      setUpload({ phase: 'failed', file, message: error instanceof Error ? error.message : String(error) });
    }
  };
  const choose = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen || busy) return;
    setUpload({ phase: 'preparing', name: chosen.name });
    const file = await preparePhoto(chosen);
    await send(file);
  };

  return (
    <fieldset class="add-file" disabled={busy}>
      <legend>Add photo or file</legend>
      <div class="file-inputs">
        <div class="field">
          <label for="attach-camera">Take a photo</label>
          <input id="attach-camera" type="file" accept="image/*" capture="environment" onChange={choose} />
        </div>
        <div class="field">
          <label for="attach-file">Choose a photo or PDF</label>
          <input id="attach-file" type="file" accept={FILE_TYPES} onChange={choose} />
        </div>
      </div>
      {upload?.phase === 'preparing' ? <p class="hint">Preparing {upload.name}…</p> : null}
      {upload?.phase === 'sending' ? (
        <div class="field">
          <label for="upload-progress">
            Sending {upload.file.name} ({bytesInWords(upload.sent)} of {bytesInWords(upload.total)})
          </label>
          <progress id="upload-progress" max={upload.total} value={upload.sent} />
        </div>
      ) : null}
      {upload?.phase === 'attaching' ? <p class="hint">Attaching {upload.file.name}…</p> : null}
      {upload?.phase === 'failed' ? (
        <div role="alert" class="alert">
          <p>
            {upload.file.name} was not added. {upload.message}
          </p>
          <div class="buttons">
            <button type="button" onClick={() => send(upload.file)}>
              Try again
            </button>
            <button type="button" class="secondary" onClick={() => setUpload(undefined)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
