import { useCallback, useEffect, useState } from 'react';
import { requestJson } from '../../lib/api-client.ts';
import { reportSessionLost } from '../../lib/session-events.ts';

/** The console's reads of /api/admin, as a state a page can render (writes use lib/api-client.ts). */

export type DataState<T> =
  { kind: 'loading' } | { kind: 'ready'; data: T } | { kind: 'error'; message: string; status: number };

/**
 * Reads `url` while the component is mounted and whenever it changes; `reload` reads it again.
 * A 401 or 403 means the session ended or the role was taken away: the console's layout shows the
 * login screen or "not allowed" instead (lib/session-events.ts), without a reload.
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
        // 401 was reported by the client; a role taken away (403) is reported here.
        if (result.status === 403) reportSessionLost();
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
