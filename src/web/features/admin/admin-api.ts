import { useCallback, useEffect, useState } from 'react';
import { ErrorBodySchema } from '../../../contracts/errors.ts';

/**
 * The console's calls to /api/admin: same-origin fetch with the session cookie. Reads come back as
 * a state a page can render; writes as a result with the server's message and field errors.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string; fields: Record<string, string> };

export const NETWORK_FAILURE = 'We could not reach the server. Check your connection and try again.';

export async function requestJson<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILURE, fields: {} };
  }
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: json as T };
  const parsed = ErrorBodySchema.safeParse(json);
  return {
    ok: false,
    status: response.status,
    message: parsed.success ? parsed.data.error.message : 'Something went wrong on our side. Please try again.',
    fields: parsed.success ? (parsed.data.error.fields ?? {}) : {},
  };
}

export type DataState<T> =
  { kind: 'loading' } | { kind: 'ready'; data: T } | { kind: 'error'; message: string; status: number };

/**
 * Reads `url` while the component is mounted and whenever it changes; `reload` reads it again.
 * A 401 or 403 means the session ended or the role was taken away: the page reloads, and the
 * console's layout shows the login screen or "not allowed" instead.
 */
export function useApiData<T>(url: string | null): { state: DataState<T>; reload(): void; replace(data: T): void } {
  const [state, setState] = useState<{ url: string | null; value: DataState<T> }>({ url, value: { kind: 'loading' } });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!url) return;
    let cancelled = false;
    void requestJson<T>('GET', url).then((result) => {
      if (cancelled) return;
      if (!result.ok && (result.status === 401 || result.status === 403)) {
        window.location.reload();
        return;
      }
      setState({
        url,
        value: result.ok
          ? { kind: 'ready', data: result.data }
          : { kind: 'error', message: result.message, status: result.status },
      });
    });
    return () => {
      cancelled = true;
    };
  }, [url, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const replace = useCallback((data: T) => setState({ url, value: { kind: 'ready', data } }), [url]);
  // Data read for another URL is not shown for this one (a filter just changed).
  return { state: state.url === url ? state.value : { kind: 'loading' }, reload, replace };
}
