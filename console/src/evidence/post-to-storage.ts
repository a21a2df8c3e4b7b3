import type { Upload } from '../api-pending';

/**
 * Sends a file to storage by the presigned POST the API gave (contract section 15): a multipart
 * form of the policy's `fields`, then the file last (S3 ignores fields after it), by
 * XMLHttpRequest, whose upload events give progress (fetch has none). Storage checks the policy;
 * its refusal (an S3 XML error) comes back as words.
 */
export function postToStorage(
  upload: Upload,
  body: Blob,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', body);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', upload.url);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : body.size);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      const text = request.responseText;
      const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
      reject(new Error(`Storage refused the file (${request.status}${message ? `: ${message}` : ''}).`));
    };
    request.onerror = () => reject(new Error('The file could not be sent: the connection to storage failed.'));
    request.ontimeout = request.onerror;
    request.send(form);
  });
}
