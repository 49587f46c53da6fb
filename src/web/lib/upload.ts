import {
  type AnswerOf,
  type ApiResult,
  type EndpointDeclaration,
  NETWORK_FAILURE,
  pathOf,
  resultOf,
} from '../../contracts/endpoint.ts';
import { reportSessionLost } from './session-events.ts';

/**
 * Posts a form with files to one of our endpoints and reports how much of it has gone (fetch cannot
 * tell an upload's progress; XMLHttpRequest can). Same-origin, with the session cookie, JSON back;
 * like the browser's client (api-client.ts), every outcome is a value and a lost session is reported.
 */
export function postWithProgress<E extends EndpointDeclaration>(
  declaration: E,
  input: { params?: unknown },
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<ApiResult<AnswerOf<E>>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(declaration.method, pathOf(declaration, input));
    xhr.responseType = 'text';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('error', () =>
      resolve({ ok: false, status: 0, message: NETWORK_FAILURE, fields: {}, fromServer: false }),
    );
    xhr.addEventListener('load', () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText) as unknown;
      } catch {
        json = null;
      }
      if (xhr.status === 401) reportSessionLost();
      resolve(resultOf<AnswerOf<E>>(xhr.status, json, xhr.getResponseHeader('retry-after')));
    });
    xhr.send(form);
  });
}
