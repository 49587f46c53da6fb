import { ErrorBodySchema } from '../../contracts/errors.ts';
import { reportSessionLost } from './session-events.ts';

/**
 * The one way the browser calls our API: same-origin fetch with the session cookie (HttpOnly, never
 * visible to scripts), JSON in and out (or a FormData body, sent as multipart), and every outcome as
 * a value: the data, or the server's message and field errors (docs/design.md §4.1), or a network
 * failure (status 0). Nothing here throws.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      message: string;
      fields: Record<string, string>;
      /** False when the answer was not our error shape (a proxy's page, no answer at all). */
      fromServer: boolean;
      retryAfterSeconds?: number;
    };

export const NETWORK_FAILURE = 'We could not reach the server. Check your connection and try again.';
export const UNEXPECTED_FAILURE = 'Something went wrong on our side. Please try again.';

export async function requestJson<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  options: { signal?: AbortSignal; fetchImpl?: typeof fetch } = {},
): Promise<ApiResult<T>> {
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(url, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined || multipart ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: multipart ? (body as FormData) : JSON.stringify(body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILURE, fields: {}, fromServer: false };
  }
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: json as T };
  // The session ended (signed out elsewhere, expired, disabled): the page shows the login screen.
  // Sign-in and account requests answer 401 for a wrong password: they are not a lost session.
  if (response.status === 401 && !url.startsWith('/api/auth/')) reportSessionLost();
  const parsed = ErrorBodySchema.safeParse(json);
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    status: response.status,
    message: parsed.success ? parsed.data.error.message : UNEXPECTED_FAILURE,
    fields: parsed.success ? (parsed.data.error.fields ?? {}) : {},
    fromServer: parsed.success,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
}

export const postJson = <T>(url: string, body?: unknown) => requestJson<T>('POST', url, body);
