import {
  type ApiClient,
  type ApiResult,
  type EndpointDeclaration,
  NETWORK_FAILURE,
  pathOf,
  resultOf,
} from '../../contracts/endpoint.ts';
import { reportSessionLost } from './session-events.ts';

/**
 * The one API client in the browser: each call names its endpoint's declaration (src/contracts),
 * which gives the method, the path and the types. Same-origin fetch with the session cookie
 * (HttpOnly, never visible to scripts), JSON in and out (or a FormData body, sent as multipart),
 * and every outcome as a value (ApiResult): nothing here throws. Route loaders and actions use the
 * same interface in process (`services.api`).
 */
async function send<T>(declaration: EndpointDeclaration, url: string, body: unknown): Promise<ApiResult<T>> {
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(url, {
      method: declaration.method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined || multipart ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: multipart ? (body as FormData) : JSON.stringify(body) }),
    });
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILURE, fields: {}, fromServer: false };
  }
  const json: unknown = await response.json().catch(() => null);
  // The session ended (signed out elsewhere, expired, disabled): the page shows the login screen.
  // Sign-in and account requests answer 401 for a wrong password: they are not a lost session.
  if (response.status === 401 && !declaration.path.startsWith('/api/auth/')) reportSessionLost();
  return resultOf<T>(response.status, json, response.headers.get('retry-after'));
}

/** Calls one endpoint from the browser. */
export const api: ApiClient = {
  call: ((declaration: EndpointDeclaration, input: { params?: unknown; query?: unknown; body?: unknown } = {}) =>
    send(declaration, pathOf(declaration, input), input.body)) as ApiClient['call'],
};
