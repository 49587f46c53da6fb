import { ErrorBodySchema } from '../../contracts/errors.ts';
import { NETWORK_FAILURE, UNEXPECTED_FAILURE } from './api-client.ts';
import { reportSessionLost } from './session-events.ts';

export type UploadResult<T> =
  { ok: true; status: number; data: T } | { ok: false; status: number; message: string; fromServer: boolean };

/**
 * Posts a form with files to our API and reports how much of it has gone (fetch cannot tell an
 * upload's progress; XMLHttpRequest can). Same-origin, with the session cookie, JSON back; like
 * api-client.ts, every outcome is a value and a lost session is reported.
 */
export function postWithProgress<T>(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<UploadResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.responseType = 'text';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('error', () => resolve({ ok: false, status: 0, message: NETWORK_FAILURE, fromServer: false }));
    xhr.addEventListener('load', () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText) as unknown;
      } catch {
        json = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true, status: xhr.status, data: json as T });
        return;
      }
      if (xhr.status === 401) reportSessionLost();
      const parsed = ErrorBodySchema.safeParse(json);
      resolve({
        ok: false,
        status: xhr.status,
        message: parsed.success ? parsed.data.error.message : UNEXPECTED_FAILURE,
        fromServer: parsed.success,
      });
    });
    xhr.send(form);
  });
}
