import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The token of a mailed link (?token=…). Once read, it is taken out of the address bar, so it is not
 * kept in history or shown over a shoulder; these pages also send no Referer.
 */
export function useOneTimeToken(): string {
  const [params] = useSearchParams();
  const [token] = useState(() => params.get('token') ?? '');
  useEffect(() => {
    if (!token) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, [token]);
  return token;
}
