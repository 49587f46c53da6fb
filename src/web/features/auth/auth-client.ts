import { ErrorBodySchema } from '../../../contracts/errors.ts';

/**
 * Calls to /api/auth from the browser. Same-origin fetch with the session cookie; the session token
 * itself is never visible to scripts (HttpOnly), nor kept in storage.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string; fields: Record<string, string>; retryAfterSeconds?: number };

export const NETWORK_FAILURE = 'We could not reach the server. Check your connection and try again.';

export async function postJson<T>(url: string, body: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILURE, fields: {} };
  }
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: json as T };
  const parsed = ErrorBodySchema.safeParse(json);
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    status: response.status,
    message: parsed.success ? parsed.data.error.message : 'Something went wrong on our side. Please try again.',
    fields: parsed.success ? (parsed.data.error.fields ?? {}) : {},
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
}
